#pragma once
// DenseBackend's primitives come in double and float. A back-end that writes each of them once,
// as a template over the element type, derives from TypedDenseBackend<Itself, Base> and defines
// gemm_any, potrf_any and trsm_any (reachable from here through a friend declaration).
#include "kernels/dense_backend.hpp"

namespace fem::kernels {

template <class Derived, class Base = DenseBackend>
class TypedDenseBackend : public Base {
protected:
  void gemm_kernel(Op op_a, Op op_b, double alpha, const DeviceMatrix<double>& a, const DeviceMatrix<double>& b,
                   double beta, const DeviceMatrix<double>& c, Fill fill) override {
    self().gemm_any(op_a, op_b, alpha, a, b, beta, c, fill);
  }
  void gemm_kernel(Op op_a, Op op_b, float alpha, const DeviceMatrix<float>& a, const DeviceMatrix<float>& b,
                   float beta, const DeviceMatrix<float>& c, Fill fill) override {
    self().gemm_any(op_a, op_b, alpha, a, b, beta, c, fill);
  }
  index_t potrf_tile(const DeviceMatrix<double>& a) override { return self().potrf_any(a); }
  index_t potrf_tile(const DeviceMatrix<float>& a) override { return self().potrf_any(a); }
  void trsm_tile(Side side, Op op_l, const DeviceMatrix<double>& l, const DeviceMatrix<double>& b) override {
    self().trsm_any(side, op_l, l, b);
  }
  void trsm_tile(Side side, Op op_l, const DeviceMatrix<float>& l, const DeviceMatrix<float>& b) override {
    self().trsm_any(side, op_l, l, b);
  }

private:
  Derived& self() { return static_cast<Derived&>(*this); }
};

}  // namespace fem::kernels
