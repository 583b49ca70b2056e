#include "kernels/cuda/cuda_factories.hpp"

#include "kernels/cuda/cuda_backend.hpp"
#include "kernels/cuda/sparse_backend_cuda.hpp"

namespace fem::kernels::cuda {

BackendFactories factories() {
  return {unavailable_reason,
          [](const std::string& name) {
            if (name == "cuda-naive") return make_backend(GemmKernel::naive);
            if (name == "cublas") return make_backend(GemmKernel::cublas);
            return make_backend(GemmKernel::tiled);
          },
          make_cuda_sparse_backend};
}

}  // namespace fem::kernels::cuda
