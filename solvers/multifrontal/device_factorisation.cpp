#include "solvers/multifrontal/device_factorisation.hpp"

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "solvers/linear_solver.hpp"
#include "support/stopwatch.hpp"

namespace fem::multifrontal {

namespace {

// The rows of the largest device front.
std::int64_t largest_front(const SymbolicFactor& f) {
  std::int64_t rows = 0;
  for (std::int32_t s : f.schedule.device) rows = std::max(rows, f.front(s));
  return rows;
}

// What the device needs to know before the first front, all computed from the pattern: where each
// device front's panel sits in the device store, the maps of its children's update rows onto its
// rows, and the positions of the original entries in the store.
template <class T>
struct DevicePlan {
  std::vector<std::int64_t> panel;       // per supernode: its panel's offset in the device store
  std::int64_t panel_entries = 0;
  std::vector<std::int64_t> map;         // per child of a device supernode: its map's offset in `relative`
  std::vector<std::int64_t> into_panel;  // ... and how many of its update columns land in the parent's panel
  std::vector<std::int32_t> relative;
  std::vector<std::int64_t> position;    // original entries: where they go in the store, and their values
  std::vector<T> value;
  std::vector<double> diagonal;          // per device equation (in schedule order): the original diagonal
  std::vector<std::int64_t> pivot;       // ... and where its pivot is in the store
  std::vector<std::vector<std::int32_t>> children;  // of each device supernode
  std::vector<std::int64_t> below;       // per supernode: its rows below the pivots' offset in `below_rows`
  std::vector<std::int32_t> below_rows;

  DevicePlan(const SymbolicFactor& f, const CsrMatrix& a)
      : panel(f.supernodes(), -1), map(f.supernodes(), -1), into_panel(f.supernodes(), 0), below(f.supernodes(), -1) {
    for (std::int32_t s : f.schedule.device) {
      panel[s] = panel_entries;
      panel_entries += f.columns(s) * f.front(s);
    }
    std::vector<std::int32_t> where(f.equations, -1);  // an equation's row in the current front
    children.resize(f.supernodes());
    for (std::int32_t s = 0; s < f.supernodes(); ++s)
      if (f.parent[s] >= 0 && panel[f.parent[s]] >= 0) children[f.parent[s]].push_back(s);
    for (std::int32_t s : f.schedule.device) {
      const std::int64_t k = f.columns(s), m = f.front(s);
      const std::int32_t first = f.first[s];
      const std::int32_t* rows = f.rows.data() + f.row_offset[s];
      for (std::int64_t i = 0; i < m; ++i) where[rows[i]] = static_cast<std::int32_t>(i);
      below[s] = static_cast<std::int64_t>(below_rows.size());
      below_rows.insert(below_rows.end(), rows + k, rows + m);
      for (std::int32_t j = first; j < first + k; ++j) {
        const std::int32_t old = f.old_of_new[j];
        double d = 0;
        for (auto e = a.row_ptr[old]; e < a.row_ptr[old + 1]; ++e) {
          const std::int32_t i = f.new_of_old[a.col[e]];
          if (i < j) continue;  // the lower triangle: row i >= column j
          position.push_back(panel[s] + where[i] * k + (j - first));
          value.push_back(static_cast<T>(a.val[e]));
          if (i == j) d = a.val[e];
        }
        diagonal.push_back(d);
        pivot.push_back(panel[s] + (j - first) * (k + 1));
      }
      for (std::int32_t c : children[s]) {
        const std::int64_t rc = f.front(c) - f.columns(c);
        const std::int32_t* child_rows = f.rows.data() + f.row_offset[c] + f.columns(c);
        map[c] = static_cast<std::int64_t>(relative.size());
        for (std::int64_t x = 0; x < rc; ++x) {
          relative.push_back(where[child_rows[x]]);
          if (relative.back() < k) into_panel[c] = x + 1;
        }
      }
    }
  }

