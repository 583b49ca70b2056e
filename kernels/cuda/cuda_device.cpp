#include "kernels/cuda/cuda_device.hpp"

#include <cuda_runtime.h>

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/stream_event.hpp"

namespace fem::kernels::cuda {

void synchronize() { check(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); }

std::size_t free_memory() {
  std::size_t free = 0, total = 0;
  return cudaMemGetInfo(&free, &total) == cudaSuccess ? free : 0;
}

bool start_context() { return cudaFree(nullptr) == cudaSuccess; }

std::string runtime_version() {
  int runtime = 0;
  cudaRuntimeGetVersion(&runtime);
  return std::to_string(runtime / 1000) + "." + std::to_string(runtime % 1000 / 10);
}

double seconds_per_call(const std::function<void()>& work, int repeats) {
  Event start(Event::Timing::on), stop(Event::Timing::on);
  work();
  start.record(nullptr);
  for (int i = 0; i < repeats; ++i) work();
  stop.record(nullptr);
  return stop.seconds_since(start) / repeats;
}

}  // namespace fem::kernels::cuda
