// A square, with what the check must read past (comments, strings) and what it refuses.
/* Exit; SystemCall "rm -rf /"; */
lc = 0.5;
Point(1) = {0, 0, 0, lc}; Point(2) = {1, 0, 0, lc}; Point(3) = {1, 1, 0, lc}; Point(4) = {0, 1, 0, lc};
Line(1) = {1, 2}; Line(2) = {2, 3}; Line(3) = {3, 4}; Line(4) = {4, 1};
Curve Loop(1) = {1, 2, 3, 4}; Plane Surface(1) = {1};
Printf("Exit; \"quoted\" %g", lc);
Physical Surface("square") = {1};
Include "part.geo";
Merge "square.msh";
Printf("x") >> "../out.txt";
