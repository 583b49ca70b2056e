#pragma once
// The serial reference back-end: textbook loops on one thread, the truth for the tests.

#include "kernels/cpu/host_backend.hpp"

namespace fem::kernels::cpu {

class SerialBackend final : public HostBackend {
public:
  std::string name() const override { return "serial"; }
  std::string description() const override { return "serial textbook loops (reference)"; }

protected:
  void gemm_kernel(Op op_a, Op op_b, double alpha, const DeviceMatrix<double>& a,
                   const DeviceMatrix<double>& b, double beta, const DeviceMatrix<double>& c,
                   Fill fill) override;
  void gemm_kernel(Op op_a, Op op_b, float alpha, const DeviceMatrix<float>& a,
                   const DeviceMatrix<float>& b, float beta, const DeviceMatrix<float>& c,
                   Fill fill) override;
  index_t potrf_tile(const DeviceMatrix<double>& a) override;
  index_t potrf_tile(const DeviceMatrix<float>& a) override;
  void trsm_tile(Side side, Op op_l, const DeviceMatrix<double>& l,
                 const DeviceMatrix<double>& b) override;
  void trsm_tile(Side side, Op op_l, const DeviceMatrix<float>& l,
                 const DeviceMatrix<float>& b) override;
  // One tile covers any matrix: POTRF and TRSM run unblocked, exactly as the textbook.
  index_t tile_size() const override { return index_t{1} << 40; }
};

}  // namespace fem::kernels::cpu
