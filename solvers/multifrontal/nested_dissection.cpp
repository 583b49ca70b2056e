#include "solvers/multifrontal/nested_dissection.hpp"

#include <metis.h>

#include <numeric>
#include <stdexcept>
#include <string>

namespace fem::multifrontal {

std::vector<std::int32_t> nested_dissection(const BlockGraph& graph) {
  std::vector<std::int32_t> new_of_old(graph.nodes);
  if (graph.neighbour.empty()) {  // nothing couples: any order is free of fill (METIS wants edges)
    std::iota(new_of_old.begin(), new_of_old.end(), 0);
    return new_of_old;
  }
  if (graph.neighbour.size() > std::size_t{0x7fffffff})
    throw std::invalid_argument("multifrontal: the node graph has more edges than METIS's 32-bit indices hold");
  idx_t n = graph.nodes;
  std::vector<idx_t> xadj(graph.offset.begin(), graph.offset.end());
  std::vector<idx_t> adjncy(graph.neighbour.begin(), graph.neighbour.end());
  std::vector<idx_t> perm(n), iperm(n);
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_NUMBERING] = 0;
  const int status = METIS_NodeND(&n, xadj.data(), adjncy.data(), nullptr, options, perm.data(), iperm.data());
  if (status != METIS_OK)
    throw std::runtime_error("multifrontal: METIS_NodeND failed (status " + std::to_string(status) + ")");
  // METIS: row i of the reordered matrix is row perm[i] of the original; iperm is its inverse.
  for (idx_t v = 0; v < n; ++v) new_of_old[v] = iperm[v];
  return new_of_old;
}

}  // namespace fem::multifrontal
