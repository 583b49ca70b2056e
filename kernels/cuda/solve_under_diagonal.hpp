#pragma once
// The rows under a factored diagonal block of at most block_column_width columns solved,
// B := B L⁻ᵀ (row-major, one leading dimension), a thread a row: the panel's TRSM of the
// band factorisation's right_looking_solve (band_cholesky_cuda.hpp). One thread block of 128
// threads for every 128 rows, the block held in shared memory, each row in registers: a
// short kernel that asks few multiprocessors, beside the trailing update.
#include <cuda_runtime.h>

namespace fem::kernels::cuda {

// l: L(0, 0) of the width x width lower triangle (its upper part is not read); b: the first of
// the `rows` rows, `width` entries each; ld: both's leading dimension. Asynchronous on `stream`.
template <class T>
void solve_under_diagonal(const T* l, T* b, long long rows, int width, long long ld, cudaStream_t stream);

}  // namespace fem::kernels::cuda
