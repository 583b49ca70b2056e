#pragma once
// Prescribed values (fixed components, displacements, temperatures) and their symmetric
// application: the matrix stays symmetric positive definite.
#include <cstdint>
#include <span>
#include <vector>

#include "fem/assembly/dof_map.hpp"
#include "fem/physics/problem.hpp"
#include "kernels/block_matrix.hpp"
#include "kernels/csr_matrix.hpp"

namespace fem {

struct Constraints {
  std::vector<double> prescribed;  // per equation: the value, NaN where free
  std::int64_t count = 0;
  bool is_fixed(std::int64_t dof) const { return prescribed[dof] == prescribed[dof]; }
};

// Throws CaseError when two conditions give one equation different values.
Constraints collect_constraints(const Problem& problem, const DofMap& dofs);

// Clears the constrained rows and columns, keeps their diagonal (so the scaling of the matrix
// is undisturbed) and lifts the right-hand side: rhs_i -= K_ij g_j, rhs_j = K_jj g_j.
void apply_constraints(CsrMatrix& matrix, std::span<double> rhs, const Constraints& constraints);
// The same on K in d x d node blocks (every node's block row holds its diagonal block).
void apply_constraints(kernels::BlockMatrix<double>& matrix, std::span<double> rhs, const Constraints& constraints);

}  // namespace fem
