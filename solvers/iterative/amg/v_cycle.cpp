#include "solvers/iterative/amg/v_cycle.hpp"

#include <vector>

#include "solvers/iterative/amg/hierarchy.hpp"

namespace fem::amg {
namespace {

class VCycle final : public Preconditioner {
 public:
  VCycle(const CsrMatrix& a, const NodeLayout& nodes, const AmgOptions& options) : hierarchy_(a, nodes, options) {
    for (const auto& level : hierarchy_.levels()) {
      const auto n = static_cast<std::size_t>(level->a.rows());
      residual_.emplace_back(n);
      rhs_.emplace_back(n);
      solution_.emplace_back(n);
    }
  }

  void apply(std::span<const double> r, std::span<double> z) const override { cycle(0, r, z); }

  std::size_t bytes() const override {
    std::size_t total = hierarchy_.bytes();
    for (std::size_t l = 0; l < residual_.size(); ++l)
      total += (residual_[l].size() + rhs_[l].size() + solution_[l].size()) * sizeof(double);
    return total;
  }

  std::map<std::string, double> figures() const override { return hierarchy_.figures(); }

 private:
  // x = V-cycle(b) on level l.
  void cycle(std::size_t l, std::span<const double> b, std::span<double> x) const {
    const Level& level = *hierarchy_.levels()[l];
    std::vector<double>& r = residual_[l];
    if (l + 1 == hierarchy_.levels().size()) {
      if (hierarchy_.coarse_solver())
        hierarchy_.coarse_solver()->solve(b, x);
      else
        level.smoother->from_zero(b, x, r);
      return;
    }
    level.smoother->from_zero(b, x, r);
    multiply(level.r, r, rhs_[l + 1]);
    cycle(l + 1, rhs_[l + 1], solution_[l + 1]);
    multiply_add(level.p, solution_[l + 1], x);
    level.smoother->improve(b, x, r);
  }

  Hierarchy hierarchy_;
  // Work vectors of each level (level 0 uses the caller's r and z as its right side and solution).
  mutable std::vector<std::vector<double>> residual_, rhs_, solution_;
};

}  // namespace

std::unique_ptr<Preconditioner> make_amg_preconditioner(const CsrMatrix& a, const NodeLayout& nodes,
                                                        const AmgOptions& options) {
  return std::make_unique<VCycle>(a, nodes, options);
}

}  // namespace fem::amg
