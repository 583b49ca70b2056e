#include "bench/spmv/matrix_market.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <vector>

namespace fem::bench {

CsrMatrix read_matrix_market(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open Matrix Market file " + path);
  std::string line;
  std::getline(in, line);
  std::string banner, object, format, field, symmetry;
  std::istringstream(line) >> banner >> object >> format >> field >> symmetry;
  auto lower = [](std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
  };
  if (banner != "%%MatrixMarket" || lower(object) != "matrix" || lower(format) != "coordinate")
    throw std::runtime_error(path + ":1: not a Matrix Market coordinate matrix ('" + line + "')");
  field = lower(field);
  symmetry = lower(symmetry);
  if (field == "complex") throw std::runtime_error(path + ": complex matrices are not supported");
  const bool pattern = field == "pattern";
  const bool mirrored = symmetry == "symmetric" || symmetry == "skew-symmetric";
  const double mirror_sign = symmetry == "skew-symmetric" ? -1.0 : 1.0;
  int line_no = 1;
  while (std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line[0] != '%') break;
  }
  std::int64_t rows = 0, cols = 0, entries = 0;
  if (!(std::istringstream(line) >> rows >> cols >> entries))
    throw std::runtime_error(path + ":" + std::to_string(line_no) + ": expected 'rows columns entries'");
  if (rows != cols) throw std::runtime_error(path + ": the matrix is " + std::to_string(rows) + " x " + std::to_string(cols) + ", not square");
  std::vector<std::tuple<std::int32_t, std::int32_t, double>> triples;
  triples.reserve(static_cast<std::size_t>(mirrored ? 2 * entries : entries));
  for (std::int64_t e = 0; e < entries; ++e) {
    ++line_no;
    std::int64_t i = 0, j = 0;
    double v = 1.0;
    if (!(in >> i >> j) || (!pattern && !(in >> v)))
      throw std::runtime_error(path + ":" + std::to_string(line_no) + ": expected entry " + std::to_string(e + 1) + " of " +
                               std::to_string(entries));
    if (i < 1 || i > rows || j < 1 || j > rows)
      throw std::runtime_error(path + ":" + std::to_string(line_no) + ": index out of range");
    triples.emplace_back(static_cast<std::int32_t>(i - 1), static_cast<std::int32_t>(j - 1), v);
    if (mirrored && i != j) triples.emplace_back(static_cast<std::int32_t>(j - 1), static_cast<std::int32_t>(i - 1), mirror_sign * v);
  }
  std::sort(triples.begin(), triples.end());
  CsrMatrix a;
  a.rows = rows;
  a.row_ptr.assign(static_cast<std::size_t>(rows + 1), 0);
  for (std::size_t k = 0; k < triples.size(); ++k) {
    const auto [i, j, v] = triples[k];
    if (k > 0 && std::get<0>(triples[k - 1]) == i && std::get<1>(triples[k - 1]) == j) {
      a.val.back() += v;
      continue;
    }
    a.col.push_back(j);
    a.val.push_back(v);
    ++a.row_ptr[i + 1];
  }
  for (std::int64_t i = 0; i < rows; ++i) a.row_ptr[i + 1] += a.row_ptr[i];
  return a;
}

}  // namespace fem::bench
