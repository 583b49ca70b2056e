#include "fem/assembly/element_coloring.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>

namespace fem {
namespace {

// Each block of `block_size` consecutive elements of `element` takes the lowest colour that
// none of its nodes has met yet. The colours met at each node are a bit set of `words` 64-bit
// words, in one flat array (no allocation per node), widened when the colours outgrow it.
std::vector<std::vector<std::size_t>> greedy_block_colors(const ElementSet& cells, std::span<const std::size_t> element,
                                                          std::size_t block_size, std::size_t num_nodes) {
  std::size_t words = 1;
  std::vector<std::uint64_t> used(num_nodes, 0);
  std::vector<std::vector<std::size_t>> colors;
  std::vector<std::uint64_t> forbidden;
  const std::size_t blocks = (element.size() + block_size - 1) / block_size;
  for (std::size_t b = 0; b < blocks; ++b) {
    const auto members = element.subspan(b * block_size, std::min(block_size, element.size() - b * block_size));
    forbidden.assign(words, 0);
    for (std::size_t e : members)
      for (int n : cells.nodes_of(e))
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
    colors[color].push_back(b);
    for (std::size_t e : members)
      for (int n : cells.nodes_of(e)) used[static_cast<std::size_t>(n) * words + color / 64] |= std::uint64_t{1} << (color % 64);
  }
  return colors;
}

std::vector<std::size_t> every_element(const ElementSet& cells) {
  std::vector<std::size_t> all(cells.size());
  std::iota(all.begin(), all.end(), std::size_t{0});
  return all;
}

// About a thousand blocks (a few hundred a colour on a locally numbered mesh: enough to share
// among many threads) of at most 256 elements (what a core's cache holds the rows of).
constexpr std::size_t kBlocks = 1024, kMaxBlockSize = 256;
// Fewer blocks a colour than this on average: the numbering is not local, use single elements.
constexpr std::size_t kMinBlocksPerColor = 16;

}  // namespace

std::span<const std::size_t> ElementBlocks::block(std::size_t b) const {
  return std::span<const std::size_t>(element).subspan(b * block_size, std::min(block_size, element.size() - b * block_size));
}

std::vector<std::vector<std::size_t>> color_elements(const ElementSet& cells, std::size_t num_nodes) {
  return greedy_block_colors(cells, every_element(cells), 1, num_nodes);
}

ElementBlocks color_element_blocks(const ElementSet& cells, std::span<const std::size_t> which, std::size_t num_nodes) {
  ElementBlocks out;
  out.element = which.empty() ? every_element(cells) : std::vector<std::size_t>(which.begin(), which.end());
  out.block_size = std::clamp<std::size_t>(out.element.size() / kBlocks, 1, kMaxBlockSize);
  out.colors = greedy_block_colors(cells, out.element, out.block_size, num_nodes);
  const std::size_t blocks = (out.element.size() + out.block_size - 1) / out.block_size;
  if (out.block_size > 1 && blocks < kMinBlocksPerColor * out.colors.size()) {
    out.block_size = 1;
    out.colors = greedy_block_colors(cells, out.element, 1, num_nodes);
  }
  return out;
}

}  // namespace fem
