#pragma once
// Blocks of n-vectors on one device, for LOBPCG: each block a matrix of the device's dense
// back-end holding one vector per row (the column-major n x k block of the algorithm, stored
// transposed), so that every vector is contiguous and the sparse back-end reaches it through a
// view. Products with sparse matrices go block by block on the sparse back-end (spmv_rows),
// preconditioners vector by vector; Gram matrices and linear combinations are GEMMs on the dense
// back-end, with only their small coefficient matrices on the host.
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "kernels/dense_backend.hpp"
#include "kernels/sparse_backend.hpp"

namespace fem::eigen {

// `count` vectors of one length: rows of a dense back-end matrix.
struct VectorBlock {
  kernels::DeviceMatrix<double> rows;
  int count() const { return static_cast<int>(rows.rows); }
  // `count` vectors from the `first`, sharing the storage.
  VectorBlock part(int first, int count) const { return {rows.block(first, 0, count, rows.cols)}; }
};

class VectorBlocks {
 public:
  // The back-ends of `device` (cpu, cuda) for vectors of `length`, with room for coefficient
  // matrices of up to `widest` x `widest`. Throws SolverUnavailable without the device,
  // std::invalid_argument for a device without views of dense matrices.
  VectorBlocks(const std::string& device, std::int64_t length, int widest);

  const kernels::SparseBackend& sparse() const { return *sparse_; }
  std::int64_t length() const { return length_; }

  VectorBlock allocate(int count);  // zero
  // The vector `j` of a block, in place.
  std::unique_ptr<kernels::SparseVector> vector(const VectorBlock& block, int j) const;
  // Column-major host values (length x block.count()) to and from a block.
  void upload(std::span<const double> host, const VectorBlock& to);
  void download(const VectorBlock& from, std::span<double> host);

  // Seconds `work` takes, the device's queued work included.
  double seconds_for(const std::function<void()>& work) { return dense_->seconds_for(work); }

  // to_j = A from_j for every j, A from the sparse back-end's rows_matrix() (on a device, one
  // pass over A for the whole block).
  void multiply(const kernels::SparseMatrix& a, const VectorBlock& from, const VectorBlock& to) const;
  // a^T b: a.count() x b.count(), column-major, on the host.
  std::vector<double> inner(const VectorBlock& a, const VectorBlock& b);
  // The diagonal of a^T b alone (a_j . b_j, same counts): a pass per vector, not a GEMM.
  std::vector<double> column_dots(const VectorBlock& a, const VectorBlock& b) const;
  // to_j = from_j - scale[j] minus_j for every j (same counts).
  void subtract_scaled(const VectorBlock& from, std::span<const double> scale, const VectorBlock& minus,
                       const VectorBlock& to) const;
  // to = from C + beta to for C column-major from.count() x to.count() (leading dimension
  // from.count()); `to` is not read when beta = 0.
  void combine(const VectorBlock& from, std::span<const double> c, const VectorBlock& to, double beta = 0.0);

 private:
  std::unique_ptr<kernels::DenseBackend> dense_;
  std::unique_ptr<kernels::SparseBackend> sparse_;
  std::int64_t length_ = 0, stride_ = 0;
  kernels::DeviceMatrix<double> small_;  // widest x widest: Gram matrices and coefficients on the device
};

}  // namespace fem::eigen
