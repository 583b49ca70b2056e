#pragma once
// A cuBLAS handle, destroyed with its owner, issuing its calls on one stream.
#include <cublas_v2.h>

#include "kernels/cuda/cuda_check.hpp"

namespace fem::kernels::cuda {

class BlasHandle {
 public:
  explicit BlasHandle(cudaStream_t stream = nullptr) {
    check(cublasCreate(&h_), "cublasCreate");
    check(cublasSetStream(h_, stream), "cublasSetStream");
  }
  ~BlasHandle() { cublasDestroy(h_); }
  BlasHandle(const BlasHandle&) = delete;
  BlasHandle& operator=(const BlasHandle&) = delete;
  operator cublasHandle_t() const { return h_; }

 private:
  cublasHandle_t h_ = nullptr;
};

}  // namespace fem::kernels::cuda
