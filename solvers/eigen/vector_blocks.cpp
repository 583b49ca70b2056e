#include "solvers/eigen/vector_blocks.hpp"

#include <stdexcept>

#include "kernels/dense_registry.hpp"
#include "solvers/linear_solver.hpp"

namespace fem::eigen {
namespace {

// The dense back-end whose memory the sparse back-end of `device` can view: the host BLAS, cuBLAS.
std::string dense_of(const std::string& device) {
  if (device == "cpu") return "blas";
  if (device == "cuda") return "cublas";
  throw std::invalid_argument("LOBPCG runs on cpu and cuda, not on '" + device + "'");
}

// On a device each vector starts on a 256-byte boundary, as its kernels' wide loads like; on the
// host the vectors follow one another, a column-major block for the host's multi-column SpMV.
std::int64_t stride_of(std::int64_t length, const kernels::SparseBackend& sparse) {
  return sparse.on_host() ? length : (length + 31) / 32 * 32;
}

// The back-ends of `device`, or SolverUnavailable saying why this build or machine lacks them.
template <class Backend>
std::unique_ptr<Backend> backend_of(const std::string& device, std::unique_ptr<Backend> (*make)(const std::string&),
                                    const std::string& name) {
  try {
    return make(name);
  } catch (const kernels::BackendUnavailable& e) {
    throw SolverUnavailable("LOBPCG on " + device + ": " + e.what());
  }
}

}  // namespace

VectorBlocks::VectorBlocks(const std::string& device, std::int64_t length, int widest)
    : dense_(backend_of(device, kernels::make_dense_backend, dense_of(device))),
      sparse_(backend_of(device, kernels::make_sparse_backend, device)),
      length_(length),
      stride_(stride_of(length, *sparse_)),
      small_(dense_->allocate<double>(widest, widest)) {}

VectorBlock VectorBlocks::allocate(int count) {
  return {dense_->allocate<double>(count, stride_).block(0, 0, count, length_)};
}

std::unique_ptr<kernels::SparseVector> VectorBlocks::vector(const VectorBlock& block, int j) const {
  return sparse_->view(block.rows, j);
}

void VectorBlocks::upload(std::span<const double> host, const VectorBlock& to) {
  // Vector by vector through the sparse back-end, a few at once: a device's vector copies go
  // through its pinned staging buffers, where one copy of the strided block from pageable memory
  // runs at a few GB/s (a second at 5M equations and 30 vectors).
#pragma omp parallel for num_threads(3) schedule(dynamic)
  for (int j = 0; j < to.count(); ++j) vector(to, j)->upload(host.subspan(static_cast<std::size_t>(j) * length_, length_));
}

void VectorBlocks::download(const VectorBlock& from, std::span<double> host) {
  dense_->download(from.rows, host.data(), length_);
}

void VectorBlocks::multiply(const kernels::SparseMatrix& a, const VectorBlock& from, const VectorBlock& to) const {
  sparse_->spmv_rows(a, from.rows, to.rows);
}

std::vector<double> VectorBlocks::inner(const VectorBlock& a, const VectorBlock& b) {
  const int rows = a.count(), cols = b.count();
  const auto product = small_.block(0, 0, rows, cols);
  dense_->gemm(kernels::Op::none, kernels::Op::transpose, 1.0, a.rows, b.rows, 0.0, product);
  std::vector<double> by_rows(static_cast<std::size_t>(rows) * cols), c(by_rows.size());
  dense_->download(product, by_rows.data(), cols);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) c[static_cast<std::size_t>(j) * rows + i] = by_rows[static_cast<std::size_t>(i) * cols + j];
  return c;
}

std::vector<double> VectorBlocks::column_dots(const VectorBlock& a, const VectorBlock& b) const {
  std::vector<double> dots(a.count());
  for (int j = 0; j < a.count(); ++j) dots[j] = sparse_->dot(*vector(a, j), *vector(b, j));
  return dots;
}

void VectorBlocks::subtract_scaled(const VectorBlock& from, std::span<const double> scale, const VectorBlock& minus,
                                   const VectorBlock& to) const {
  for (int j = 0; j < to.count(); ++j) {
    const auto out = vector(to, j);
    sparse_->axpby(1.0, *vector(from, j), 0.0, *out);
    sparse_->axpby(-scale[j], *vector(minus, j), 1.0, *out);
  }
}

void VectorBlocks::combine(const VectorBlock& from, std::span<const double> c, const VectorBlock& to, double beta) {
  // Row j of `to` is the sum over i of C(i, j) times row i of `from`: read by rows, the
  // column-major C is the transposed coefficient matrix the row-major GEMM wants.
  const auto coefficients = small_.block(0, 0, to.count(), from.count());
  dense_->upload(c.data(), from.count(), coefficients);
  dense_->gemm(kernels::Op::none, kernels::Op::none, 1.0, coefficients, from.rows, beta, to.rows);
}

}  // namespace fem::eigen
