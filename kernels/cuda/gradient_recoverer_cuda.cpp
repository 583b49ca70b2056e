// The CUDA gradient recoverer: uploads the mesh, the solution and each element type's cells, runs
// gradient_recovery.cu's kernel and downloads the nodes' sums and counts once.
#include <algorithm>
#include <stdexcept>

#include "kernels/cuda/cuda_backend.hpp"
#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/device_buffer.hpp"
#include "kernels/cuda/device_cell_batch.hpp"
#include "kernels/cuda/gradient_recovery_cuda.hpp"
#include "kernels/cuda/gradient_recovery_kernels.hpp"

namespace fem::kernels::cuda {
namespace {

// The device bytes a recovery holds at once: the mesh, the solution, the sums and counts, and the
// largest batch's arrays.
std::size_t bytes_needed(const GradientRecovery& in, std::size_t sums, std::size_t counts) {
  std::size_t largest_batch = 0;
  for (std::size_t i = 0; i < in.batches.size(); ++i) {
    const CellBatch& b = in.batches[i];
    const std::size_t doubles = b.weight.size() + b.N.size() + b.dN.size() + in.extrapolation[i].size();
    const std::size_t ints = b.node.size() + b.material.size();
    largest_batch = std::max(largest_batch, doubles * sizeof(double) + ints * sizeof(int) +
                                                b.cell.size() * sizeof(std::int64_t));
  }
  const std::size_t doubles =
      in.coords.size() + in.lambda.size() + in.mu.size() + in.k.size() + in.solution.size() + sums;
  return doubles * sizeof(double) + in.first_dof.size() * sizeof(std::int64_t) + counts * sizeof(int) + largest_batch;
}

class CudaGradientRecoverer final : public GradientRecoverer {
 public:
  bool recover(const GradientRecovery& in, std::span<double> sums, std::span<int> counts) override {
    if (in.elastic && in.space_dim != 3)
      throw std::invalid_argument("gradient recovery on cuda: elasticity in 3D only (the host recovers 2D models)");
    if (in.extrapolation.size() != in.batches.size())
      throw std::invalid_argument("gradient recovery on cuda: an extrapolation for each cell batch");
    std::size_t free = 0, total = 0;
    check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
    constexpr std::size_t kHeadroom = std::size_t{256} << 20;  // the allocator's granularity, the context's own
    if (bytes_needed(in, sums.size(), counts.size()) + kHeadroom > free) return false;
    const DeviceBuffer<double> coords(in.coords), lambda(in.lambda), mu(in.mu), k(in.k);
    const DeviceBuffer<std::int64_t> first_dof(in.first_dof);
    const DeviceBuffer<double> solution(in.solution);
    DeviceBuffer<double> device_sums(sums.size());
    DeviceBuffer<int> device_counts(counts.size());
    device_sums.zero();
    device_counts.zero();
    const RecoveryMeshView mesh{in.space_dim, in.elastic, coords.get(), first_dof.get(), lambda.get(),
                                mu.get(),     k.get(),    solution.get()};
    for (std::size_t i = 0; i < in.batches.size(); ++i) {
      const DeviceCellBatch batch(in.batches[i]);
      const DeviceBuffer<double> extrapolation(in.extrapolation[i]);
      add_cell_gradients(mesh, batch.view(), extrapolation.get(), device_sums.get(), device_counts.get());
      // The batch's arrays are freed when this iteration ends: its kernel must be done with them.
      check(cudaDeviceSynchronize(), "the gradient recovery kernel");
    }
    device_sums.download(sums.data());
    device_counts.download(counts.data());
    return true;
  }
};

}  // namespace

std::unique_ptr<GradientRecoverer> make_gradient_recoverer() {
  if (!unavailable_reason().empty()) return nullptr;
  return std::make_unique<CudaGradientRecoverer>();
}

}  // namespace fem::kernels::cuda
