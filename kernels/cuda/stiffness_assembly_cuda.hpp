#pragma once
// What the cuda folder offers kernels/stiffness_assembler.cpp. Plain C++.
#include <memory>

#include "kernels/stiffness_assembler.hpp"

namespace fem::kernels::cuda {

// Null when no CUDA device answers.
std::unique_ptr<StiffnessAssembler> make_stiffness_assembler();

}  // namespace fem::kernels::cuda
