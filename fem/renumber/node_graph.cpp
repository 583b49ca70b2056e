#include "fem/renumber/node_graph.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include <omp.h>

namespace fem::renumber {
namespace {

// The first index in [0, count) where bad(k) holds, or count; the scan runs on every thread.
template <class Bad>
std::size_t first_where(std::size_t count, Bad bad) {
  std::size_t first = count;
#pragma omp parallel for schedule(static) reduction(min : first)
  for (std::size_t k = 0; k < count; ++k)
    if (k < first && bad(k)) first = k;
  return first;
}

void check_connectivity(std::span<const std::size_t> element_offsets, std::span<const int> element_nodes,
                        int num_nodes) {
  if (num_nodes < 0) throw std::invalid_argument("node graph: negative number of nodes " + std::to_string(num_nodes));
  if (element_offsets.empty() || element_offsets.front() != 0)
    throw std::invalid_argument("node graph: element offsets must start with 0 (one more entry than elements)");
  if (element_offsets.back() != element_nodes.size())
    throw std::invalid_argument("node graph: the last element offset (" + std::to_string(element_offsets.back()) +
                                ") differs from the number of element nodes (" +
                                std::to_string(element_nodes.size()) + ")");
  const std::size_t e = first_where(element_offsets.size() - 1,
                                    [&](std::size_t k) { return element_offsets[k + 1] < element_offsets[k]; });
  if (e + 1 < element_offsets.size())
    throw std::invalid_argument("node graph: element offsets decrease at element " + std::to_string(e));
  const std::size_t k = first_where(element_nodes.size(),
                                    [&](std::size_t m) { return element_nodes[m] < 0 || element_nodes[m] >= num_nodes; });
  if (k < element_nodes.size())
    throw std::invalid_argument("node graph: element node entry " + std::to_string(k) + " is " +
                                std::to_string(element_nodes[k]) + ", outside [0, " + std::to_string(num_nodes) + ")");
}

// In place: offset[i + 1] holds a count for row i on entry and row i's first index after it on
// return (offset[0] is 0).
void counts_to_offsets(std::vector<std::size_t>& offset) {
  for (std::size_t i = 1; i < offset.size(); ++i) offset[i] += offset[i - 1];
}

// Visits each distinct neighbour j != i of node i once; `stamp` (size num_nodes, per thread)
// remembers the last node that saw j, so no clearing is needed between nodes.
template <class Visit>
void for_each_neighbour(int i, const NodeElements& incidence, std::span<const std::size_t> element_offsets,
                        std::span<const int> element_nodes, std::vector<int>& stamp, Visit visit) {
  for (std::size_t k = incidence.offset[i]; k < incidence.offset[i + 1]; ++k) {
    const int e = incidence.element[k];
    for (std::size_t m = element_offsets[e]; m < element_offsets[e + 1]; ++m) {
      const int j = element_nodes[m];
      if (j != i && stamp[j] != i) {
        stamp[j] = i;
        visit(j);
      }
    }
  }
}

}  // namespace

NodeElements elements_of_nodes(std::span<const std::size_t> element_offsets, std::span<const int> element_nodes,
                               int num_nodes) {
  check_connectivity(element_offsets, element_nodes, num_nodes);
  const auto num_elements = static_cast<int>(element_offsets.size() - 1);
  NodeElements incidence;
  incidence.offset.assign(static_cast<std::size_t>(num_nodes) + 1, 0);
  std::vector<std::size_t> listed(static_cast<std::size_t>(num_nodes));  // slots filled, repeats left out
  // Each thread owns a range of nodes and reads every element for them: no atomics, and each
  // node's list comes out in element order whatever the number of threads.
#pragma omp parallel
  {
    const int threads = omp_get_num_threads(), t = omp_get_thread_num();
    const auto begin = static_cast<int>(static_cast<std::int64_t>(num_nodes) * t / threads);
    const auto end = static_cast<int>(static_cast<std::int64_t>(num_nodes) * (t + 1) / threads);
    for (int e = 0; e < num_elements; ++e)
      for (std::size_t m = element_offsets[e]; m < element_offsets[e + 1]; ++m)
        if (const int j = element_nodes[m]; j >= begin && j < end) ++incidence.offset[j + 1];
#pragma omp barrier
#pragma omp single
    {
      counts_to_offsets(incidence.offset);
      incidence.element.resize(incidence.offset.back());
    }
    for (int j = begin; j < end; ++j) listed[j] = incidence.offset[j];
    for (int e = 0; e < num_elements; ++e)
      for (std::size_t m = element_offsets[e]; m < element_offsets[e + 1]; ++m) {
        const int j = element_nodes[m];
        if (j < begin || j >= end) continue;
        std::size_t& next = listed[j];
        // A node listed twice in one element (degenerate input) is recorded once.
        if (next > incidence.offset[j] && incidence.element[next - 1] == e) continue;
        incidence.element[next++] = e;
      }
  }
  if (std::equal(listed.begin(), listed.end(), incidence.offset.begin() + 1)) return incidence;
  // Compact away the slots left by repeated nodes.
  std::size_t write = 0;
  for (int i = 0; i < num_nodes; ++i) {
    const std::size_t begin = incidence.offset[i];
    incidence.offset[i] = write;
    for (std::size_t k = begin; k < listed[i]; ++k) incidence.element[write++] = incidence.element[k];
  }
  incidence.offset[num_nodes] = write;
  incidence.element.resize(write);
  return incidence;
}

NodeGraph node_graph_from_elements(std::span<const std::size_t> element_offsets, std::span<const int> element_nodes,
                                   int num_nodes) {
  const NodeElements incidence = elements_of_nodes(element_offsets, element_nodes, num_nodes);
  NodeGraph graph;
  graph.offset.assign(static_cast<std::size_t>(num_nodes) + 1, 0);
  // Two passes over the same neighbour walk: count, then fill at the counted offsets (each row
  // written once, in its place).
#pragma omp parallel
  {
    std::vector<int> stamp(num_nodes, -1);
#pragma omp for schedule(static)
    for (int i = 0; i < num_nodes; ++i) {
      std::size_t count = 0;
      for_each_neighbour(i, incidence, element_offsets, element_nodes, stamp, [&](int) { ++count; });
      graph.offset[i + 1] = count;
    }
    std::fill(stamp.begin(), stamp.end(), -1);  // the fill walks the same rows again
#pragma omp single
    {
      counts_to_offsets(graph.offset);
      graph.neighbour.resize(graph.offset.back());
    }
#pragma omp for schedule(static)
    for (int i = 0; i < num_nodes; ++i) {
      int* out = graph.neighbour.data() + graph.offset[i];
      int* const first = out;
      for_each_neighbour(i, incidence, element_offsets, element_nodes, stamp, [&](int j) { *out++ = j; });
      std::sort(first, out);
    }
  }
  return graph;
}

}  // namespace fem::renumber
