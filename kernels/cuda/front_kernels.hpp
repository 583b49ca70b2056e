#pragma once
// Launchers of the multifrontal kernels that DeviceFronts uses beside cuBLAS: the assembly, the
// Cholesky of a front's diagonal blocks and the substitution's indirect moves. Asynchronous on
// `stream`.
#include <cuda_runtime.h>

#include <cstdint>

namespace fem::kernels::cuda {

// target[position[i]] += value[i] for i < count.
template <class T>
void scatter_add(T* target, const std::int64_t* position, const T* value, std::int64_t count, cudaStream_t stream);

// The lower triangle of the child's rc x rc update matrix added into a front: child row x goes to
// front row relative[x]; columns y < into_panel into the panel (ld k), the others into the update
// matrix (ld r, row and column less k).
template <class T>
void extend_add(const T* child, int rc, const int* relative, int into_panel, T* panel, int k, T* update, int r,
                cudaStream_t stream);

// The largest diagonal block factor_diagonal_block takes (one thread block holds it in shared memory).
constexpr int kDiagonalBlock = 128;

// The Cholesky factor of a diagonal block and its inverse, by one thread block: a is the n x n
// block (n <= kDiagonalBlock) of a column-major matrix (lda), whose upper triangle A is replaced
// by U with UᵀU = A (the lower triangle is left alone); `inverse` gets U⁻¹ (n x n, ld n, zeros
// below the diagonal). A pivot that is not positive (or NaN) stops it and sets *info = first + p + 1
// (p its column in the block), unless *info is already set: LAPACK's info, counted from `first`.
template <class T>
void factor_diagonal_block(T* a, int n, int lda, T* inverse, int* info, int first, cudaStream_t stream);

// to[i] = from[position[i]] for i < count.
template <class T>
void gather(const T* from, const std::int64_t* position, std::int64_t count, T* to, cudaStream_t stream);

// The substitution's indirect moves: t[i] = x[rows[i]], and x[rows[i]] -= t[i], for i < n (rows distinct).
template <class T>
void gather_rows(const T* x, const int* rows, int n, T* t, cudaStream_t stream);
template <class T>
void scatter_subtract(T* x, const int* rows, const T* t, int n, cudaStream_t stream);

}  // namespace fem::kernels::cuda
