#include "solvers/linear_solver.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

namespace fem {

SolveReport LinearSolver::solve(const AssembledSystem&, std::span<double>) {
  throw SolverUnavailable("this solver takes element matrices, not an assembled matrix");
}

SolveReport LinearSolver::solve(const ElementSystem&, std::span<double>) {
  throw SolverUnavailable("this solver takes an assembled matrix, not element matrices");
}

namespace {

// The fallback preparation: nothing kept, each right-hand side is a whole solve (set-up included,
// counted as solve time since it is paid every time).
class RepeatedSolves final : public PreparedSolver {
 public:
  RepeatedSolves(LinearSolver& solver, const CsrMatrix& matrix, NodeLayout nodes)
      : solver_(solver), matrix_(matrix), nodes_(nodes) {}

  bool reuses_preparation() const override { return false; }

  SolveReport solve(std::span<const double> rhs, std::span<double> solution, int count) override {
    const auto n = static_cast<std::size_t>(matrix_.rows);
    if (count < 1 || rhs.size() != n * count || solution.size() != n * count)
      throw std::invalid_argument("prepared solve: " + std::to_string(count) + " right-hand sides of " +
                                  std::to_string(n) + " equations need " + std::to_string(n * std::max(count, 0)) +
                                  " values; got " + std::to_string(rhs.size()) + " and " +
                                  std::to_string(solution.size()));
    SolveReport total;
    for (int k = 0; k < count; ++k) {
      const AssembledSystem system{matrix_, rhs.subspan(k * n, n), nodes_};
      const SolveReport one = solver_.solve(system, solution.subspan(k * n, n));
      total.time_solve_s += one.time_setup_s + one.time_solve_s;
      total.iterations = std::max(total.iterations, one.iterations);
      total.residual = std::max(total.residual, one.residual);
      total.memory_bytes = std::max(total.memory_bytes, one.memory_bytes);
      if (total.unconverged.empty()) total.unconverged = one.unconverged;
      if (k == 0) total.figures = one.figures;
    }
    return total;
  }

 private:
  LinearSolver& solver_;
  const CsrMatrix& matrix_;
  NodeLayout nodes_;
};

}  // namespace

std::unique_ptr<PreparedSolver> LinearSolver::prepare(const CsrMatrix& matrix, NodeLayout nodes) {
  return std::make_unique<RepeatedSolves>(*this, matrix, nodes);
}

}  // namespace fem
