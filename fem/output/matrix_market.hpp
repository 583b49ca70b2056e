#pragma once
// The assembled system in Matrix Market, so that others can reproduce it with their own tools
// and `fem bench spmv` can read it back: K as a coordinate matrix (every stored entry, both
// triangles: "general"), f as a one-column array.
#include <filesystem>
#include <span>
#include <string>

#include "kernels/csr_matrix.hpp"

namespace fem {

// `comment` (one line) goes after the header. Values with 17 significant digits: read back,
// they are the same doubles. Throws std::runtime_error when the file cannot be written.
void write_matrix_market(const std::filesystem::path& path, const CsrMatrix& matrix, const std::string& comment);
void write_matrix_market(const std::filesystem::path& path, std::span<const double> vector, const std::string& comment);

}  // namespace fem
