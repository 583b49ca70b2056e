#pragma once
// The check every sparse back-end makes before it builds a block-diagonal preconditioner.
#include <string>

#include "kernels/sparse_backend.hpp"

namespace fem::kernels {

// Throws std::invalid_argument, naming `device` and the block sizes `backend` takes, unless
// backend.has_block_diagonal(block).
void require_block_diagonal(const SparseBackend& backend, const std::string& device, int block);

}  // namespace fem::kernels
