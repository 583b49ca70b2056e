#include "solvers/linear_solver.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace fem {

SolveReport LinearSolver::solve(const AssembledSystem&, std::span<double>) {
  throw SolverUnavailable("this solver takes element matrices, not an assembled matrix");
}

SolveReport LinearSolver::solve(const ElementSystem&, std::span<double>) {
  throw SolverUnavailable("this solver takes an assembled matrix, not element matrices");
}

void require_right_hand_sides(std::int64_t equations, std::span<const double> rhs, std::span<const double> solution,
                              int count) {
  const auto n = static_cast<std::size_t>(equations);
  if (count < 1 || rhs.size() != n * count || solution.size() != n * count)
    throw std::invalid_argument("prepared solve: " + std::to_string(count) + " right-hand sides of " +
                                std::to_string(n) + " equations need " + std::to_string(n * std::max(count, 0)) +
                                " values; got " + std::to_string(rhs.size()) + " and " +
                                std::to_string(solution.size()));
}

void add_right_hand_side(SolveReport& total, const SolveReport& one) {
  total.time_setup_s += one.time_setup_s;
  total.time_solve_s += one.time_solve_s;
  total.iterations = std::max(total.iterations, one.iterations);
  total.residual = std::max(total.residual, one.residual);
  total.memory_bytes = std::max(total.memory_bytes, one.memory_bytes);
  if (total.unconverged.empty()) total.unconverged = one.unconverged;
  total.residual_history.insert(total.residual_history.end(), one.residual_history.begin(),
                                one.residual_history.end());
}

SolveReport LinearSolver::solve_by_preparing(const AssembledSystem& system, std::span<double> solution) {
  require_right_hand_sides(system.matrix.rows(), system.rhs, solution, 1);
  const SystemMatrix& k = system.matrix;
  const auto prepared = k.blocks ? prepare(k, system.nodes) : prepare(*k.csr, system.nodes);
  const SolveReport solved = prepared->solve(system.rhs, solution, 1);
  SolveReport report = prepared->setup();  // read after the solve: what it had to prepare again included
  report.time_solve_s = solved.time_solve_s;
  report.iterations = solved.iterations;
  report.residual = solved.residual;
  report.residual_history = solved.residual_history;
  report.unconverged = solved.unconverged;
  report.memory_bytes = std::max(report.memory_bytes, solved.memory_bytes);
  for (const auto& [name, value] : solved.figures) report.figures[name] = value;
  return report;
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
    require_right_hand_sides(matrix_.rows, rhs, solution, count);
    const auto n = static_cast<std::size_t>(matrix_.rows);
    SolveReport total;
    for (int k = 0; k < count; ++k) {
      const AssembledSystem system{matrix_, rhs.subspan(k * n, n), nodes_};
      SolveReport one = solver_.solve(system, solution.subspan(k * n, n));
      one.time_solve_s += one.time_setup_s;
      one.time_setup_s = 0;
      add_right_hand_side(total, one);
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

std::unique_ptr<PreparedSolver> LinearSolver::prepare(const SystemMatrix&, NodeLayout) {
  throw std::logic_error("LinearSolver::prepare: this solver takes K in CSR, not in node blocks");
}

}  // namespace fem
