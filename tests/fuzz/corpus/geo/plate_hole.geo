// Plate with a circular hole, 2D: the quarter [0,20] x [0,20] of a 40 x 40 plate with a hole of
// radius 1 at its centre (the origin), for uniaxial tension with symmetry on x = 0 and y = 0.
// Elements grade from size/40 at the hole (0.05 by default) to size far away, so that
// quadratic elements give the stress concentration at the hole edge to within about 1 %.
// Physical groups: surface "plate"; lines "symmetry_x" (on x = 0), "symmetry_y" (on y = 0),
// "right" (x = 20), "top" (y = 20), "hole" (the quarter arc).
// Parameters: size = the largest element size (default 2); the hole gets size/40.
DefineConstant[ size = {2, Name "Parameters/size"} ];
radius = 1;
half_width = 20;
hole_size = size / 40;

Point(1) = {0, 0, 0};  // hole centre
Point(2) = {radius, 0, 0};
Point(3) = {half_width, 0, 0};
Point(4) = {half_width, half_width, 0};
Point(5) = {0, half_width, 0};
Point(6) = {0, radius, 0};
Line(1) = {2, 3};         // symmetry_y
Line(2) = {3, 4};         // right
Line(3) = {4, 5};         // top
Line(4) = {5, 6};         // symmetry_x
Circle(5) = {6, 1, 2};    // hole
Curve Loop(1) = {1, 2, 3, 4, 5};
Plane Surface(1) = {1};

// Size: hole_size within 0.2 of the hole, growing linearly to size at 12 radii.
Field[1] = Distance;
Field[1].CurvesList = {5};
Field[1].NumPointsPerCurve = 200;
Field[2] = Threshold;
Field[2].InField = 1;
Field[2].SizeMin = hole_size;
Field[2].SizeMax = size;
Field[2].DistMin = 0.2 * radius;
Field[2].DistMax = 12 * radius;
Background Field = 2;
Mesh.MeshSizeFromPoints = 0;
Mesh.MeshSizeFromCurvature = 0;
Mesh.MeshSizeExtendFromBoundary = 0;

Physical Surface("plate") = {1};
Physical Curve("symmetry_y") = {1};
Physical Curve("right") = {2};
Physical Curve("top") = {3};
Physical Curve("symmetry_x") = {4};
Physical Curve("hole") = {5};
