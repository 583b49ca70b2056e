#include "fem/parallel/node_partition.hpp"

#include <metis.h>

#include <stdexcept>
#include <string>

namespace fem {

std::vector<int> partition_nodes(const renumber::NodeGraph& graph, int parts) {
  idx_t nodes = graph.num_nodes();
  std::vector<int> part(static_cast<std::size_t>(nodes), 0);
  if (parts <= 1 || nodes == 0) return part;
  if (nodes < parts)
    throw std::runtime_error(std::to_string(parts) + " ranks for a mesh of " + std::to_string(nodes) + " nodes");
  std::vector<idx_t> offset(graph.offset.begin(), graph.offset.end());
  std::vector<idx_t> neighbour(graph.neighbour.begin(), graph.neighbour.end());
  std::vector<idx_t> result(static_cast<std::size_t>(nodes));
  idx_t constraints = 1, count = parts, cut = 0;
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  const int status = METIS_PartGraphKway(&nodes, &constraints, offset.data(), neighbour.data(), nullptr, nullptr, nullptr,
                                         &count, nullptr, nullptr, options, &cut, result.data());
  if (status != METIS_OK) throw std::runtime_error("METIS could not partition the mesh (status " + std::to_string(status) + ")");
  for (std::size_t i = 0; i < part.size(); ++i) part[i] = static_cast<int>(result[i]);
  return part;
}

}  // namespace fem
