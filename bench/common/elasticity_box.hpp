#pragma once
// The benchmarks' elasticity system: a steel cube of cells³ hex8 clamped on xmin under its
// weight, numbered by RCM; K and f with the Dirichlet conditions applied, and where each
// equation's node is (AMG's rigid-body modes).
#include <array>
#include <vector>

#include "kernels/csr_matrix.hpp"
#include "solvers/linear_system.hpp"

namespace fem::bench {

struct ElasticityBox {
  CsrMatrix matrix;
  std::vector<double> rhs;
  std::vector<double> coordinates;  // x y z of each node in equation order
  NodeLayout nodes() const { return {3, 3, coordinates}; }
  AssembledSystem system() const { return {matrix, rhs, nodes()}; }
};

// `gravity`: the acceleration of the weight (m/s², a vector).
ElasticityBox elasticity_box(int cells, const std::array<double, 3>& gravity);

}  // namespace fem::bench
