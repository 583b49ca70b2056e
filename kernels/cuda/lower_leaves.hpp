#pragma once
// The diagonal leaves of the trailing update when a GEMM computes them whole (lower_pieces.hpp,
// leaves_by_gemm): each leaf's square X_i X_iᵀ sits in scratch memory, and only its lower
// triangle may reach C (above C's diagonal lie the band's other rows).
#include <cuda_runtime.h>

namespace fem::kernels::cuda {

// For i < count: C's leaf i (rows and columns i * leaf to i * leaf + its size: leaf, the last one
// last_rows) -= the lower triangle of squares + i * leaf², a leaf x leaf matrix (symmetric; its
// first last_rows rows and columns for the last). c: C(0, 0), row-major with leading dimension ld.
// Asynchronous on `stream`.
template <class T>
void subtract_lower_leaves(const T* squares, T* c, long long ld, int leaf, int count, int last_rows, cudaStream_t stream);

}  // namespace fem::kernels::cuda
