#include "kernels/opencl/opencl_factories.hpp"

#include "kernels/opencl/opencl_backend.hpp"
#include "kernels/opencl/sparse_backend_opencl.hpp"

namespace fem::kernels::opencl {

BackendFactories factories() {
  return {unavailable_reason,
          [](const std::string& name) {
            return make_backend(name == "opencl-naive" ? GemmKernel::naive : GemmKernel::tiled);
          },
          make_opencl_sparse_backend};
}

}  // namespace fem::kernels::opencl
