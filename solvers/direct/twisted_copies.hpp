#pragma once
// The element moves of the two-sided band Cholesky (twisted_band_cholesky.hpp) on a dense
// back-end: loops on the host back-ends, the back-end's band kernels (direct_kernels.hpp) on a
// device. Matrices are the back-end's (DeviceMatrix, or a band's rows).
#include "kernels/dense_backend.hpp"
#include "solvers/direct/band_cholesky.hpp"

namespace fem::band::twisted {

// `dense` (square) := the lower triangle of `triangle`, zero above; reflected: J L J (upper).
template <class T>
void triangle_to_dense(kernels::DenseBackend& backend, const kernels::DeviceMatrix<T>& triangle, bool reflected,
                       const kernels::DeviceMatrix<T>& dense);

// The lower triangle of `to` := that of `from`; nothing above the diagonal read or written.
template <class T>
void copy_lower(kernels::DenseBackend& backend, const kernels::DeviceMatrix<T>& from,
                const kernels::DeviceMatrix<T>& to);

// The lower triangle of `to` := the identity's.
template <class T>
void unit_lower(kernels::DenseBackend& backend, const kernels::DeviceMatrix<T>& to);

// Row i of `to` := (or += where `add`) row rows - 1 - i of `from` (the same shape).
template <class T>
void reverse_rows(kernels::DenseBackend& backend, const kernels::DeviceMatrix<T>& from, bool add,
                  const kernels::DeviceMatrix<T>& to);

}  // namespace fem::band::twisted
