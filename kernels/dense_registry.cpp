#include "kernels/dense_registry.hpp"

#include "kernels/cpu/openmp_backend.hpp"
#include "kernels/cpu/serial_backend.hpp"
#if FEM_KERNELS_WITH_CUDA
#include "kernels/cuda/cuda_backend.hpp"
#endif
#if FEM_KERNELS_WITH_OPENCL
#include "kernels/opencl/opencl_backend.hpp"
#endif

#include <algorithm>

namespace fem::kernels {

namespace {

bool is_cuda(const std::string& name) {
  return name == "cuda" || name == "cuda-naive" || name == "cublas";
}
bool is_opencl(const std::string& name) { return name == "opencl" || name == "opencl-naive"; }

void check_known(const std::string& name) {
  const auto names = dense_backend_names();
  if (std::find(names.begin(), names.end(), name) != names.end()) return;
  std::string known;
  for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
  throw std::invalid_argument("unknown dense back-end '" + name + "' (known: " + known + ")");
}

}  // namespace

std::vector<std::string> dense_backend_names() {
  return {"serial", "openmp", "cuda", "cuda-naive", "cublas", "opencl", "opencl-naive"};
}

BackendStatus dense_backend_status(const std::string& name) {
  check_known(name);
  if (is_cuda(name)) {
#if FEM_KERNELS_WITH_CUDA
    const std::string reason = cuda::unavailable_reason();
    return {name, reason.empty(), reason};
#else
    return {name, false, "this build has no CUDA back-end (configure with FEM_WITH_CUDA=ON)"};
#endif
  }
  if (is_opencl(name)) {
#if FEM_KERNELS_WITH_OPENCL
    const std::string reason = opencl::unavailable_reason();
    return {name, reason.empty(), reason};
#else
    return {name, false, "this build has no OpenCL back-end (configure with FEM_WITH_OPENCL=ON)"};
#endif
  }
  return {name, true, {}};
}

std::unique_ptr<DenseBackend> make_dense_backend(const std::string& name) {
  const BackendStatus status = dense_backend_status(name);
  if (!status.available)
    throw BackendUnavailable("dense back-end '" + name + "' is not available: " + status.reason);
  if (name == "serial") return std::make_unique<cpu::SerialBackend>();
  if (name == "openmp") return std::make_unique<cpu::OpenMPBackend>();
#if FEM_KERNELS_WITH_CUDA
  if (name == "cuda") return cuda::make_backend(cuda::GemmKernel::tiled);
  if (name == "cuda-naive") return cuda::make_backend(cuda::GemmKernel::naive);
  if (name == "cublas") return cuda::make_backend(cuda::GemmKernel::cublas);
#endif
#if FEM_KERNELS_WITH_OPENCL
  if (name == "opencl") return opencl::make_backend(opencl::GemmKernel::tiled);
  if (name == "opencl-naive") return opencl::make_backend(opencl::GemmKernel::naive);
#endif
  throw BackendUnavailable("dense back-end '" + name + "' is not built into this binary");
}

}  // namespace fem::kernels
