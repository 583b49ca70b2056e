#include "bench/dense/device_timer.hpp"
#include "support/stopwatch.hpp"

#include <stdexcept>
#include <string>
#if FEM_BENCH_WITH_CUDA
#include <cuda_runtime.h>
#endif

namespace fem::bench {

namespace {

bool is_cuda(const std::string& name) {
  return name == "cuda" || name == "cuda-naive" || name == "cublas";
}

}  // namespace

double time_on(fem::kernels::DenseBackend& backend, const std::function<void()>& work) {
#if FEM_BENCH_WITH_CUDA
  if (is_cuda(backend.name())) {
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaEventRecord(start);
    work();
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    return ms * 1e-3;
  }
#else
  (void)is_cuda;
#endif
  backend.synchronize();
  const Stopwatch watch;
  work();
  backend.synchronize();
  return watch.seconds();
}

}  // namespace fem::bench
