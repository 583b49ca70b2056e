#pragma once
// Matrices for the Krylov and SpMV tests: FE systems assembled by the project's own pipeline,
// and random irregular matrices that stress padded formats and short/long rows.
#include <cstdint>
#include <vector>

#include "fem/elements/element_type.hpp"
#include "kernels/csr_matrix.hpp"
#include "solvers/linear_system.hpp"

namespace fem::testing {

struct FeSystem {
  CsrMatrix matrix;          // Dirichlet applied: SPD
  std::vector<double> rhs;
  int dofs_per_node = 1, dimension = 3;
  std::vector<double> coordinates;  // x y z of each node in equation order
  NodeLayout nodes() const { return {dofs_per_node, dimension, coordinates}; }
};

// A 3D elasticity box of hex8 (order 1) or hex27 (order 2) cells, or the tetrahedra the box mesher
// cuts them into, clamped on xmin, under gravity, nodes renumbered with RCM (3 dofs per node: the
// matrix is made of 3x3 blocks).
FeSystem elasticity_box(int nx, int ny, int nz, int order = 1, ElementShape shape = ElementShape::Hexahedron);
// A 2D heat square of quad4 cells, temperature fixed on xmin, a volume source.
FeSystem heat_square(int nx, int ny);
// heat_square with a convection-like perturbation (each entry right of the diagonal scaled by
// 0.3, as upwind differences would): not symmetric, for BiCGSTAB.
FeSystem nonsymmetric_heat_square(int nx, int ny);
// A 2D plane-stress strip (4 x 1) of quad4 cells, clamped on xmin, under gravity.
FeSystem elasticity_strip(int nx, int ny);

// n x n with `seed`-random row lengths 0..max_row (some rows empty), one dense row, random
// columns (sorted, distinct) and values in [-1, 1].
CsrMatrix random_irregular(std::int64_t n, int max_row, unsigned seed);

std::vector<double> random_vector(std::int64_t n, unsigned seed);

// Largest |a_i - b_i| / max(1, largest |b_i|).
double relative_difference(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace fem::testing