  // Device memory at the peak: the panels, x, the workspaces and the index lists throughout; then the original
  // entries on their way into the panels, or later the update matrices alive at once (those of
  // the host subtrees all go up first).
  std::int64_t device_bytes(const SymbolicFactor& f, const MultifrontalKernels& kernels) const {
    const auto value = static_cast<std::int64_t>(sizeof(T));
    std::int64_t updates = 0;
    for (std::int32_t s : f.schedule.device)
      for (std::int32_t c : children[s])
        if (!f.on_device[c]) updates += f.update_entries(c);
    std::int64_t peak = updates;
    for (std::int32_t s : f.schedule.device) {
      updates += f.update_entries(s);
      peak = std::max(peak, updates);
      for (std::int32_t c : children[s]) updates -= f.update_entries(c);
    }
    const auto entries = static_cast<std::int64_t>(position.size());
    const auto lists = static_cast<std::int64_t>(relative.size() + below_rows.size() + f.schedule.device.size());
    const std::int64_t workspaces = kernels.workspace_entries(largest_front(f));
    return (panel_entries + f.equations + workspaces) * value + lists * 4 +
           std::max(entries * (8 + value), peak * value);
  }
};

// The device's panels and the substitution's sweeps over them.
template <class T>
class FrontsPart final : public DevicePart<T> {
 public:
  FrontsPart(const SymbolicFactor& f, const DevicePlan<T>& plan, const MultifrontalKernels& kernels)
      : f_(f),
        panel_(plan.panel),
        below_(plan.below),
        fronts_(kernels.make_fronts<T>(FrontLayout{plan.panel_entries, plan.relative.data(),
                                                   static_cast<std::int64_t>(plan.relative.size()),
                                                   plan.below_rows.data(),
                                                   static_cast<std::int64_t>(plan.below_rows.size()),
                                                   static_cast<std::int64_t>(f.schedule.device.size()), f.equations,
                                                   largest_front(f)})) {}

  FrontKernels<T>& fronts() { return *fronts_; }

  void substitute(std::vector<T>& x) override {
    fronts_->upload_x(x.data());
    for (std::int32_t s : f_.schedule.device)
      fronts_->forward(panel_[s], f_.front(s), f_.columns(s), f_.first[s], below_[s]);
    for (auto s = f_.schedule.device.rbegin(); s != f_.schedule.device.rend(); ++s)
      fronts_->backward(panel_[*s], f_.front(*s), f_.columns(*s), f_.first[*s], below_[*s]);
    fronts_->download_x(x.data());
  }

