// Cantilever beam, 2D: the rectangle [0,10] x [-0.5,0.5], meshed as a structured grid
// (transfinite), so triangles and quadrilaterals alike come out regular.
// Physical groups: surface "beam"; lines "left" (x = 0), "right" (x = 10), "top" (y = 0.5),
// "bottom" (y = -0.5).
// Parameters: size = element edge length (default 0.25: 40 x 4 cells).
DefineConstant[ size = {0.25, Name "Parameters/size"} ];
length = 10;
height = 1;

Point(1) = {0, -height / 2, 0, size};
Point(2) = {length, -height / 2, 0, size};
Point(3) = {length, height / 2, 0, size};
Point(4) = {0, height / 2, 0, size};
Line(1) = {1, 2};  // bottom
Line(2) = {2, 3};  // right
Line(3) = {3, 4};  // top
Line(4) = {4, 1};  // left
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};

Transfinite Curve{1, 3} = Ceil(length / size) + 1;
Transfinite Curve{2, 4} = Ceil(height / size) + 1;
Transfinite Surface{1};

Physical Surface("beam") = {1};
Physical Curve("left") = {4};
Physical Curve("right") = {2};
Physical Curve("top") = {3};
Physical Curve("bottom") = {1};
