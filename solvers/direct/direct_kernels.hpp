#pragma once
// The direct solvers' device kernels (the band Cholesky's), declared beside the algorithm
// (Ginkgo's pattern): what the band solver asks of a back-end that holds the band in its own
// memory. A back-end folder with them implements DirectKernels (CUDA:
// kernels/cuda/direct_kernels_cuda.cpp), and direct_kernels_for (direct_kernels.cpp) picks the
// implementation: the one place that knows which this build has. The host back-ends have none:
// their tiles are the factorisation (band_cholesky.hpp).
#include <cstddef>

#include "kernels/band_layout.hpp"
#include "kernels/dense_backend.hpp"

namespace fem::band {

class DirectKernels {
 public:
  virtual ~DirectKernels() = default;

  // Factor in place the band in device memory (layout.n rows of layout.pitch() entries from
  // `rows`) as one of `parts` factorisations sharing the device at once (the two-sided walkers):
  // by the chain of panel kernels and library updates, or (FP64) by the persistent kernels on
  // their share of the device. Throw kernels::NotPositiveDefinite naming the first equation
  // whose pivot is not positive.
  virtual void factor_chain(const kernels::BandLayout& layout, double* rows, int parts) const = 0;
  virtual void factor_chain(const kernels::BandLayout& layout, float* rows, int parts) const = 0;
  virtual void factor_persistent(const kernels::BandLayout& layout, double* rows, int parts) const = 0;

  // Factor in place the band in host memory, streaming it through at most `device_bytes` of
  // device memory; return the number of chunks it went through the device in.
  virtual int factor_streamed(const kernels::BandLayout& layout, double* host_rows, std::size_t device_bytes) const = 0;
  virtual int factor_streamed(const kernels::BandLayout& layout, float* host_rows, std::size_t device_bytes) const = 0;
  // The least device memory factor_streamed accepts for `layout` and elements of `element_bytes`.
  virtual std::size_t min_streaming_bytes(const kernels::BandLayout& layout, std::size_t element_bytes) const = 0;

  // The two-sided factorisation's element moves in device memory (twisted_copies.hpp in this
  // folder says what each does), queued after the back-end's work so far.
  virtual void triangle_to_dense(const double* triangle, kernels::index_t triangle_ld, kernels::index_t size,
                                 bool reflected, double* dense, kernels::index_t dense_ld) const = 0;
  virtual void triangle_to_dense(const float* triangle, kernels::index_t triangle_ld, kernels::index_t size,
                                 bool reflected, float* dense, kernels::index_t dense_ld) const = 0;
  // `from` null: the identity's lower triangle.
  virtual void copy_lower(const double* from, kernels::index_t from_ld, kernels::index_t size, double* to,
                          kernels::index_t to_ld) const = 0;
  virtual void copy_lower(const float* from, kernels::index_t from_ld, kernels::index_t size, float* to,
                          kernels::index_t to_ld) const = 0;
  virtual void reverse_rows(const double* from, kernels::index_t from_ld, kernels::index_t rows, kernels::index_t cols,
                            bool add, double* to, kernels::index_t to_ld) const = 0;
  virtual void reverse_rows(const float* from, kernels::index_t from_ld, kernels::index_t rows, kernels::index_t cols,
                            bool add, float* to, kernels::index_t to_ld) const = 0;
};

// The direct kernels of the dense back-end `backend`; null where it has none.
const DirectKernels* direct_kernels_for(const kernels::DenseBackend& backend);

}  // namespace fem::band

namespace fem::kernels::cuda {

// The CUDA back-end's direct kernels (the `cublas` dense back-end's memory).
const band::DirectKernels& direct_kernels();

}  // namespace fem::kernels::cuda
