#pragma once
// The dense tile operations on the host's BLAS and LAPACK (OpenBLAS: dgemm/dsyrk/dtrsm, dpotrf
// and their single-precision twins), for the band Cholesky on the CPU. The project's own host
// kernels (kernels/cpu) are the portable reference; this back-end is what the CPU solver runs,
// so that it stands against OpenBLAS DPBTRF with kernels of the same quality.
#include "kernels/cpu/host_backend.hpp"
#include "kernels/typed_dense_backend.hpp"

namespace fem::band {

class BlasBackend final : public kernels::TypedDenseBackend<BlasBackend, kernels::cpu::HostBackend> {
 public:
  std::string name() const override { return "blas"; }
  std::string description() const override;

 protected:
  // LAPACK's POTRF and BLAS's TRSM are blocked already: one call per operation.
  kernels::index_t tile_size() const override { return kernels::index_t{1} << 40; }

 private:
  friend class kernels::TypedDenseBackend<BlasBackend, kernels::cpu::HostBackend>;
  template <class T>
  void gemm_any(kernels::Op op_a, kernels::Op op_b, T alpha, const kernels::DeviceMatrix<T>& a,
                const kernels::DeviceMatrix<T>& b, T beta, const kernels::DeviceMatrix<T>& c, kernels::Fill fill);
  template <class T>
  kernels::index_t potrf_any(const kernels::DeviceMatrix<T>& a);
  template <class T>
  void trsm_any(kernels::Side side, kernels::Op op_l, const kernels::DeviceMatrix<T>& l,
                const kernels::DeviceMatrix<T>& b);
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
