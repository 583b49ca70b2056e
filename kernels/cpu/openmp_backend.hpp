#pragma once
// The OpenMP back-end: packed cache-blocked GEMM on all threads; POTRF and TRSM blocked over
// tiles so that their bulk is that GEMM.

#include "kernels/cpu/host_backend.hpp"

namespace fem::kernels::cpu {

class OpenMPBackend final : public HostBackend {
public:
  std::string name() const override { return "openmp"; }
  std::string description() const override;

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
  index_t tile_size() const override { return 96; }
};

}  // namespace fem::kernels::cpu
