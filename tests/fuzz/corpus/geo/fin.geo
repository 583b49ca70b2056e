// Finned heat sink section, 2D: a base plate [0, 6] x [0, 1] carrying three fins of width 0.5
// and height 4 (standing on x in [1, 1.5], [3, 3.5], [5, 5.5]). The section is half of a
// symmetric heat sink, cut by the plane x = 0.
// Area = 6*1 + 3*0.5*4 = 12.
// Physical groups: surface "fin"; lines "base" (y = 0, the hot side), "symmetry" (x = 0),
// "surface" (every other edge: the convective boundary).
// Parameters: size = element size (default 0.2).
DefineConstant[ size = {0.2, Name "Parameters/size"} ];
base_width = 6;
base_thickness = 1;
fin_count = 3;
fin_pitch = 2;
fin_start = 1;       // x of the first fin's left side
fin_width = 0.5;
fin_height = 4;

// The outline, counter-clockwise from the origin: along the base, up the right end, then
// over the fins from right to left, and down the symmetry plane.
Point(1) = {0, 0, 0, size};
Point(2) = {base_width, 0, 0, size};
Point(3) = {base_width, base_thickness, 0, size};
p = 4;
For i In {fin_count - 1 : 0 : -1}
  x = fin_start + i * fin_pitch;
  Point(p) = {x + fin_width, base_thickness, 0, size};
  Point(p + 1) = {x + fin_width, base_thickness + fin_height, 0, size};
  Point(p + 2) = {x, base_thickness + fin_height, 0, size};
  Point(p + 3) = {x, base_thickness, 0, size};
  p += 4;
EndFor
Point(p) = {0, base_thickness, 0, size};
For i In {1 : p - 1}
  Line(i) = {i, i + 1};
EndFor
Line(p) = {p, 1};
Curve Loop(1) = {1 : p};
Plane Surface(1) = {1};

Physical Surface("fin") = {1};
Physical Curve("base") = {1};
Physical Curve("symmetry") = {p};
Physical Curve("surface") = {2 : p - 1};
