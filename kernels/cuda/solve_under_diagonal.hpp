#pragma once
// The rows under a factored diagonal block of at most block_column_width columns solved,
// B := B L⁻ᵀ (row-major, one leading dimension), and the columns right of B taking the update
// of the solved rows that the next diagonal block needs: the panel step of the band
// factorisation's right_looking_solve (band_cholesky_cuda.hpp), after the block column kernel has
// factored the diagonal block and solved the next one's rows. A thread block of 8 warps a 64-row
// slab: the solve column panel by column panel of 8 (each panel's update by the ones before on the
// FP64 tensor cores, its 8 x 8 triangle by substitution, a thread a row), then the update. The
// block column kernel does the same work in every one of its thread blocks, each factoring the
// diagonal block again, so that over a wide band it holds every multiprocessor; this one asks
// few, beside the trailing update.
#include <cuda_runtime.h>

namespace fem::kernels::cuda {

// l: L(0, 0) of the width x width lower triangle (its upper part is not read); b: the first of
// the `rows` rows, `width` entries each; ld: both's leading dimension. The first `solved` rows
// (at most width and rows) already hold X = B L⁻ᵀ; the others are solved here. With solved > 0,
// the `solved` columns right of B's (C, from b + width) then take the update C := C - X X(0 :
// solved, :)ᵀ on every row, the first `solved` rows only on and below C's diagonal (C(0 : solved,
// :) is the next diagonal block). Asynchronous on `stream`.
void solve_under_diagonal(const double* l, double* b, long long rows, int width, long long ld, int solved,
                          cudaStream_t stream);

}  // namespace fem::kernels::cuda
