#pragma once
// The rows under a factored diagonal block of at most block_column_width columns solved,
// B := B L⁻ᵀ (row-major, one leading dimension), a thread a row, and, optionally, the columns
// right of B taking the update of the solved rows that the next diagonal block needs: the panel
// step of the band factorisation's right_looking_solve (band_cholesky_cuda.hpp) after the block
// column kernel has factored the diagonal block (and solved the next one's rows). One thread
// block of 128 threads for every 128 rows, L in shared memory, each row in registers: a short
// kernel that asks few multiprocessors, beside the trailing update.
#include <cuda_runtime.h>

namespace fem::kernels::cuda {

// l: L(0, 0) of the width x width lower triangle (its upper part is not read); b: the first of
// the `rows` rows, `width` entries each; ld: both's leading dimension. The first `solved` rows
// (at most width and rows) already hold X = B L⁻ᵀ; the others are solved here. With solved > 0,
// the `solved` columns right of B's (C, from b + width) then take the update C := C - X X(0 :
// solved, :)ᵀ on every row, the first `solved` rows only on and below C's diagonal (C(0 : solved,
// :) is the next diagonal block). Asynchronous on `stream`.
template <class T>
void solve_under_diagonal(const T* l, T* b, long long rows, int width, long long ld, int solved, cudaStream_t stream);

}  // namespace fem::kernels::cuda
