#include "fem/assembly/element_coloring.hpp"

#include <cstdint>

namespace fem {
namespace {

// Each element takes the lowest colour that none of its nodes has met yet. The colours met
// at each node are a bit set of `words` 64-bit words, in one flat array (no allocation per
// node), widened when the colours outgrow it.
template <class ElementAt>
std::vector<std::vector<std::size_t>> greedy_colors(const ElementSet& cells, std::size_t count, ElementAt element_at,
                                                    std::size_t num_nodes) {
  std::size_t words = 1;
  std::vector<std::uint64_t> used(num_nodes, 0);
  std::vector<std::vector<std::size_t>> colors;
  std::vector<std::uint64_t> forbidden;
  for (std::size_t k = 0; k < count; ++k) {
    const std::size_t e = element_at(k);
    const auto nodes = cells.nodes_of(e);
    forbidden.assign(words, 0);
    for (int n : nodes)
      for (std::size_t w = 0; w < words; ++w) forbidden[w] |= used[static_cast<std::size_t>(n) * words + w];
    std::size_t color = 0;
    while (color < 64 * words && (forbidden[color / 64] >> (color % 64) & 1)) ++color;
    if (color == 64 * words) {
      std::vector<std::uint64_t> wider(num_nodes * (words + 1), 0);
      for (std::size_t n = 0; n < num_nodes; ++n)
        for (std::size_t w = 0; w < words; ++w) wider[n * (words + 1) + w] = used[n * words + w];
      used.swap(wider);
      ++words;
    }
    if (color == colors.size()) colors.emplace_back();
    colors[color].push_back(e);
    for (int n : nodes) used[static_cast<std::size_t>(n) * words + color / 64] |= std::uint64_t{1} << (color % 64);
  }
  return colors;
}

}  // namespace

std::vector<std::vector<std::size_t>> color_elements(const ElementSet& cells, std::size_t num_nodes) {
  return greedy_colors(cells, cells.size(), [](std::size_t k) { return k; }, num_nodes);
}

std::vector<std::vector<std::size_t>> color_elements(const ElementSet& cells, std::span<const std::size_t> which,
                                                     std::size_t num_nodes) {
  return greedy_colors(cells, which.size(), [&](std::size_t k) { return which[k]; }, num_nodes);
}

}  // namespace fem
