#include "solvers/multifrontal/nested_dissection.hpp"

#include <metis.h>
#include <omp.h>

#include <numeric>
#include <stdexcept>
#include <string>

#include "support/first_failure.hpp"

namespace fem::multifrontal {

namespace {

// Parts smaller than this are ordered by one METIS_NodeND call: splitting them further in
// parallel saves less than the split costs.
constexpr idx_t kSplitNodes = 20000;

// A graph in METIS's form, with the node of the whole graph each of its nodes is.
struct Part {
  std::vector<idx_t> xadj{0}, adjncy;
  std::vector<std::int32_t> node;
  idx_t size() const { return static_cast<idx_t>(node.size()); }
};

void check(int status, const char* call) {
  if (status != METIS_OK)
    throw std::runtime_error(std::string("multifrontal: ") + call + " failed (status " + std::to_string(status) + ")");
}

void default_options(idx_t* options) {
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_NUMBERING] = 0;
}

// The nodes of `part` labelled `label` in `where`, as a graph of their own.
Part induced(const Part& part, const std::vector<idx_t>& where, idx_t label) {
  Part sub;
  std::vector<idx_t> local(part.size(), -1);
  for (idx_t v = 0; v < part.size(); ++v)
    if (where[v] == label) {
      local[v] = sub.size();
      sub.node.push_back(part.node[v]);
    }
  for (idx_t v = 0; v < part.size(); ++v) {
    if (where[v] != label) continue;
    for (idx_t e = part.xadj[v]; e < part.xadj[v + 1]; ++e)
      if (local[part.adjncy[e]] >= 0) sub.adjncy.push_back(local[part.adjncy[e]]);
    sub.xadj.push_back(static_cast<idx_t>(sub.adjncy.size()));
  }
  return sub;
}

// The part's nodes in elimination order (nodes of the whole graph): METIS_NodeND on a small part
// or at the last level; above, a METIS vertex separator, the two sides ordered in parallel
// (OpenMP tasks) and the separator last, as METIS_NodeND itself recurses.
std::vector<std::int32_t> dissect(const Part& part, int levels) {
  idx_t n = part.size();
  if (part.adjncy.empty()) return part.node;  // nothing couples: any order is free of fill (METIS wants edges)
  idx_t options[METIS_NOPTIONS];
  default_options(options);
  std::vector<idx_t> xadj(part.xadj), adjncy(part.adjncy);  // METIS takes them as writable
  if (levels == 0 || n < kSplitNodes) {
    std::vector<idx_t> perm(n), iperm(n);
    check(METIS_NodeND(&n, xadj.data(), adjncy.data(), nullptr, options, perm.data(), iperm.data()), "METIS_NodeND");
    // METIS: row i of the reordered matrix is row perm[i] of the original.
    std::vector<std::int32_t> order(n);
    for (idx_t i = 0; i < n; ++i) order[i] = part.node[perm[i]];
    return order;
  }
  idx_t separator = 0;
  std::vector<idx_t> where(n);
  check(METIS_ComputeVertexSeparator(&n, xadj.data(), adjncy.data(), nullptr, options, &separator, where.data()),
        "METIS_ComputeVertexSeparator");
  std::vector<std::int32_t> left, right;
  FirstFailure failure;
#pragma omp task shared(left, part, where, failure)
  failure.run([&] { left = dissect(induced(part, where, 0), levels - 1); });
  right = dissect(induced(part, where, 1), levels - 1);
#pragma omp taskwait
  failure.rethrow_if_failed();
  std::vector<std::int32_t> order = std::move(left);
  order.insert(order.end(), right.begin(), right.end());
  for (idx_t v = 0; v < n; ++v)
    if (where[v] == 2) order.push_back(part.node[v]);
  return order;
}

}  // namespace

std::vector<std::int32_t> nested_dissection(const BlockGraph& graph) {
  if (graph.neighbour.size() > std::size_t{0x7fffffff})
    throw std::invalid_argument("multifrontal: the node graph has more edges than METIS's 32-bit indices hold");
  Part whole;
  whole.xadj.assign(graph.offset.begin(), graph.offset.end());
  whole.adjncy.assign(graph.neighbour.begin(), graph.neighbour.end());
  whole.node.resize(graph.nodes);
  std::iota(whole.node.begin(), whole.node.end(), 0);
  // Enough levels of separators for two parts per thread at the bottom.
  int levels = 0;
  while ((1 << levels) < 2 * omp_get_max_threads() && omp_get_max_threads() > 1) ++levels;
  std::vector<std::int32_t> order;
  FirstFailure failure;
#pragma omp parallel
#pragma omp single
  failure.run([&] { order = dissect(whole, levels); });
  failure.rethrow_if_failed();
  std::vector<std::int32_t> new_of_old(graph.nodes);
  for (std::int32_t i = 0; i < graph.nodes; ++i) new_of_old[order[i]] = i;
  return new_of_old;
}

std::string metis_version() {
  return std::to_string(METIS_VER_MAJOR) + "." + std::to_string(METIS_VER_MINOR) + "." + std::to_string(METIS_VER_SUBMINOR);
}

}  // namespace fem::multifrontal
