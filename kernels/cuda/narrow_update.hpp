#pragma once
// The update of at most block_column_width columns of the band by the columns just factored
// left of them, C := C - X X(0 : width, :)ᵀ, in one launch on the FP64 tensor cores: in the
// right-looking panel (band_cholesky_cuda.cpp) the next kernel's columns take each kernel's
// update on the panel's critical path, where cuBLAS took a SYRK and a GEMM (12.5 us for 4000
// rows by 64 columns at b = 4000, bench/RESULTS.md).
#include <cuda_runtime.h>

namespace fem::kernels::cuda {

// x: X(0, 0), `rows` rows of k entries; c: C(0, 0), `rows` rows of `width` (1 to 64) entries, C's
// first `width` rows being the diagonal block that X's first `width` rows factor. Both row-major
// with leading dimension ld. C(i, j) -= sum over l of X(i, l) X(j, l) for j <= i; nothing else
// is written. Asynchronous on `stream`.
void narrow_update(const double* x, double* c, long long rows, int width, int k, long long ld, cudaStream_t stream);

}  // namespace fem::kernels::cuda
