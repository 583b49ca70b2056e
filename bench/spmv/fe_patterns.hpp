#pragma once
// FE-like matrices built straight from the tensor-product structure of a box mesh (no element
// integration), so the benchmark reaches 10^8 nonzeros in seconds: the exact sparsity of linear
// (quad4/hex8) or quadratic Lagrange (quad9/hex27) elements with d dofs per node, nodes numbered
// lexicographically, values of a graph Laplacian plus the identity (symmetric positive definite).
#include <string>

#include "kernels/csr_matrix.hpp"

namespace fem::bench {

struct BoxPattern {
  int dimension = 3;     // 2 or 3
  int cells = 10;        // cells per axis
  int order = 1;         // 1 linear, 2 quadratic
  int dofs_per_node = 3;
  std::string name() const;  // "3D-q1-d3-40"
};

// The inverse of BoxPattern::name ("3D-q1-d3-40"); throws std::invalid_argument.
BoxPattern parse_box_pattern(const std::string& name);

CsrMatrix make_box_pattern_matrix(const BoxPattern& box);

}  // namespace fem::bench
