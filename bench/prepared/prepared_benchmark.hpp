#pragma once
// `fem-bench-prepared`: what a prepared solver (LinearSolver::prepare) saves on many right-hand
// sides. On a 3D elasticity box, each solver is prepared and solved once for one right-hand side
// and once for several in one call (each from a fresh solver, preparation included); prints the
// two times and their ratio, and writes CSV.

namespace fem::bench {

int run_prepared_benchmark(int argc, char** argv);

}  // namespace fem::bench
