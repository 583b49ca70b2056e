#include "bench/pipeline/phase_traffic.hpp"

namespace fem::bench {
namespace {

double gathered_nodes(const RunSizes& s) { return static_cast<double>(s.elements) * s.nodes_per_element; }

}  // namespace

double assembly_bytes(const RunSizes& s) {
  const double csr = 12.0 * static_cast<double>(s.nnz) + 8.0 * static_cast<double>(s.dofs + 1);
  return gathered_nodes(s) * (4 + 24) + csr + 8.0 * static_cast<double>(s.dofs);
}

double post_bytes(const RunSizes& s, int components_per_node) {
  return gathered_nodes(s) * (4 + 24 + 8.0 * s.dofs_per_node) + 8.0 * components_per_node * static_cast<double>(s.nodes);
}

}  // namespace fem::bench
