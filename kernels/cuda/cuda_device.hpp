#pragma once
// Questions about the CUDA device and runtime (kernels/device_queries.hpp asks some), and the
// event timing of the benchmarks and the SpMV tuner. Plain C++.
#include <cstddef>
#include <functional>
#include <string>

namespace fem::kernels::cuda {

// Waits for everything queued on the device; throws naming the first failure.
void synchronize();

// Bytes free on the current device; 0 without one.
std::size_t free_memory();

// Makes the runtime create the current device's context now (a no-op call); false without a device.
bool start_context();

// The CUDA runtime's version, as "12.4".
std::string runtime_version();

// Seconds per call of `work` on the default stream: one warm-up call, then CUDA events around
// `repeats` calls back to back.
double seconds_per_call(const std::function<void()>& work, int repeats);

}  // namespace fem::kernels::cuda
