#pragma once
// The CUDA back-ends. They share memory handling and the tile solvers and differ in the GEMM:
// one thread per element (naive), shared-memory tiles (on FP64 tensor cores in double), or
// cuBLAS (the reference to measure against). Plain C++: no CUDA header needed to use them.

#include "kernels/dense_backend.hpp"

#include <memory>
#include <string>

namespace fem::kernels::cuda {

enum class GemmKernel { naive, tiled, cublas };

// Empty when a CUDA device can be used; otherwise why not.
std::string unavailable_reason();

// Throws BackendUnavailable when there is no usable device.
std::unique_ptr<DenseBackend> make_backend(GemmKernel kernel);

// Whether `dense` is one of these back-ends (its matrices in this device's memory).
bool is_cuda_backend(const DenseBackend& dense);

}  // namespace fem::kernels::cuda
