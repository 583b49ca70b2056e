#include "solvers/iterative/prepared_krylov.hpp"

#include <algorithm>
#include <cmath>

#include "kernels/shared/vector_ops.hpp"
#include "support/stopwatch.hpp"

namespace fem {

PreparedKrylov::PreparedKrylov(std::string name, const SolverOptions& options, const kernels::SparseBackend& backend,
                               SystemMatrix matrix, const NodeLayout& nodes, int work_vectors)
    : name_(std::move(name)), options_(options), backend_(backend), rows_(matrix.rows()) {
  const Stopwatch setting_up;
  krylov_.emplace(backend_, matrix, nodes, options_, setup_);
  x_ = krylov_->vector();
  r_ = krylov_->vector();
  t_ = krylov_->vector();
  setup_.memory_bytes = krylov_->bytes() + static_cast<std::size_t>(work_vectors) * rows_ * sizeof(double);
  setup_.figures["setups"] = 1;
  setup_.time_setup_s = setting_up.seconds();
}

SolveReport PreparedKrylov::solve(std::span<const double> rhs, std::span<double> solution, int count) {
  require_right_hand_sides(rows_, rhs, solution, count);
  const auto n = static_cast<std::size_t>(rows_);
  SolveReport total;
  for (int k = 0; k < count; ++k) {
    const Stopwatch solving;
    const auto f = rhs.subspan(k * n, n);
    const auto x = solution.subspan(k * n, n);
    SolveReport one;
    KrylovMonitor monitor(name_, options_, rows_, one);
    const double norm_f = std::sqrt(cpu::dot(f, f));
    if (norm_f == 0) {
      std::fill(x.begin(), x.end(), 0.0);
    } else {
      // r = f - A x, x the caller's starting guess
      x_->upload(x);
      r_->upload(f);
      krylov_->spmv(*x_, *t_);
      backend_.axpby(-1.0, *t_, 1.0, *r_);
      iterate(norm_f, monitor);
      x_->download(x);
    }
    one.time_solve_s = solving.seconds();
    add_right_hand_side(total, one);
  }
  return total;
}

}  // namespace fem
