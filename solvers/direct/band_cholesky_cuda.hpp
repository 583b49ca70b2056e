#pragma once
// The blocked band Cholesky on one CUDA device. Each block column (diagonal block and the panel
// under it) is factored left-looking by the project's block column kernel, one launch for every
// 64 columns (kernels/cuda/block_column_cholesky.hpp): it applies the update of the block's
// columns left of it and factors. The rest of the trailing window is one cuBLAS SYRK a step, on
// a second stream, while the next block column is updated and factored on a high-priority one.
// The pivot flags stay on the device (one per step) and are read once at the end, so the host
// never waits inside the loop. The kernel chain sets the pace at small bandwidths, the trailing
// SYRK at large ones (bench/RESULTS.md).
//
// Bands larger than the device memory stream through it: two buffers of C + kd rows take turns,
// the kd rows still being updated move from one to the other on the device, new rows come in
// and finished rows go back to the host on copy streams while the other buffer computes.
//
// Compiled only with FEM_WITH_CUDA.
#include <cstddef>

#include "kernels/cuda/block_column_cholesky.hpp"
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

// Whether the block column kernel applies the update of the block column before its own (blocks
// of one kernel's width); wider blocks get it from a cuBLAS SYRK and GEMM, which cost less than
// the kernels applying it 64 columns at a time.
bool kernel_applies_previous_block(index_t block);

// The block column kernel's work for the columns from c on (c a multiple of
// kernels::cuda::block_column_width) of the step whose block column starts at column j, with
// `diagonal` pointing at the entry (j + c, j + c) of a band in `layout` (leading dimension
// layout.window()): as the factorisation launches it.
template <class T>
kernels::cuda::BlockColumn<T> step_block_column(const BandLayout& layout, T* diagonal, index_t j, index_t c);

// Free device memory now (cudaMemGetInfo).
std::size_t free_device_memory();

}  // namespace fem::band::cuda
