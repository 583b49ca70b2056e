// make_sparse_backend: the one place that knows which sparse back-ends this build has.
#include <stdexcept>

#include "kernels/cpu/sparse_backend_cpu.hpp"
#include "kernels/device_matrix.hpp"
#include "kernels/sparse_backend.hpp"
#if FEM_KERNELS_WITH_CUDA
#include "kernels/cuda/sparse_backend_cuda.hpp"
#endif
#if FEM_KERNELS_WITH_OPENCL
#include "kernels/opencl/sparse_backend_opencl.hpp"
#endif

namespace fem::kernels {

const std::vector<std::string>& sparse_backend_names() {
  static const std::vector<std::string> names = {"cpu", "cuda", "opencl"};
  return names;
}

std::unique_ptr<SparseBackend> make_sparse_backend(const std::string& device) {
  if (device == "cpu") return cpu::make_host_sparse_backend();
  if (device == "cuda") {
#if FEM_KERNELS_WITH_CUDA
    return cuda::make_cuda_sparse_backend();
#else
    throw BackendUnavailable("this build has no CUDA support (configure with FEM_WITH_CUDA=ON)");
#endif
  }
  if (device == "opencl") {
#if FEM_KERNELS_WITH_OPENCL
    return opencl::make_opencl_sparse_backend();
#else
    throw BackendUnavailable("this build has no OpenCL support (configure with FEM_WITH_OPENCL=ON)");
#endif
  }
  throw std::invalid_argument("unknown sparse back-end '" + device + "' (known: cpu, cuda, opencl)");
}

}  // namespace fem::kernels
