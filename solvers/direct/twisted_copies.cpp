#include "solvers/direct/twisted_copies.hpp"

#include <stdexcept>
#include <string>

#include "solvers/direct/direct_kernels.hpp"

namespace fem::band::twisted {

using kernels::DeviceMatrix;

namespace {

// The back-end's kernels for the moves; null for a host back-end, whose moves are the loops here.
// Throws where a device back-end has none (OpenCL).
const DirectKernels* device_kernels(const kernels::DenseBackend& backend) {
  if (backend.uses_host_memory()) return nullptr;
  if (const DirectKernels* kernels = direct_kernels_for(backend)) return kernels;
  throw std::invalid_argument("two-sided band Cholesky: no element moves on the '" + backend.name() + "' back-end");
}

}  // namespace

template <class T>
void triangle_to_dense(kernels::DenseBackend& backend, const DeviceMatrix<T>& triangle, bool reflected,
                       const DeviceMatrix<T>& dense) {
  const index_t size = triangle.rows;
  if (triangle.cols != size || dense.rows != size || dense.cols != size)
    throw std::invalid_argument("triangle_to_dense: the matrices are not square and of one size");
  if (const DirectKernels* device = device_kernels(backend)) {
    device->triangle_to_dense(triangle.data(), triangle.ld, size, reflected, dense.data(), dense.ld);
    return;
  }
  backend.synchronize();
  const T* from = triangle.data();
  T* to = dense.data();
  for (index_t i = 0; i < size; ++i)
    for (index_t j = 0; j < size; ++j) {
      T v = T(0);
      if (!reflected && j <= i) v = from[i * triangle.ld + j];
      if (reflected && j >= i) v = from[(size - 1 - i) * triangle.ld + (size - 1 - j)];
      to[i * dense.ld + j] = v;
    }
}

namespace {

// copy_lower and unit_lower: from == nullptr writes the identity's triangle.
template <class T>
void write_lower(kernels::DenseBackend& backend, const DeviceMatrix<T>* from, const DeviceMatrix<T>& to) {
  const index_t size = to.rows;
  if (to.cols != size || (from && (from->rows != size || from->cols != size)))
    throw std::invalid_argument("copy_lower: the matrices are not square and of one size");
  const T* source = from ? from->data() : nullptr;
  const index_t from_ld = from ? from->ld : 0;
  if (const DirectKernels* device = device_kernels(backend)) {
    device->copy_lower(source, from_ld, size, to.data(), to.ld);
    return;
  }
  backend.synchronize();
  T* target = to.data();
  for (index_t i = 0; i < size; ++i)
    for (index_t j = 0; j <= i; ++j) target[i * to.ld + j] = source ? source[i * from_ld + j] : T(i == j ? 1 : 0);
}

}  // namespace

template <class T>
void copy_lower(kernels::DenseBackend& backend, const DeviceMatrix<T>& from, const DeviceMatrix<T>& to) {
  write_lower(backend, &from, to);
}

template <class T>
void unit_lower(kernels::DenseBackend& backend, const DeviceMatrix<T>& to) {
  write_lower<T>(backend, nullptr, to);
}

template <class T>
void reverse_rows(kernels::DenseBackend& backend, const DeviceMatrix<T>& from, bool add, const DeviceMatrix<T>& to) {
  if (from.rows != to.rows || from.cols != to.cols)
    throw std::invalid_argument("reverse_rows: the matrices differ in shape");
  if (const DirectKernels* device = device_kernels(backend)) {
    device->reverse_rows(from.data(), from.ld, from.rows, from.cols, add, to.data(), to.ld);
    return;
  }
  backend.synchronize();
  const T* source = from.data();
  T* target = to.data();
  for (index_t i = 0; i < to.rows; ++i)
    for (index_t c = 0; c < to.cols; ++c) {
      const T v = source[(from.rows - 1 - i) * from.ld + c];
      target[i * to.ld + c] = add ? target[i * to.ld + c] + v : v;
    }
}

#define FEM_TWISTED_COPIES(T)                                                                                   \
  template void triangle_to_dense<T>(kernels::DenseBackend&, const DeviceMatrix<T>&, bool, const DeviceMatrix<T>&); \
  template void copy_lower<T>(kernels::DenseBackend&, const DeviceMatrix<T>&, const DeviceMatrix<T>&);          \
  template void unit_lower<T>(kernels::DenseBackend&, const DeviceMatrix<T>&);                                  \
  template void reverse_rows<T>(kernels::DenseBackend&, const DeviceMatrix<T>&, bool, const DeviceMatrix<T>&);
FEM_TWISTED_COPIES(double)
FEM_TWISTED_COPIES(float)
#undef FEM_TWISTED_COPIES

}  // namespace fem::band::twisted
