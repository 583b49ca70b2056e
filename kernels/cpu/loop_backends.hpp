#pragma once
// The host back-ends whose tiles are the project's own loops: the serial reference (textbook
// loops on one thread, the truth for the tests) and OpenMP (the packed cache-blocked GEMM on all
// threads, tile solves sharing their right-hand sides among threads; POTRF and TRSM blocked over
// tiles so that their bulk is that GEMM). They differ in nothing else.

#include "kernels/cpu/host_backend.hpp"
#include "kernels/cpu/packed_gemm.hpp"
#include "kernels/cpu/reference_dense.hpp"
#include "kernels/typed_dense_backend.hpp"

namespace fem::kernels::cpu {

class LoopBackend : public TypedDenseBackend<LoopBackend, HostBackend> {
protected:
  enum class Loops { serial_reference, openmp };
  explicit LoopBackend(Loops loops) : loops_(loops) {}

private:
  friend class TypedDenseBackend<LoopBackend, HostBackend>;

  template <class T>
  void gemm_any(Op op_a, Op op_b, T alpha, const DeviceMatrix<T>& a, const DeviceMatrix<T>& b, T beta,
                const DeviceMatrix<T>& c, Fill fill) {
    if (loops_ == Loops::openmp)
      packed_gemm(alpha, const_host_view(a, op_a), const_host_view(b, op_b), beta, host_view(c), fill);
    else
      reference_gemm(alpha, const_host_view(a, op_a), const_host_view(b, op_b), beta, host_view(c), fill);
  }

  // A diagonal tile is small: its Cholesky is not worth threads.
  template <class T>
  index_t potrf_any(const DeviceMatrix<T>& a) {
    return reference_potrf(host_view(a));
  }

  // The right-hand sides of a tile solve are independent: with OpenMP one thread takes a share.
  template <class T>
  void trsm_any(Side side, Op op_l, const DeviceMatrix<T>& l, const DeviceMatrix<T>& b) {
    reference_trsm(side, op_l, const_host_view(l), host_view(b), loops_ == Loops::openmp);
  }

  Loops loops_;
};

class SerialBackend final : public LoopBackend {
public:
  SerialBackend() : LoopBackend(Loops::serial_reference) {}
  std::string name() const override { return "serial"; }
  std::string description() const override { return "serial textbook loops (reference)"; }

protected:
  // One tile covers any matrix: POTRF and TRSM run unblocked, exactly as the textbook.
  index_t tile_size() const override { return index_t{1} << 40; }
};

class OpenMPBackend final : public LoopBackend {
public:
  OpenMPBackend() : LoopBackend(Loops::openmp) {}
  std::string name() const override { return "openmp"; }
  std::string description() const override;

protected:
  index_t tile_size() const override { return 96; }
};

}  // namespace fem::kernels::cpu
