#include "kernels/cpu/cpu_factories.hpp"

#include "kernels/cpu/blas_backend.hpp"
#include "kernels/cpu/loop_backends.hpp"
#include "kernels/cpu/sparse_backend_cpu.hpp"

namespace fem::kernels::cpu {

BackendFactories factories() {
  return {[] { return std::string(); },
          [](const std::string& name) -> std::unique_ptr<DenseBackend> {
            if (name == "serial") return std::make_unique<SerialBackend>();
            if (name == "blas") return std::make_unique<BlasBackend>();
            return std::make_unique<OpenMPBackend>();
          },
          make_host_sparse_backend};
}

}  // namespace fem::kernels::cpu
