#include "solvers/multifrontal/tree_schedule.hpp"

#include <algorithm>
#include <queue>
#include <utility>

namespace fem::multifrontal {

TreeSchedule schedule_tree(const std::vector<std::int32_t>& parent, const std::vector<double>& work, int threads,
                           const std::vector<char>& on_device) {
  const auto n = static_cast<std::int32_t>(parent.size());
  const auto device = [&](std::int32_t s) { return !on_device.empty() && on_device[s]; };
  std::vector<double> subtree_work(work);
  std::vector<std::int32_t> size(n, 1);
  std::vector<std::vector<std::int32_t>> children(n);
  for (std::int32_t s = 0; s < n; ++s)  // postorder: children come before their parent
    if (parent[s] >= 0) {
      subtree_work[parent[s]] += subtree_work[s];
      size[parent[s]] += size[s];
      children[parent[s]].push_back(s);
    }
  // The host's forest: its roots are the roots of the tree and the children of device supernodes.
  double total = 0;
  std::priority_queue<std::pair<double, std::int32_t>> open;
  std::vector<char> is_top(n, 0);
  for (std::int32_t s = 0; s < n; ++s)
    if (device(s)) {
      is_top[s] = 1;
    } else if (parent[s] < 0 || device(parent[s])) {
      open.push({subtree_work[s], s});
      total += subtree_work[s];
    }
  // Two subtrees per thread at most in weight: list scheduling then balances within a few %.
  const double limit = threads > 1 ? total / (2.0 * threads) : total;
  while (!open.empty() && open.top().first > limit) {
    const std::int32_t s = open.top().second;
    open.pop();
    is_top[s] = 1;
    for (auto c : children[s]) open.push({subtree_work[c], c});
  }
  TreeSchedule schedule;
  for (; !open.empty(); open.pop()) {  // heaviest first
    const std::int32_t r = open.top().second;
    schedule.subtree_root.push_back(r);
    schedule.subtree_first.push_back(r - size[r] + 1);
  }
  for (std::int32_t s = 0; s < n; ++s)
    if (is_top[s]) (device(s) ? schedule.device : schedule.top).push_back(s);
  return schedule;
}

}  // namespace fem::multifrontal
