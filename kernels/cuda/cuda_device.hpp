#pragma once
// Questions about the CUDA device and runtime (kernels/device_queries.hpp asks them). Plain C++.
#include <cstddef>
#include <string>

namespace fem::kernels::cuda {

// Bytes free on the current device; 0 without one.
std::size_t free_memory();

// The CUDA runtime's version, as "12.4".
std::string runtime_version();

}  // namespace fem::kernels::cuda
