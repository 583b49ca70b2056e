#pragma once
// The OpenMP back-end: packed cache-blocked GEMM on all threads; POTRF and TRSM blocked over
// tiles so that their bulk is that GEMM.

#include "kernels/cpu/loop_backend.hpp"

namespace fem::kernels::cpu {

class OpenMPBackend final : public LoopBackend {
public:
  OpenMPBackend() : LoopBackend(Loops::openmp) {}
  std::string name() const override { return "openmp"; }
  std::string description() const override;

protected:
  index_t tile_size() const override { return 96; }
};

}  // namespace fem::kernels::cpu
