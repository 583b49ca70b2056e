#include "fem/assembly/dirichlet.hpp"

#include <cmath>
#include <limits>

namespace fem {

Constraints collect_constraints(const Problem& problem, const DofMap& dofs) {
  const Mesh& mesh = *problem.mesh;
  const int d = dofs.dofs_per_node;
  Constraints out;
  out.prescribed.assign(dofs.num_dofs(), std::numeric_limits<double>::quiet_NaN());
  std::vector<const DirichletCondition*> owner(dofs.num_dofs(), nullptr);
  for (const auto& condition : problem.dirichlet) {
    for (int node : condition.nodes) {
      double value[3] = {condition.value[0], condition.value[1], condition.value[2]};
      if (condition.function) condition.function(&mesh.coords[3 * static_cast<std::size_t>(node)], value);
      for (int c = 0; c < d; ++c) {
        if (!condition.component[c]) continue;
        const auto dof = dofs.dof(node, c);
        if (owner[dof] && std::abs(out.prescribed[dof] - value[c]) > 1e-12 * (1 + std::abs(value[c])))
          throw CaseError("groups '" + owner[dof]->group + "' and '" + condition.group + "' prescribe different values (" +
                          std::to_string(out.prescribed[dof]) + " and " + std::to_string(value[c]) + ") at node " +
                          std::to_string(node + 1));
        if (!owner[dof]) ++out.count;
        owner[dof] = &condition;
        out.prescribed[dof] = value[c];
      }
    }
  }
  return out;
}

void apply_constraints(CsrMatrix& a, std::span<double> rhs, const Constraints& constraints) {
  const auto& g = constraints.prescribed;
  // Lift first, reading the untouched columns; then clear.
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < a.rows; ++i) {
    if (constraints.is_fixed(i)) continue;
    double lift = 0;
    for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
      if (constraints.is_fixed(a.col[k])) {
        lift += a.val[k] * g[a.col[k]];
        a.val[k] = 0;
      }
    rhs[i] -= lift;
  }
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < a.rows; ++i) {
    if (!constraints.is_fixed(i)) continue;
    double diagonal = 0;
    for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      if (a.col[k] == i) diagonal = a.val[k];
      else a.val[k] = 0;
    }
    if (!(diagonal > 0)) {  // a node no element stiffens: keep the equation trivially solvable
      diagonal = 1;
      for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
        if (a.col[k] == i) a.val[k] = 1;
    }
    rhs[i] = diagonal * g[i];
  }
}

}  // namespace fem