 private:
  const SymbolicFactor& f_;
  std::vector<std::int64_t> panel_, below_;
  std::unique_ptr<FrontKernels<T>> fronts_;
};

}  // namespace

template <class T>
DeviceFigures factorise_on_device(const MultifrontalKernels& kernels, const SymbolicFactor& f, const CsrMatrix& a,
                                  NumericFactor<T>& factor) {
  DeviceFigures figures;
  const auto& order = f.schedule.device;
  if (order.empty()) return figures;
  const Stopwatch start;
  const DevicePlan<T> plan(f, a);
  const std::int64_t need = plan.device_bytes(f, kernels), free = kernels.free_device_bytes();
  if (need > free)
    throw std::runtime_error("multifrontal on cuda: the device fronts need " + std::to_string(need / 1000000) +
                             " MB of device memory, " + std::to_string(free / 1000000) +
                             " MB are free (multifrontal on cpu keeps the factor in host memory)");
  figures.estimate_bytes = need;
  auto part = std::make_unique<FrontsPart<T>>(f, plan, kernels);
  auto& fronts = part->fronts();
  fronts.add_to_panels(plan.position.data(), plan.value.data(), static_cast<std::int64_t>(plan.position.size()));
  figures.upload_bytes = static_cast<std::int64_t>(
      (plan.relative.size() + plan.below_rows.size()) * sizeof(std::int32_t) +
      plan.position.size() * (sizeof(std::int64_t) + sizeof(T)));

  std::vector<T*> update(f.supernodes(), nullptr);  // device update matrices alive
  // The host subtrees' root updates go up first, while the device is idle: a copy from pageable
  // memory waits for the stream to drain, which would stall the queue of fronts between them.
  for (std::int32_t s : order)
    for (std::int32_t c : plan.children[s]) {
      const std::int64_t rc = f.front(c) - f.columns(c);
      if (f.on_device[c] || rc == 0) continue;
      update[c] = fronts.upload_update(factor.device_bound_updates[c].get(), rc);
      factor.device_bound_updates[c].reset();
      figures.upload_bytes += rc * rc * static_cast<std::int64_t>(sizeof(T));
    }
  for (std::size_t index = 0; index < order.size(); ++index) {
    const std::int32_t s = order[index];
    const std::int64_t k = f.columns(s), m = f.front(s), r = m - k;
    T* own = r > 0 ? fronts.new_update(r) : nullptr;
    for (std::int32_t c : plan.children[s]) {
      const std::int64_t rc = f.front(c) - f.columns(c);
      if (rc == 0) continue;
      fronts.extend_add(update[c], rc, plan.map[c], plan.into_panel[c], plan.panel[s], m, k, own);
      fronts.release(update[c]);
      update[c] = nullptr;
    }
    fronts.eliminate(plan.panel[s], m, k, own, static_cast<std::int64_t>(index));
    update[s] = own;
    figures.flops += f.flops_of(s);
  }
  const auto failure = fronts.finish();
  figures.seconds = start.seconds();
  figures.fronts = static_cast<std::int64_t>(order.size());
  figures.peak_bytes = fronts.peak_bytes();
  const auto elimination = fronts.elimination_seconds();
  for (std::size_t index = 0; index < order.size(); ++index) {
    const std::int32_t s = order[index];
    const double flops = f.flops_of(s), seconds = elimination[index].panel_s + elimination[index].update_s;
    figures.elimination_s += seconds;
    if (flops < kLargeFrontFlops) continue;
    const double r = static_cast<double>(f.front(s) - f.columns(s)), update_flops = r * r * f.columns(s);
    ++figures.large_fronts;
    figures.large_flops += flops;
    figures.large_s += seconds;
    figures.large_panel_flops += flops - update_flops;
    figures.large_panel_s += elimination[index].panel_s;
    figures.large_update_flops += update_flops;
    figures.large_update_s += elimination[index].update_s;
  }
  if (failure.front >= 0) {
    const std::int32_t equation = f.old_of_new[f.first[order[failure.front]] + failure.column];
    throw SolveFailure("multifrontal: the pivot of equation " + std::to_string(equation) +
                           " is not positive: the system is not positive definite (a body free to move, or a bad "
                           "material?)",
                       equation);
  }

  // The pivots against their equations' original diagonal, as the host watches its own.
  std::vector<T> pivots(plan.pivot.size());
  fronts.gather_from_panels(plan.pivot.data(), static_cast<std::int64_t>(pivots.size()), pivots.data());
  std::size_t column = 0;
  for (std::int32_t s : order)
    for (std::int64_t c = 0; c < f.columns(s); ++c, ++column) {
      const double ratio = static_cast<double>(pivots[column]) * pivots[column] / plan.diagonal[column];
      if (ratio < factor.smallest_pivot_ratio) {
        factor.smallest_pivot_ratio = ratio;
        factor.smallest_pivot_equation = f.old_of_new[f.first[s] + c];
      }
    }
  factor.device = std::move(part);
  return figures;
}

template DeviceFigures factorise_on_device<double>(const MultifrontalKernels&, const SymbolicFactor&, const CsrMatrix&,
                                                   NumericFactor<double>&);
template DeviceFigures factorise_on_device<float>(const MultifrontalKernels&, const SymbolicFactor&, const CsrMatrix&,
                                                  NumericFactor<float>&);

}  // namespace fem::multifrontal
