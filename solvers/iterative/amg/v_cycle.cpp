#include "solvers/iterative/amg/v_cycle.hpp"

#include "solvers/iterative/amg/smoother.hpp"

namespace fem::amg {

// A level's smoother and work vectors on the back-end (level 0 uses the caller's b and x as its
// right side and solution); its matrices are the hierarchy's.
struct VCycle::BackendLevel {
  const kernels::SparseMatrix* p = nullptr;
  const kernels::SparseMatrix* r = nullptr;
  std::unique_ptr<Smoother> smoother;
  std::unique_ptr<kernels::SparseVector> residual, rhs, solution;
};

namespace {

// The options checked before the setup's work.
const AmgOptions& checked(const AmgOptions& options) {
  check_smoother_degree(options.smoother_degree);
  return options;
}

}  // namespace

VCycle::VCycle(const kernels::SparseBackend& backend, SystemMatrix a, const NodeLayout& nodes,
               const AmgOptions& options, bool keep_fine_operator)
    : backend_(backend), hierarchy_(backend, a, nodes, checked(options), keep_fine_operator) {
  const auto& levels = hierarchy_.levels();
  for (std::size_t l = 0; l < levels.size(); ++l) {
    const Level& level = *levels[l];
    auto& on_backend = *levels_.emplace_back(std::make_unique<BackendLevel>());
    const auto n = static_cast<std::size_t>(level.rows);
    if (level.smoothed()) {
      on_backend.smoother = std::make_unique<Smoother>(backend, *level.a_on_backend, level.inv_diag, level.l1_row_sums,
                                                       level.lambda_max, options.smoother, options.smoother_degree);
      on_backend.residual = backend.vector(n);
    }
    on_backend.p = level.p_on_backend.get();
    on_backend.r = level.r_on_backend.get();
    if (l > 0) on_backend.rhs = backend.vector(n), on_backend.solution = backend.vector(n);
  }
  if (hierarchy_.coarse_solver()) {
    coarse_b_.resize(static_cast<std::size_t>(levels.back()->rows));
    coarse_x_.resize(coarse_b_.size());
  }
}

VCycle::~VCycle() = default;

void VCycle::apply(const kernels::SparseVector& b, kernels::SparseVector& x) const { cycle(0, b, x); }

void VCycle::cycle(std::size_t l, const kernels::SparseVector& b, kernels::SparseVector& x) const {
  const BackendLevel& level = *levels_[l];
  if (l + 1 == levels_.size()) {
    if (!hierarchy_.coarse_solver()) return level.smoother->from_zero(b, x, *level.residual);
    b.download(coarse_b_);
    hierarchy_.coarse_solver()->solve(coarse_b_, coarse_x_);
    x.upload(coarse_x_);
    return;
  }
  const BackendLevel& next = *levels_[l + 1];
  level.smoother->from_zero(b, x, *level.residual);
  backend_.block_spmv(*level.r, 1.0, *level.residual, 0.0, *next.rhs);
  cycle(l + 1, *next.rhs, *next.solution);
  backend_.block_spmv(*level.p, 1.0, *next.solution, 1.0, x);
  level.smoother->improve(b, x, *level.residual);
}

std::size_t VCycle::bytes() const {
  std::size_t total = hierarchy_.bytes() + (coarse_b_.size() + coarse_x_.size()) * sizeof(double);
  for (const auto& level : levels_) {
    for (const auto* v : {level->residual.get(), level->rhs.get(), level->solution.get()})
      if (v) total += v->size() * sizeof(double);
    if (level->smoother) total += level->smoother->bytes();
  }
  return total;
}

std::map<std::string, double> VCycle::figures() const { return hierarchy_.figures(); }

}  // namespace fem::amg
