#pragma once
// Reads a Matrix Market coordinate file (real, integer or pattern; general or symmetric) into CSR.
#include <string>

#include "kernels/csr_matrix.hpp"

namespace fem::bench {

// Square matrices only; symmetric files (lower triangle) are expanded to both triangles,
// duplicates summed. Throws std::runtime_error naming the file and line of what it cannot read
// or will not trust: an entry count other than the size line's, an upper-triangle entry in a
// symmetric file, a non-finite value, a size past 32-bit indices or the memory available
// (refused before anything is allocated).
CsrMatrix read_matrix_market(const std::string& path);

}  // namespace fem::bench
