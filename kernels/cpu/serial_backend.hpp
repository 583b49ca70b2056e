#pragma once
// The serial reference back-end: textbook loops on one thread, the truth for the tests.

#include "kernels/cpu/loop_backend.hpp"

namespace fem::kernels::cpu {

class SerialBackend final : public LoopBackend {
public:
  SerialBackend() : LoopBackend(Loops::serial_reference) {}
  std::string name() const override { return "serial"; }
  std::string description() const override { return "serial textbook loops (reference)"; }

protected:
  // One tile covers any matrix: POTRF and TRSM run unblocked, exactly as the textbook.
  index_t tile_size() const override { return index_t{1} << 40; }
};

}  // namespace fem::kernels::cpu
