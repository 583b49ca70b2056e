#pragma once
// The blocked band Cholesky on one CUDA device, with cuSOLVER POTRF on the diagonal blocks and
// cuBLAS TRSM/SYRK/GEMM on the panels and trailing windows. Two streams give a look-ahead of
// one block column: while the trailing window of step k is updated by one SYRK, the next block
// column is updated, factored and solved on a high-priority stream. The pivot flags stay on the
// device (one per step) and are read once at the end, so the host never waits inside the loop.
// What bounds it (bench/RESULTS.md): on an H100 its time grows with n at about 1.4 µs a column
// whatever the bandwidth and block size, i.e. the chain of small calls on the panel stream
// (POTRF first) sets the pace, not the trailing SYRK.
//
// Bands larger than the device memory stream through it: two buffers of C + kd rows take turns,
// the kd rows still being updated move from one to the other on the device, new rows come in
// and finished rows go back to the host on copy streams while the other buffer computes.
//
// Compiled only with FEM_WITH_CUDA.
#include <cstddef>

#include "solvers/direct/band_cholesky.hpp"

namespace fem::band::cuda {

// Factors in place the band held on the `cublas` back-end (BandOnBackend from load_band).
// Throws kernels::NotPositiveDefinite naming the first equation whose pivot is not positive.
template <class T>
void factor_on_device(const BandOnBackend<T>& band);

// Factors in place the band in host memory (layout.n rows of layout.pitch() entries), using at
// most `device_bytes` of device memory for the band's rows. Returns the number of chunks the
// band went through the device in. Throws kernels::NotPositiveDefinite as above, and
// std::invalid_argument when `device_bytes` is below min_streaming_bytes.
template <class T>
int factor_streamed(const BandLayout& layout, T* host_rows, std::size_t device_bytes);

// Rows of block columns factored per chunk when streaming through `device_bytes` (a multiple
// of the block size; below it, the budget is too small): each of the two buffers holds them
// plus the half-bandwidth rows they update.
index_t chunk_rows(const BandLayout& layout, std::size_t device_bytes, std::size_t element_bytes);

// Device memory for streaming: the smallest amount factor_streamed accepts for `layout` and
// elements of `element_bytes` (one block column a chunk).
std::size_t min_streaming_bytes(const BandLayout& layout, std::size_t element_bytes);

// Free device memory now (cudaMemGetInfo).
std::size_t free_device_memory();

}  // namespace fem::band::cuda
