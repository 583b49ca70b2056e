#include "fem/output/matrix_market.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>

#include "support/signal_cleanup.hpp"

namespace fem {
namespace {

// A C stream: fprintf is several times faster than iostreams for millions of numbers.
using File = std::unique_ptr<std::FILE, int (*)(std::FILE*)>;

File open_for_writing(const std::filesystem::path& path) {
  File file(std::fopen(path.c_str(), "w"), &std::fclose);
  if (!file) throw std::runtime_error(path.string() + ": cannot write the Matrix Market file");
  return file;
}

void finish(File& file, const std::filesystem::path& path) {
  const bool failed = std::ferror(file.get()) != 0;
  if (std::fclose(file.release()) != 0 || failed)
    throw std::runtime_error(path.string() + ": writing the Matrix Market file failed: " +
                             (file_size_limit_reached() ? "the process's file-size limit (ulimit -f) was reached"
                                                        : std::string(std::strerror(errno))));
}

}  // namespace

void write_matrix_market(const std::filesystem::path& path, const CsrMatrix& matrix, const std::string& comment) {
  File file = open_for_writing(path);
  std::fprintf(file.get(), "%%%%MatrixMarket matrix coordinate real general\n%% %s\n%lld %lld %lld\n", comment.c_str(),
               static_cast<long long>(matrix.rows), static_cast<long long>(matrix.rows),
               static_cast<long long>(matrix.row_ptr[matrix.rows]));
  for (std::int64_t i = 0; i < matrix.rows; ++i)
    for (auto k = matrix.row_ptr[i]; k < matrix.row_ptr[i + 1]; ++k)
      std::fprintf(file.get(), "%lld %lld %.17g\n", static_cast<long long>(i + 1), static_cast<long long>(matrix.col[k]) + 1,
                   matrix.val[k]);
  finish(file, path);
}

void write_matrix_market(const std::filesystem::path& path, std::span<const double> vector, const std::string& comment) {
  File file = open_for_writing(path);
  std::fprintf(file.get(), "%%%%MatrixMarket matrix array real general\n%% %s\n%zu 1\n", comment.c_str(), vector.size());
  for (double v : vector) std::fprintf(file.get(), "%.17g\n", v);
  finish(file, path);
}

}  // namespace fem
