#pragma once
// The element moves of the two-sided (twisted) band Cholesky on the device
// (solvers/direct/twisted_band_cholesky.hpp): the separator's triangles to and from dense blocks
// and the right-hand side's rows reversed. All queue on the default stream (as the cuBLAS
// back-end's calls do) and return at once.
//
// Plain C++ (the kernels: twisted_copy_kernels.cu).
#include "kernels/device_matrix.hpp"

namespace fem::kernels::cuda {

// dense (size x size, leading dimension dense_ld) := the lower triangle of `triangle` (leading
// dimension triangle_ld; its strict upper part not read), zero above the diagonal; reflected:
// dense(i, j) = triangle(size - 1 - i, size - 1 - j) on and above the diagonal (J L J, upper
// triangular), zero below.
template <class T>
void triangle_to_dense(const T* triangle, index_t triangle_ld, index_t size, bool reflected, T* dense,
                       index_t dense_ld);

// The lower triangle (diagonal included) of `to` := that of `from`, or the identity's where `from`
// is null; nothing above the diagonal is read or written.
template <class T>
void copy_lower(const T* from, index_t from_ld, index_t size, T* to, index_t to_ld);

// Row i of `to` := (or += where `add`) row rows - 1 - i of `from`, `cols` entries each.
template <class T>
void reverse_rows(const T* from, index_t from_ld, index_t rows, index_t cols, bool add, T* to, index_t to_ld);

}  // namespace fem::kernels::cuda
