#include "solvers/frontal/frontal_solver.hpp"
#include "solvers/progress_meter.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "kernels/dense_registry.hpp"
#include "solvers/frontal/factor_store.hpp"
#include "solvers/frontal/frontal_plan.hpp"
#include "support/stopwatch.hpp"

namespace fem {

namespace {

using kernels::DeviceMatrix;

// The elements of one elimination step summed into a dense matrix over the step's free
// equations (lower triangle), with the load as its last row; prescribed columns already moved
// to the load.
struct StepBatch {
  std::vector<std::int32_t> equations;  // batch index -> equation
  std::vector<double> matrix;           // (size + 1)^2
  std::int64_t size() const { return static_cast<std::int64_t>(equations.size()); }
};

class FrontalSolver final : public LinearSolver {
 public:
  FrontalSolver(SolverOptions options, FrontalSettings settings)
      : options_(std::move(options)), settings_(std::move(settings)) {
    if (settings_.min_pivots < 1) throw std::invalid_argument("frontal solver: the pivot block must be at least 1");
    try {
      backend_ = kernels::make_dense_backend(settings_.dense_backend);
    } catch (const kernels::BackendUnavailable& e) {
      throw SolverUnavailable("frontal solver on '" + std::string(name_of(options_.device)) + "': " + e.what());
    }
  }

  bool uses_element_matrices() const override { return true; }

  SolveReport solve(const ElementSystem& system, std::span<double> u) override;

 private:
  // Seconds in each phase of the factorisation.
  struct PhaseTimes {
    double prefront = 0, assemble = 0, eliminate = 0, store = 0;
  };

  void sum_elements(const ElementSystem& system, std::int64_t begin, std::int64_t end, StepBatch& batch);
  void order_next_front(const frontal::FrontalPlan& plan, std::size_t step, std::int64_t end, const StepBatch& batch,
                        const DeviceMatrix<double>& front);
  void eliminate_step(const DeviceMatrix<double>& front, StepBatch& batch, const DeviceMatrix<double>& next,
                      std::int64_t pivots, frontal::FactorBlock& block);
  void back_substitute(frontal::FactorStore& store, std::span<double> u) const;
  SolveReport report_of(const frontal::FrontalPlan& plan, const PhaseTimes& times, double t_factor, double t_solve,
                        std::int64_t capacity, const StepBatch& batch, const frontal::FactorStore& store) const;

