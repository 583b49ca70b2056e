#pragma once
// A host matrix seen through a row stride and a column stride, so that op(X) = Xᵀ is just the
// same view with its strides swapped.

#include "kernels/device_matrix.hpp"

namespace fem::kernels::cpu {

template <class T>
struct StridedView {
  T* data;
  index_t rows;
  index_t cols;
  index_t row_stride;
  index_t col_stride;

  T& operator()(index_t i, index_t j) const { return data[i * row_stride + j * col_stride]; }
  StridedView transposed() const { return {data, cols, rows, col_stride, row_stride}; }
  StridedView with_op(Op op) const { return op == Op::none ? *this : transposed(); }
};

// The host array behind a DeviceMatrix of a host back-end.
template <class T>
StridedView<T> host_view(const DeviceMatrix<T>& m) {
  return {m.data(), m.rows, m.cols, m.ld, 1};
}

// op(M) of a DeviceMatrix of a host back-end, read-only.
template <class T>
StridedView<const T> const_host_view(const DeviceMatrix<T>& m, Op op = Op::none) {
  const auto v = host_view(m).with_op(op);
  return {v.data, v.rows, v.cols, v.row_stride, v.col_stride};
}

}  // namespace fem::kernels::cpu
