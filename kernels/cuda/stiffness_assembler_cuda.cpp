// The CUDA stiffness assembler: uploads the pattern, the mesh and each element type's cells,
// runs stiffness_assembly.cu's kernels, downloads the right-hand side and the values where asked
// (through the pinned staging buffers of DeviceBuffer's copies), and keeps node blocks on the
// device as the sparse back-end's block matrix for a solver there (take_matrix()).
#include <climits>
#include <stdexcept>
#include <string>

#include "kernels/cuda/cuda_backend.hpp"
#include "kernels/cuda/cuda_block_matrix.hpp"
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
    matrix_.reset();
    const int block = in.node_blocks ? (in.elastic ? in.space_dim : 1) : 0;
    const std::size_t value_bytes = in.col.size() * static_cast<std::size_t>(block > 0 ? block * block : 1) * sizeof(double);
    if (values.empty() ? block == 0 : values.size_bytes() != value_bytes)
      throw std::invalid_argument("cuda assembler: " + std::to_string(values.size()) + " values for a pattern of " +
                                  std::to_string(value_bytes / sizeof(double)) + " (none only for node blocks)");
    if (!in.body_force.empty() && in.body_force.size() != 3 * in.lambda.size())
      throw std::invalid_argument("cuda assembler: " + std::to_string(in.body_force.size()) + " body force numbers for " +
                                  std::to_string(in.lambda.size()) + " materials");
    if (in.entry_row.size() != in.entry_value.size() || in.entry_column.size() != in.entry_value.size())
      throw std::invalid_argument("cuda assembler: boundary entries of " + std::to_string(in.entry_row.size()) + " rows, " +
                                  std::to_string(in.entry_column.size()) + " columns and " +
                                  std::to_string(in.entry_value.size()) + " values");
    const DeviceBuffer<double> coords(in.coords), lambda(in.lambda), mu(in.mu), k(in.k);
    const DeviceBuffer<std::int64_t> first_dof(in.first_dof);
    // The matrix's arrays as a block matrix's: node blocks stay on the device for the solver.
    DeviceBlocks matrix{DeviceBytes(in.row_ptr.data(), in.row_ptr.size_bytes()),
                        DeviceBytes(in.col.data(), in.col.size_bytes()), DeviceBytes(value_bytes),
                        DeviceBlockMatrix{}};
    const auto* row_ptr = static_cast<const std::int64_t*>(matrix.row_ptr.data());
    const auto* col = static_cast<const std::int32_t*>(matrix.col.data());
    auto* device_values = static_cast<double*>(matrix.val.data());
    zero_device_bytes(device_values, value_bytes);
    const DeviceBuffer<double> prescribed(in.prescribed), body_force(in.body_force);
    DeviceBuffer<double> device_rhs(rhs.data(), rhs.size());
    const unsigned long long none = ULLONG_MAX;
    DeviceBuffer<unsigned long long> inverted(&none, 1);
    StepTimes::process().add("assemble.device_upload", watch.restart());

    const StiffnessMeshView mesh{in.space_dim, in.elastic,  in.axisymmetric, in.thickness, coords.get(), first_dof.get(),
                                 lambda.get(), mu.get(),    k.get(),         row_ptr,       col,
                                 in.node_blocks, in.body_force.empty() ? nullptr : body_force.get(), device_rhs.get()};
    for (const CellBatch& batch : in.batches) {
      const DeviceCellBatch on_device(batch);
      add_cell_matrices(mesh, on_device.view(), device_values, inverted.get());
      // The batch's arrays are freed when this iteration ends: its kernel must be done with them.
      check(cudaDeviceSynchronize(), "the stiffness pair kernel");
    }
    unsigned long long first_inverted = none;
    inverted.download(&first_inverted);
    if (first_inverted != none) return static_cast<std::int64_t>(first_inverted);
    if (!in.entry_value.empty()) {
      const DeviceBuffer<std::int64_t> entry_row(in.entry_row), entry_column(in.entry_column);
      const DeviceBuffer<double> entry_value(in.entry_value);
      add_entries(static_cast<std::int64_t>(in.entry_value.size()), entry_row.get(), entry_column.get(), entry_value.get(),
                  block, row_ptr, col, device_values);
      check(cudaDeviceSynchronize(), "the boundary entries' kernel");  // before their buffers go
    }

    apply_prescribed(static_cast<std::int64_t>(rhs.size()), block, row_ptr, col, prescribed.get(), device_values,
                     device_rhs.get());
    check(cudaDeviceSynchronize(), "the prescribed values' kernel");
    StepTimes::process().add("assemble.device_kernels", watch.restart());  // with the cells' uploads
    if (!values.empty()) copy_bytes_to_host(values.data(), device_values, value_bytes);
    device_rhs.download(rhs.data());
    StepTimes::process().add("assemble.device_download", watch.seconds());
    if (block > 0) {
      matrix.form.row_block = matrix.form.col_block = block;
      matrix.form.double_values = true;
      matrix.form.block_rows = static_cast<std::int64_t>(in.row_ptr.size()) - 1;
      matrix_ = std::make_unique<CudaBlockMatrix>(std::move(matrix));
    }
    return -1;
  }
  std::unique_ptr<SparseMatrix> take_matrix() override { return std::move(matrix_); }

 private:
  std::unique_ptr<SparseMatrix> matrix_;  // the last assemble()'s node blocks
};

}  // namespace

std::unique_ptr<StiffnessAssembler> make_stiffness_assembler() {
  if (!unavailable_reason().empty()) return nullptr;
  return std::make_unique<CudaStiffnessAssembler>();
}

}  // namespace fem::kernels::cuda
