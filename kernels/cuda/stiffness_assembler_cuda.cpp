// The CUDA stiffness assembler: uploads the pattern, the mesh and each element type's cells,
// runs stiffness_assembly.cu's kernels, downloads the values and the right-hand side once
// (through the pinned staging buffers of DeviceBuffer's copies).
#include <climits>

#include "kernels/cuda/cuda_backend.hpp"
#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/device_buffer.hpp"
#include "kernels/cuda/device_cell_batch.hpp"
#include "kernels/cuda/stiffness_assembly_cuda.hpp"
#include "kernels/cuda/stiffness_assembly_kernels.hpp"
#include "support/step_times.hpp"

namespace fem::kernels::cuda {
namespace {

class CudaStiffnessAssembler final : public StiffnessAssembler {
 public:
  std::int64_t assemble(const StiffnessAssembly& in, std::span<double> values, std::span<double> rhs) override {
    Stopwatch watch;
    const DeviceBuffer<double> coords(in.coords), lambda(in.lambda), mu(in.mu), k(in.k);
    const DeviceBuffer<std::int64_t> first_dof(in.first_dof);
    const DeviceBuffer<std::int64_t> row_ptr(in.row_ptr);
    const DeviceBuffer<std::int32_t> col(in.col);
    const DeviceBuffer<double> prescribed(in.prescribed);
    DeviceBuffer<double> device_values(values.size());
    device_values.zero();
    DeviceBuffer<double> device_rhs(rhs.data(), rhs.size());
    const unsigned long long none = ULLONG_MAX;
    DeviceBuffer<unsigned long long> inverted(&none, 1);
    StepTimes::process().add("assemble.device_upload", watch.restart());

    const StiffnessMeshView mesh{in.space_dim, in.elastic,  in.axisymmetric, in.thickness, coords.get(), first_dof.get(),
                                 lambda.get(), mu.get(),    k.get(),         row_ptr.get(), col.get(),
                                 in.node_blocks};
    for (const CellBatch& batch : in.batches) {
      const DeviceCellBatch on_device(batch);
      add_cell_matrices(mesh, on_device.view(), device_values.get(), inverted.get());
      // The batch's arrays are freed when this iteration ends: its kernel must be done with them.
      check(cudaDeviceSynchronize(), "the stiffness pair kernel");
    }
    unsigned long long first_inverted = none;
    inverted.download(&first_inverted);
    if (first_inverted != none) return static_cast<std::int64_t>(first_inverted);

    const int block = in.node_blocks ? (in.elastic ? in.space_dim : 1) : 0;
    apply_prescribed(static_cast<std::int64_t>(rhs.size()), block, row_ptr.get(), col.get(), prescribed.get(),
                     device_values.get(), device_rhs.get());
    check(cudaDeviceSynchronize(), "the prescribed values' kernel");
    StepTimes::process().add("assemble.device_kernels", watch.restart());  // with the cells' uploads
    device_values.download(values.data());
    device_rhs.download(rhs.data());
    StepTimes::process().add("assemble.device_download", watch.seconds());
    return -1;
  }
};

}  // namespace

std::unique_ptr<StiffnessAssembler> make_stiffness_assembler() {
  if (!unavailable_reason().empty()) return nullptr;
  return std::make_unique<CudaStiffnessAssembler>();
}

}  // namespace fem::kernels::cuda
