// The compute back-ends, one row each. Adding a back-end: its folder (with its
// <folder>_factories.hpp), one fem_add_compute_backend call in kernels/CMakeLists.txt, and a row
// here. A row asks its folder for factories only when the build has the back-end: a call in a
// discarded `if constexpr` branch is left out of the binary, so other folders need not be built.
#include "kernels/compute_backend.hpp"

#include <algorithm>

#include "fem/config.hpp"
#include "kernels/cpu/cpu_factories.hpp"
#include "kernels/cuda/cuda_factories.hpp"
#include "kernels/opencl/opencl_factories.hpp"

namespace fem::kernels {

const std::vector<ComputeBackend>& compute_backends() {
  static const std::vector<ComputeBackend> table = {
      {"cpu", {"serial", "openmp", "blas"}, "", true, cpu::factories()},
      {"cuda", {"cuda", "cuda-naive", "cublas"}, "FEM_WITH_CUDA", FEM_WITH_CUDA,
       []() -> BackendFactories { if constexpr (FEM_WITH_CUDA) return cuda::factories(); else return {}; }()},
      {"opencl", {"opencl", "opencl-naive"}, "FEM_WITH_OPENCL", FEM_WITH_OPENCL,
       []() -> BackendFactories { if constexpr (FEM_WITH_OPENCL) return opencl::factories(); else return {}; }()},
  };
  return table;
}

const ComputeBackend* find_compute_backend(const std::string& device) {
  const auto& all = compute_backends();
  const auto it = std::find_if(all.begin(), all.end(), [&](const ComputeBackend& b) { return b.device == device; });
  return it == all.end() ? nullptr : &*it;
}

const ComputeBackend* find_dense_owner(const std::string& dense_name) {
  for (const ComputeBackend& b : compute_backends())
    if (std::find(b.dense_names.begin(), b.dense_names.end(), dense_name) != b.dense_names.end()) return &b;
  return nullptr;
}

std::string unavailable_reason(const ComputeBackend& backend) {
  if (!backend.built)
    return "this build has no " + backend.device + " back-end (configure with " + backend.build_option + "=ON)";
  return backend.factories.unavailable_reason();
}

}  // namespace fem::kernels
