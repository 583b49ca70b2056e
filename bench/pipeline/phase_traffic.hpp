#pragma once
// The bytes assembly and post-processing must at least move between memory and the cores, from
// the sizes a run reports: every element's nodes gathered once per element (4 B connectivity,
// 24 B coordinates, 8 B per unknown of the solution for post), every output written once. A
// lower bound (caches are assumed to catch all re-reads, and element matrices never leave the
// cores), so the GB/s made from it are a lower bound of the bandwidth a phase used.
#include <cstdint>

namespace fem::bench {

struct RunSizes {
  std::int64_t elements = 0, nodes = 0, dofs = 0, nnz = 0;
  int nodes_per_element = 0, dofs_per_node = 0;
};

// The CSR matrix written once (8 B value and 4 B column per nonzero, 8 B row offset) and the
// right-hand side, from the elements' gathered nodes.
double assembly_bytes(const RunSizes& s);

// The nodal fields written once (`components_per_node` doubles: strain, stress, von Mises and
// reaction are 16 for elasticity; heat flux and reaction 4 for heat), from the elements'
// gathered nodes and solution.
double post_bytes(const RunSizes& s, int components_per_node);

}  // namespace fem::bench
