#include "solvers/linear_solver.hpp"

namespace fem {

SolveReport LinearSolver::solve(const AssembledSystem&, std::span<double>) {
  throw SolverUnavailable("this solver takes element matrices, not an assembled matrix");
}

SolveReport LinearSolver::solve(const ElementSystem&, std::span<double>) {
  throw SolverUnavailable("this solver takes an assembled matrix, not element matrices");
}

}  // namespace fem
