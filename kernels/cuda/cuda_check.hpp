#pragma once
// Turns a failed CUDA or cuBLAS call into an exception that names the call.

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace fem::kernels::cuda {

inline void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess)
    throw std::runtime_error(std::string("CUDA: ") + what + " failed: " + cudaGetErrorString(status));
}

inline void check(cublasStatus_t status, const char* what) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error(std::string("cuBLAS: ") + what + " failed: " +
                             cublasGetStatusString(status));
}

}  // namespace fem::kernels::cuda
