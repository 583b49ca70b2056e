#pragma once
// The OpenCL back-ends: kernels compiled at run time from the embedded .cl sources, with the
// tile size as a definition. They run on any platform: PoCL on the CPU, the NVIDIA ICD on a GPU.
// Plain C++: no OpenCL header needed to use them.

#include "kernels/dense_backend.hpp"

#include <memory>
#include <string>

namespace fem::kernels::opencl {

enum class GemmKernel { naive, tiled };

// Empty when an OpenCL device can be used; otherwise why not.
std::string unavailable_reason();

// The first GPU of any platform, else the first device of any kind. Throws BackendUnavailable
// when there is none. `tile` is the work-group side of the tiled GEMM.
std::unique_ptr<DenseBackend> make_backend(GemmKernel kernel, int tile = 16);

}  // namespace fem::kernels::opencl
