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

namespace {

// The constraints applied to any storage of K: `visit(i, f)` hands f each (column, value) of
// scalar row i. Lifts first, reading the untouched columns; then clears.
template <class Visit>
void apply_to_rows(std::int64_t rows, std::span<double> rhs, const Constraints& constraints, Visit visit) {
  const auto& g = constraints.prescribed;
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < rows; ++i) {
    if (constraints.is_fixed(i)) continue;
    double lift = 0;
    visit(i, [&](std::int64_t column, double& value) {
      if (!constraints.is_fixed(column)) return;
      lift += value * g[column];
      value = 0;
    });
    rhs[i] -= lift;
  }
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < rows; ++i) {
    if (!constraints.is_fixed(i)) continue;
    double diagonal = 0;
    double* diagonal_at = nullptr;
    visit(i, [&](std::int64_t column, double& value) {
      if (column == i) diagonal = value, diagonal_at = &value;
      else value = 0;
    });
    if (!(diagonal > 0)) {  // a node no element stiffens: keep the equation trivially solvable
      diagonal = 1;
      if (diagonal_at) *diagonal_at = 1;
    }
    rhs[i] = diagonal * g[i];
  }
}

}  // namespace

void apply_constraints(CsrMatrix& a, std::span<double> rhs, const Constraints& constraints) {
  apply_to_rows(a.rows, rhs, constraints, [&](std::int64_t i, auto&& f) {
    for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) f(static_cast<std::int64_t>(a.col[k]), a.val[k]);
  });
}

void apply_constraints(kernels::BlockMatrix<double>& a, std::span<double> rhs, const Constraints& constraints) {
  const int d = a.row_block;
  apply_to_rows(a.rows(), rhs, constraints, [&](std::int64_t i, auto&& f) {
    const std::int64_t block_row = i / d, r = i % d;
    for (auto k = a.row_ptr[block_row]; k < a.row_ptr[block_row + 1]; ++k)
      for (int j = 0; j < d; ++j) f(static_cast<std::int64_t>(a.col[k]) * d + j, a.block(k)[r * d + j]);
  });
}

}  // namespace fem
