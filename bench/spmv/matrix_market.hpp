#pragma once
// Reads a Matrix Market coordinate file (real, integer or pattern; general or symmetric) into CSR.
#include <string>

#include "kernels/csr_matrix.hpp"

namespace fem::bench {

// Square matrices only; symmetric files are expanded to both triangles, duplicates summed.
// Throws std::runtime_error naming the file and line of what it cannot read.
CsrMatrix read_matrix_market(const std::string& path);

}  // namespace fem::bench
