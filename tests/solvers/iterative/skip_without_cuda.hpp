#pragma once
// The CUDA tests' guard: true (with the reason as a test message) where no CUDA device can be
// used, as on CI, so each test case returns before touching the device.
#include <doctest/doctest.h>

#include <string>

#include "kernels/cuda/cuda_backend.hpp"

namespace fem::test {

inline bool skip_without_cuda() {
  const std::string why = kernels::cuda::unavailable_reason();
  if (!why.empty()) MESSAGE("skipped: " << why);
  return !why.empty();
}

}  // namespace fem::test
