#pragma once
// What the cuda folder offers kernels/gradient_recovery.cpp. Plain C++.
#include <memory>

#include "kernels/gradient_recovery.hpp"

namespace fem::kernels::cuda {

// Null when no CUDA device answers.
std::unique_ptr<GradientRecoverer> make_gradient_recoverer();

}  // namespace fem::kernels::cuda
