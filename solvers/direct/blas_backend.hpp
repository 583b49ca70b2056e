#pragma once
// The dense tile operations on the host's BLAS and LAPACK (OpenBLAS: dgemm/dsyrk/dtrsm, dpotrf
// and their single-precision twins), for the band Cholesky on the CPU. The project's own host
// kernels (kernels/cpu) are the portable reference; this back-end is what the CPU solver runs,
// so that it stands against OpenBLAS DPBTRF with kernels of the same quality.
#include "kernels/cpu/host_backend.hpp"

namespace fem::band {

class BlasBackend final : public kernels::cpu::HostBackend {
 public:
  std::string name() const override { return "blas"; }
  std::string description() const override;

 protected:
  void gemm_kernel(kernels::Op op_a, kernels::Op op_b, double alpha, const kernels::DeviceMatrix<double>& a,
                   const kernels::DeviceMatrix<double>& b, double beta, const kernels::DeviceMatrix<double>& c,
                   kernels::Fill fill) override;
  void gemm_kernel(kernels::Op op_a, kernels::Op op_b, float alpha, const kernels::DeviceMatrix<float>& a,
                   const kernels::DeviceMatrix<float>& b, float beta, const kernels::DeviceMatrix<float>& c,
                   kernels::Fill fill) override;
  kernels::index_t potrf_tile(const kernels::DeviceMatrix<double>& a) override;
  kernels::index_t potrf_tile(const kernels::DeviceMatrix<float>& a) override;
  void trsm_tile(kernels::Side side, kernels::Op op_l, const kernels::DeviceMatrix<double>& l,
                 const kernels::DeviceMatrix<double>& b) override;
  void trsm_tile(kernels::Side side, kernels::Op op_l, const kernels::DeviceMatrix<float>& l,
                 const kernels::DeviceMatrix<float>& b) override;
  // LAPACK's POTRF and BLAS's TRSM are blocked already: one call per operation.
  kernels::index_t tile_size() const override { return kernels::index_t{1} << 40; }
};

// While alive, each BLAS call runs on one thread (the previous count is restored after): for
// callers whose parallelism is their own, such as OpenMP tasks that each call BLAS.
class OneBlasThreadPerCall {
 public:
  OneBlasThreadPerCall();
  ~OneBlasThreadPerCall();
  OneBlasThreadPerCall(const OneBlasThreadPerCall&) = delete;
  OneBlasThreadPerCall& operator=(const OneBlasThreadPerCall&) = delete;

 private:
  int previous_;
};

}  // namespace fem::band
