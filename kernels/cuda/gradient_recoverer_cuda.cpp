// The CUDA gradient recoverer: uploads the mesh, the solution and each element type's cells, runs
// gradient_recovery.cu's kernel and downloads the nodes' sums and counts once.
#include <stdexcept>

#include "kernels/cuda/cuda_backend.hpp"
#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/device_buffer.hpp"
#include "kernels/cuda/gradient_recovery_cuda.hpp"
#include "kernels/cuda/gradient_recovery_kernels.hpp"

namespace fem::kernels::cuda {
namespace {

template <class T>
DeviceBuffer<T> upload(std::span<const T> host) {
  return DeviceBuffer<T>(host.data(), host.size());
}

class CudaGradientRecoverer final : public GradientRecoverer {
 public:
  void recover(const GradientRecovery& in, std::span<double> sums, std::span<int> counts) override {
    if (in.elastic && in.space_dim != 3)
      throw std::invalid_argument("gradient recovery on cuda: elasticity in 3D only (the host recovers 2D models)");
    if (in.extrapolation.size() != in.batches.size())
      throw std::invalid_argument("gradient recovery on cuda: an extrapolation for each cell batch");
    const auto coords = upload(in.coords);
    const auto first_dof = upload(in.first_dof);
    const auto lambda = upload(in.lambda), mu = upload(in.mu), k = upload(in.k);
    const auto solution = upload(in.solution);
    DeviceBuffer<double> device_sums(sums.size());
    DeviceBuffer<int> device_counts(counts.size());
    device_sums.zero();
    device_counts.zero();
    const RecoveryMeshView mesh{in.space_dim, in.elastic, coords.get(), first_dof.get(), lambda.get(),
                                mu.get(),     k.get(),    solution.get()};
    for (std::size_t i = 0; i < in.batches.size(); ++i) {
      const CellBatch& batch = in.batches[i];
      const auto weight = upload(batch.weight), N = upload(batch.N), dN = upload(batch.dN);
      const auto node = upload(batch.node);
      const auto cell = upload(batch.cell);
      const auto material = upload(batch.material);
      const auto extrapolation = upload(in.extrapolation[i]);
      const CellBatchView view{batch.nodes, batch.points, static_cast<std::int64_t>(batch.cell.size()), weight.get(),
                               N.get(),     dN.get(),     node.get(),   cell.get(), material.get()};
      add_cell_gradients(mesh, view, extrapolation.get(), device_sums.get(), device_counts.get());
      // The batch's arrays are freed when this iteration ends: its kernel must be done with them.
      check(cudaDeviceSynchronize(), "the gradient recovery kernel");
    }
    device_sums.download(sums.data());
    device_counts.download(counts.data());
  }
};

}  // namespace

std::unique_ptr<GradientRecoverer> make_gradient_recoverer() {
  if (!unavailable_reason().empty()) return nullptr;
  return std::make_unique<CudaGradientRecoverer>();
}

}  // namespace fem::kernels::cuda
