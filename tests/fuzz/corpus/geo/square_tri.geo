// The unit square [0,1] x [0,1] in triangles: the source of square_tri.msh, a small ready-made
// mesh (regenerate it with: gmsh -2 square_tri.geo -format msh41 -o square_tri.msh).
// Physical groups: surface "square"; lines "left" (x = 0), "right" (x = 1), "bottom" (y = 0),
// "top" (y = 1).
// Parameters: size = element size (default 0.25).
DefineConstant[ size = {0.25, Name "Parameters/size"} ];
Point(1) = {0, 0, 0, size};
Point(2) = {1, 0, 0, size};
Point(3) = {1, 1, 0, size};
Point(4) = {0, 1, 0, size};
Line(1) = {1, 2};
Line(2) = {2, 3};
Line(3) = {3, 4};
Line(4) = {4, 1};
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};

Physical Surface("square") = {1};
Physical Curve("bottom") = {1};
Physical Curve("right") = {2};
Physical Curve("top") = {3};
Physical Curve("left") = {4};