  SolverOptions options_;
  FrontalSettings settings_;
  std::unique_ptr<kernels::DenseBackend> backend_;
  std::vector<std::int32_t> batch_index_;  // per equation: index in the current batch, -1 if none
  std::vector<ElementContribution> step_elements_;
  // The front between steps: its equations, and per equation its row in it (-1 if none).
  std::vector<std::int32_t> front_equations_, front_position_;
  // The next front's equations, and per row where it comes from in the old front and the batch.
  std::vector<std::int32_t> next_equations_, from_index_, to_batch_;
  std::vector<std::uint8_t> in_front_order_;
  DeviceMatrix<double> device_batch_;  // on a GPU: the step's summed elements
};

void FrontalSolver::sum_elements(const ElementSystem& system, std::int64_t begin, std::int64_t end,
                                 StepBatch& batch) {
  for (auto v : batch.equations) batch_index_[v] = -1;
  batch.equations.clear();
  // The step's elements are kept until its equations are known and the matrix can be sized.
  std::vector<ElementContribution>& elements = step_elements_;
  elements.resize(static_cast<std::size_t>(end - begin));
  for (std::int64_t k = begin; k < end; ++k) {
    ElementContribution& e = elements[k - begin];
    system.element(system.order[k], e);
    for (auto v : e.dofs)
      if (std::isnan(system.prescribed[v]) && batch_index_[v] < 0) {
        batch_index_[v] = static_cast<std::int32_t>(batch.equations.size());
        batch.equations.push_back(v);
      }
  }
  const std::int64_t s = batch.size(), ld = s + 1;
  batch.matrix.assign(static_cast<std::size_t>(ld * ld), 0.0);
  double* load = batch.matrix.data() + s * ld;
  for (const auto& e : elements) {
    const auto nd = e.dofs.size();
    for (std::size_t a = 0; a < nd; ++a) {
      const auto va = e.dofs[a];
      if (!std::isnan(system.prescribed[va])) continue;
      const std::int32_t la = batch_index_[va];
      load[la] += e.load[a];
      const double* row = e.matrix.data() + a * nd;
      for (std::size_t b = 0; b < nd; ++b) {
        const auto vb = e.dofs[b];
        const double g = system.prescribed[vb];
        if (!std::isnan(g)) load[la] -= row[b] * g;
        else if (batch_index_[vb] <= la) batch.matrix[la * ld + batch_index_[vb]] += row[b];
      }
    }
  }
}

// x_pivots = L11^-T (y - L21ᵀ x_rest), one stored step at a time, the last step first.
void FrontalSolver::back_substitute(frontal::FactorStore& store, std::span<double> u) const {
  frontal::FactorBlock block;
  std::vector<double> t;
  for (std::size_t s = store.blocks(); s-- > 0;) {
    store.read(s, block);
    const auto p = static_cast<std::int64_t>(block.pivots.size());
    const auto r = static_cast<std::int64_t>(block.rest.size());
    const double* panel = block.panel.data();  // row i, column j at i * p + j
    t.assign(panel + (p + r) * p, panel + (p + r + 1) * p);
    for (std::int64_t i = 0; i < r; ++i) {
      const double x = u[block.rest[i]];
      const double* row = panel + (p + i) * p;
      for (std::int64_t j = 0; j < p; ++j) t[j] -= row[j] * x;
    }
    for (std::int64_t j = p - 1; j >= 0; --j) {
      double sum = t[j];
      for (std::int64_t i = j + 1; i < p; ++i) sum -= panel[i * p + j] * t[i];
      t[j] = sum / panel[j * p + j];
    }
    for (std::int64_t j = 0; j < p; ++j) u[block.pivots[j]] = t[j];
  }
}

// The new front's equations in next_equations_: fully summed ones first (old ones, then new ones),
// then the others; and where each row comes from (from_index_, to_batch_; the load row last).
void FrontalSolver::order_next_front(const frontal::FrontalPlan& plan, std::size_t step, std::int64_t end,
                                     const StepBatch& batch, const DeviceMatrix<double>& front) {
  next_equations_.clear();
  const std::vector<std::int32_t>* lists[] = {&front_equations_, &batch.equations};
  for (int pass = 0; pass < 2; ++pass) {
    const bool pivots = pass == 0;
    for (const auto* list : lists)
      for (auto v : *list)
        if ((plan.last_position[v] < end) == pivots && !in_front_order_[v]) {
          in_front_order_[v] = 1;
          next_equations_.push_back(v);
        }
  }
  for (auto v : next_equations_) in_front_order_[v] = 0;
  const auto m = static_cast<std::int64_t>(next_equations_.size());
  if (m != plan.step_front[step])
    throw std::logic_error("frontal solver: step " + std::to_string(step) + " has a front of " + std::to_string(m) +
                           " where the prefront pass found " + std::to_string(plan.step_front[step]));
  from_index_.resize(m + 1);
  to_batch_.resize(m + 1);
  for (std::int64_t i = 0; i < m; ++i) {
    from_index_[i] = front_position_[next_equations_[i]];
    to_batch_[i] = batch_index_[next_equations_[i]];
  }
  from_index_[m] = static_cast<std::int32_t>(front.rows - 1);
  to_batch_[m] = static_cast<std::int32_t>(batch.size());
}

// On the dense back-end: the old front and the batch gathered into `next`, its first `pivots`
// equations eliminated, their rows of the factor downloaded into block.panel.
void FrontalSolver::eliminate_step(const DeviceMatrix<double>& front, StepBatch& batch,
                                   const DeviceMatrix<double>& next, std::int64_t pivots,
                                   frontal::FactorBlock& block) {
  kernels::DenseBackend& dense = *backend_;
  const std::int64_t bs = batch.size() + 1, m = next.rows - 1;
  DeviceMatrix<double> summed;
  if (dense.uses_host_memory()) {
    summed = dense.wrap(batch.matrix.data(), bs, bs, bs);
  } else {
    if (device_batch_.rows < bs) device_batch_ = dense.allocate<double>(std::max(bs, 2 * device_batch_.rows), std::max(bs, 2 * device_batch_.rows));
    summed = device_batch_.block(0, 0, bs, bs);
    dense.upload(batch.matrix.data(), bs, summed);
  }
  dense.front_assemble(front, from_index_, summed, to_batch_, next);
  try {
    dense.front_update(next, pivots);
  } catch (const kernels::NotPositiveDefinite& e) {
    const auto v = next_equations_[e.column()];
    throw SolveFailure("frontal solver: the pivot of equation " + std::to_string(v) +
                           " is not positive: the system is not positive definite (a body free to move, or a "
                           "bad material?)",
                       v);
  }
  block.panel.resize(static_cast<std::size_t>((m + 1) * pivots));
  dense.download(next.block(0, 0, m + 1, pivots), block.panel.data(), pivots);
}

SolveReport FrontalSolver::solve(const ElementSystem& system, std::span<double> u) {
  const std::int64_t n = system.equations;
  if (static_cast<std::int64_t>(u.size()) != n)
    throw std::invalid_argument("frontal solver: the solution has " + std::to_string(u.size()) + " entries for " +
                                std::to_string(n) + " equations");
  const Stopwatch factoring;
  const frontal::FrontalPlan plan = frontal::make_frontal_plan(system, settings_.min_pivots);
  PhaseTimes times;
  times.prefront = factoring.seconds();

  for (std::int64_t v = 0; v < n; ++v) u[v] = std::isnan(system.prescribed[v]) ? 0.0 : system.prescribed[v];
  auto store = options_.out_of_core ? frontal::make_file_factor_store(options_.out_of_core_directory)
                                    : frontal::make_memory_factor_store();

  // Two fronts: each step gathers the previous front's survivors and the step's elements from
  // one into the other, pivots first, the load as the last row.
  const std::int64_t capacity = plan.front_max + 1;
  const DeviceMatrix<double> fronts[2] = {backend_->allocate<double>(capacity, capacity),
                                          backend_->allocate<double>(capacity, capacity)};
  device_batch_ = {};
  int current = 0;
  DeviceMatrix<double> front = fronts[0].block(0, 0, 1, 1);  // just the (zero) load row
  front_equations_.clear();
  front_position_.assign(n, -1);
  batch_index_.assign(n, -1);
  in_front_order_.assign(n, 0);
  StepBatch batch;
  frontal::FactorBlock block;
  ProgressMeter progress(options_);

  std::int64_t begin = 0;
  for (std::size_t step = 0; step < plan.step_end.size(); ++step) {
    const std::int64_t end = plan.step_end[step] + 1;
    Stopwatch phase;  // assembling, eliminating, storing: one after another
    sum_elements(system, begin, end, batch);
    order_next_front(plan, step, end, batch, front);
    times.assemble += phase.restart();

    const auto m = static_cast<std::int64_t>(next_equations_.size());
    const std::int64_t p = plan.step_pivots[step];
    const DeviceMatrix<double> next = fronts[1 - current].block(0, 0, m + 1, m + 1);
    eliminate_step(front, batch, next, p, block);
    times.eliminate += phase.restart();

    block.pivots.assign(next_equations_.begin(), next_equations_.begin() + p);
    block.rest.assign(next_equations_.begin() + p, next_equations_.end());
    store->append(block);
    times.store += phase.restart();

    for (auto v : block.pivots) front_position_[v] = -1;
    for (std::int64_t i = p; i < m; ++i) front_position_[next_equations_[i]] = static_cast<std::int32_t>(i - p);
    front_equations_ = block.rest;
    front = next.block(p, p, m - p + 1, m - p + 1);
    current = 1 - current;
    begin = end;
    progress.steps("elements", end, static_cast<std::int64_t>(system.order.size()));
  }
  const double t_factor = factoring.seconds();

  const Stopwatch substituting;
  back_substitute(*store, u);
  const double t_solve = substituting.seconds();
  return report_of(plan, times, t_factor, t_solve, capacity, batch, *store);
}

SolveReport FrontalSolver::report_of(const frontal::FrontalPlan& plan, const PhaseTimes& times, double t_factor,
                                     double t_solve, std::int64_t capacity, const StepBatch& batch,
                                     const frontal::FactorStore& store) const {
  SolveReport report;
  report.time_setup_s = t_factor;
  report.time_solve_s = t_solve;
  const auto n = static_cast<std::size_t>(front_position_.size());
  const auto front_bytes = static_cast<std::size_t>(2 * capacity * capacity) * sizeof(double);
  const auto batch_bytes = batch.matrix.capacity() * sizeof(double) +
                           static_cast<std::size_t>(device_batch_.rows * device_batch_.cols) * sizeof(double);
  report.memory_bytes = front_bytes + batch_bytes + n * (2 * sizeof(std::int32_t) + 1) +
                        (options_.out_of_core ? 0 : store.bytes());
  auto& f = report.figures;
  f["front_max"] = static_cast<double>(plan.front_max);
  f["front_rms"] = plan.front_rms;
  f["front_bytes"] = static_cast<double>(front_bytes);
  f["factor_bytes"] = static_cast<double>(store.bytes());
  f["flops"] = plan.flops;
  f["elimination_steps"] = static_cast<double>(plan.step_end.size());
  f["min_pivots"] = static_cast<double>(settings_.min_pivots);
  f["out_of_core"] = options_.out_of_core ? 1 : 0;
  f["time_prefront_s"] = times.prefront;
  f["time_assemble_s"] = times.assemble;    // element matrices and their sum per step, on the host
  f["time_eliminate_s"] = times.eliminate;  // on the dense back-end: gather, rank-k update, factor rows back
  f["time_store_s"] = times.store;
  f["time_back_substitution_s"] = t_solve;
  f["device_share"] = times.eliminate / std::max(t_factor + t_solve, 1e-300);
  f["eliminate_gflops"] = times.eliminate > 0 ? plan.flops / times.eliminate * 1e-9 : 0.0;
  return report;
}

}  // namespace

std::unique_ptr<LinearSolver> make_frontal_solver(const SolverOptions& options, const FrontalSettings& settings) {
  if (options.precision != Precision::Double)
    throw SolverUnavailable(std::string("frontal: precision '") + name_of(options.precision) +
                            "' is not available: the frontal solver factors in FP64 only (solver.precision: double)");
  return std::make_unique<FrontalSolver>(options, settings);
}

std::unique_ptr<LinearSolver> make_cpu_frontal(const SolverOptions& options) {
  return make_frontal_solver(options, {"openmp", 32});
}
std::unique_ptr<LinearSolver> make_opencl_frontal(const SolverOptions& options) {
  return make_frontal_solver(options, {"opencl", 64});
}
std::unique_ptr<LinearSolver> make_cuda_frontal(const SolverOptions& options) {
  return make_frontal_solver(options, {"cuda", 64});
}

}  // namespace fem
