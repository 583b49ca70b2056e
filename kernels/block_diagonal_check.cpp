#include "kernels/block_diagonal_check.hpp"

#include <stdexcept>
#include <vector>

namespace fem::kernels {

void require_block_diagonal(const SparseBackend& backend, const std::string& device, int block) {
  if (backend.has_block_diagonal(block)) return;
  std::vector<std::string> taken;
  for (const int b : {0, 1, 3})
    if (backend.has_block_diagonal(b)) taken.push_back(std::to_string(b));
  std::string expected;
  for (std::size_t i = 0; i < taken.size(); ++i)
    expected += (i == 0 ? "" : i + 1 == taken.size() ? " or " : ", ") + taken[i];
  throw std::invalid_argument("block-diagonal preconditioner on " + device + " with blocks of " + std::to_string(block) +
                              " (expected " + expected + ")");
}

}  // namespace fem::kernels
