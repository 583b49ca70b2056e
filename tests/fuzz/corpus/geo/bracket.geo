// L-shaped bracket, 3D (OpenCASCADE): a vertical flange bolted to a wall (the plane x = 0) and
// a horizontal arm sticking out from its foot, fused; a bolt hole goes through the flange.
//   flange: [0, 0.4] x [0, 3] x [0, 3]; arm: [0, 5] x [0, 3] x [0, 0.4];
//   hole: radius 0.4, axis along x through (y, z) = (1.5, 2).
// Volume = 3*3*0.4 + 4.6*3*0.4 - pi*0.4^2*0.4 = 9.12 - 0.064 pi.
// Physical groups: volume "bracket"; surfaces "fixed" (the flange face on the wall, x = 0),
// "load" (the arm's free end, x = 5), "hole" (the bolt hole's cylindrical face).
// Parameters: size = the largest element size (default 0.5); the hole is meshed finer by
// curvature (16 elements around it).
SetFactory("OpenCASCADE");
DefineConstant[ size = {0.5, Name "Parameters/size"} ];
thickness = 0.4;
width = 3;
height = 3;
reach = 5;
hole_radius = 0.4;
hole_height = 2;

Box(1) = {0, 0, 0, thickness, width, height};  // flange
Box(2) = {0, 0, 0, reach, width, thickness};   // arm
Cylinder(3) = {-1, width / 2, hole_height, thickness + 2, 0, 0, hole_radius};
BooleanUnion(4) = {Volume{1}; Delete;}{Volume{2}; Delete;};
BooleanDifference(5) = {Volume{4}; Delete;}{Volume{3}; Delete;};

Mesh.MeshSizeMax = size;
Mesh.MeshSizeFromCurvature = 16;

eps = 1e-6;
fixed() = Surface In BoundingBox{-eps, -eps, -eps, eps, width + eps, height + eps};
load() = Surface In BoundingBox{reach - eps, -eps, -eps, reach + eps, width + eps, thickness + eps};
hole() = Surface In BoundingBox{-eps, width / 2 - hole_radius - eps, hole_height - hole_radius - eps,
                                thickness + eps, width / 2 + hole_radius + eps,
                                hole_height + hole_radius + eps};
Physical Volume("bracket") = {5};
Physical Surface("fixed") = {fixed()};
Physical Surface("load") = {load()};
Physical Surface("hole") = {hole()};
