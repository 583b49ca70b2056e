#pragma once
// The dense tile operations on the host's BLAS and LAPACK (OpenBLAS: dgemm/dsyrk/dtrsm, dpotrf
// and their single-precision twins): the dense back-end "blas" the direct solvers run on the
// CPU, so that they stand against OpenBLAS DPBTRF with kernels of the same quality. The loop
// back-ends (loop_backends.hpp) are the portable reference.
#include "kernels/cpu/host_backend.hpp"
#include "kernels/typed_dense_backend.hpp"

namespace fem::kernels::cpu {

class BlasBackend final : public TypedDenseBackend<BlasBackend, HostBackend> {
 public:
  std::string name() const override { return "blas"; }
  std::string description() const override;

 protected:
  // LAPACK's POTRF and BLAS's TRSM are blocked already: one call per operation.
  index_t tile_size() const override { return index_t{1} << 40; }

 private:
  friend class TypedDenseBackend<BlasBackend, HostBackend>;
  template <class T>
  void gemm_any(Op op_a, Op op_b, T alpha, const DeviceMatrix<T>& a,
                const DeviceMatrix<T>& b, T beta, const DeviceMatrix<T>& c, Fill fill);
  template <class T>
  index_t potrf_any(const DeviceMatrix<T>& a);
  template <class T>
  void trsm_any(Side side, Op op_l, const DeviceMatrix<T>& l,
                const DeviceMatrix<T>& b);
};

}  // namespace fem::kernels::cpu
