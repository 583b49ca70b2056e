#include "bench/spmv/matrix_market_reader.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "fem/resources/memory_estimate.hpp"
#include "solvers/direct/available_memory.hpp"
#include "support/host_memory.hpp"

namespace fem::bench {

namespace {

// Longer than any line of numbers or comment a Matrix Market file holds: a file of one endless
// line (a device such as /dev/zero, a binary file) is refused instead of read into memory.
constexpr std::size_t kLongestLine = 1 << 16;

// std::getline that fails, naming the file and line, on a line longer than kLongestLine.
bool bounded_getline(std::istream& in, std::string& line, const std::string& path, int line_no) {
  line.resize(kLongestLine + 1);
  in.getline(line.data(), static_cast<std::streamsize>(line.size()));
  const std::streamsize got = in.gcount();
  if (in.fail() && !in.eof())  // the buffer filled before the end of the line
    throw std::runtime_error(path + ":" + std::to_string(line_no) + ": the line is longer than " + std::to_string(kLongestLine) +
                             " characters; not a Matrix Market file");
  if (got == 0 && in.eof()) return false;
  line.resize(static_cast<std::size_t>(got - (in.eof() ? 0 : 1)));  // gcount counts the newline it took
  return true;
}

// The first line after `line_no` that is neither empty nor a % comment; false at the end.
bool next_data_line(std::istream& in, std::string& line, int& line_no, const std::string& path) {
  while (bounded_getline(in, line, path, line_no + 1)) {
    ++line_no;
    if (line.find_first_not_of(" \t\r") != std::string::npos && line[line.find_first_not_of(" \t\r")] != '%') return true;
  }
  return false;
}

// A reader's failure: the file and line, and what is wrong there.
[[noreturn]] void fail(const std::string& path, int line_no, const std::string& what) {
  throw std::runtime_error(path + ":" + std::to_string(line_no) + ": " + what);
}

// What the banner line says of the entries.
struct Banner {
  std::string symmetry;
  bool pattern = false;   // no values: every entry is 1
  bool mirrored = false;  // symmetric or skew: the lower triangle stands for both
  bool skew = false;
};

Banner read_banner(const std::string& path, const std::string& line) {
  std::string banner, object, format, field, symmetry;
  std::istringstream(line) >> banner >> object >> format >> field >> symmetry;
  auto lower = [](std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
  };
  if (banner != "%%MatrixMarket" || lower(object) != "matrix" || lower(format) != "coordinate")
    fail(path, 1, "not a Matrix Market coordinate matrix ('" + line.substr(0, 80) + "')");
  field = lower(field);
  symmetry = lower(symmetry);
  if (field != "real" && field != "integer" && field != "pattern" && field != "double")
    fail(path, 1, "field '" + field + "' is not supported (real, integer or pattern)");
  if (symmetry != "general" && symmetry != "symmetric" && symmetry != "skew-symmetric")
    fail(path, 1, "symmetry '" + symmetry + "' is not supported (general, symmetric or skew-symmetric)");
  return {symmetry, field == "pattern", symmetry != "general", symmetry == "skew-symmetric"};
}

// Refuses sizes that the 32-bit indices, the matrix, the file or the memory cannot hold, before
// anything is allocated.
void check_sizes(const std::string& path, int line_no, const Banner& banner, std::int64_t rows, std::int64_t entries) {
  if (rows > std::numeric_limits<std::int32_t>::max())
    fail(path, line_no, std::to_string(rows) + " rows do not fit the 32-bit column indices (at most 2147483647)");
  const bool mirrored = banner.mirrored;
  const double most = mirrored ? 0.5 * static_cast<double>(rows) * (static_cast<double>(rows) + 1) : static_cast<double>(rows) * rows;
  if (static_cast<double>(entries) > most)
    fail(path, line_no, std::to_string(entries) + " entries cannot fit a " + (mirrored ? banner.symmetry + " " : "") +
                            std::to_string(rows) + " x " + std::to_string(rows) + " matrix");
  // Each entry takes at least "i j\n" in the file: a count the file cannot hold is refused before allocating for it.
  std::error_code ec;
  const auto file_bytes = std::filesystem::file_size(path, ec);
  if (!ec && static_cast<double>(entries) * 4 > static_cast<double>(file_bytes))
    fail(path, line_no, "the size line announces " + std::to_string(entries) + " entries, more than the " +
                            std::to_string(file_bytes) + " bytes of the file can hold");
  const std::size_t stored = static_cast<std::size_t>(mirrored ? 2 * entries : entries);
  // Triples while reading, then CSR; per row its start and the three vectors a product with it needs.
  const std::size_t bytes = stored * (sizeof(std::tuple<std::int32_t, std::int32_t, double>) + 12) + 32 * static_cast<std::size_t>(rows);
  try {
    resources::require_memory(bytes, host_available_memory(),
                              "a " + std::to_string(rows) + " x " + std::to_string(rows) + " matrix of " + std::to_string(entries) + " entries", "");
  } catch (const resources::ResourceError& e) {
    fail(path, line_no, e.what());
  }
}

}  // namespace

CsrMatrix read_matrix_market(const std::string& path) {
  // A pipe or a device (/dev/zero, a FIFO) never ends or blocks: only a regular file is read.
  std::error_code kind_error;
  if (std::filesystem::exists(path, kind_error) && !std::filesystem::is_regular_file(path, kind_error))
    throw std::runtime_error(path + ": not a regular file (a device, pipe or folder); a Matrix Market matrix must be a file");
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open Matrix Market file " + path);
  const auto fail = [&](int line_no, const std::string& what) { bench::fail(path, line_no, what); };
  std::string line;
  bounded_getline(in, line, path, 1);
  const Banner banner = read_banner(path, line);
  const bool pattern = banner.pattern, mirrored = banner.mirrored, skew = banner.skew;
  const std::string& symmetry = banner.symmetry;
  int line_no = 1;
  if (!next_data_line(in, line, line_no, path)) fail(line_no, "the file ends before its size line 'rows columns entries'");
  std::int64_t rows = 0, cols = 0, entries = 0;
  std::string rest;
  std::istringstream size_line(line);
  if (!(size_line >> rows >> cols >> entries) || (size_line >> rest))
    fail(line_no, "expected 'rows columns entries'");
  if (rows != cols) fail(line_no, "the matrix is " + std::to_string(rows) + " x " + std::to_string(cols) + ", not square");
  if (rows < 1 || entries < 0) fail(line_no, "the size line holds a negative or zero size");
  check_sizes(path, line_no, banner, rows, entries);
  const std::size_t stored = static_cast<std::size_t>(mirrored ? 2 * entries : entries);

  std::vector<std::tuple<std::int32_t, std::int32_t, double>> triples;
  triples.reserve(stored);
  for (std::int64_t e = 0; e < entries; ++e) {
    if (!next_data_line(in, line, line_no, path))
      fail(line_no, "the file ends after " + std::to_string(e) + " entries; its size line announces " + std::to_string(entries));
    std::istringstream entry(line);
    std::int64_t i = 0, j = 0;
    std::string value;
    if (!(entry >> i >> j) || (!pattern && !(entry >> value)) || (entry >> rest))
      fail(line_no, "expected entry " + std::to_string(e + 1) + " of " + std::to_string(entries) + " as 'row column" +
                        (pattern ? "'" : " value'"));
    char* end = nullptr;
    const double v = pattern ? 1.0 : std::strtod(value.c_str(), &end);
    if (!pattern && end != value.c_str() + value.size())
      fail(line_no, "the value of entry (" + std::to_string(i) + ", " + std::to_string(j) + ") is not a number: '" + value + "'");
    if (i < 1 || i > rows || j < 1 || j > rows)
      fail(line_no, "index (" + std::to_string(i) + ", " + std::to_string(j) + ") is outside 1 .. " + std::to_string(rows));
    if (!std::isfinite(v)) fail(line_no, "the value of entry (" + std::to_string(i) + ", " + std::to_string(j) + ") is not finite");
    // A symmetric file stores the lower triangle only (skew: strictly lower); an upper entry
    // would be mirrored onto one that may also be there.
    if (mirrored && (j > i || (skew && i == j)))
      fail(line_no, "entry (" + std::to_string(i) + ", " + std::to_string(j) + ") is " + (i == j ? "on the diagonal" : "above the diagonal") +
                        ", but a " + symmetry + " file holds only the " + (skew ? "strictly " : "") + "lower triangle");
    triples.emplace_back(static_cast<std::int32_t>(i - 1), static_cast<std::int32_t>(j - 1), v);
    if (mirrored && i != j) triples.emplace_back(static_cast<std::int32_t>(j - 1), static_cast<std::int32_t>(i - 1), (skew ? -1.0 : 1.0) * v);
  }
  if (next_data_line(in, line, line_no, path))
    fail(line_no, "more entries than the " + std::to_string(entries) + " the size line announces");
  std::sort(triples.begin(), triples.end());
  CsrMatrix a;
  a.rows = rows;
  a.row_ptr.assign(static_cast<std::size_t>(rows + 1), 0);
  for (std::size_t k = 0; k < triples.size(); ++k) {
    const auto [i, j, v] = triples[k];
    if (k > 0 && std::get<0>(triples[k - 1]) == i && std::get<1>(triples[k - 1]) == j) {
      a.val.back() += v;
      // Each value is finite, but repeated entries summed need not be.
      if (!std::isfinite(a.val.back()))
        throw std::runtime_error(path + ": entry (" + std::to_string(i + 1) + ", " + std::to_string(j + 1) +
                                 ") is given more than once and its values sum past the largest double");
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
