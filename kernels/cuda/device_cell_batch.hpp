#pragma once
// One element type's cells (kernels/stiffness_assembler.hpp's CellBatch) copied to the device,
// and the view the kernels read: what the stiffness assembler and the gradient recoverer upload
// batch by batch. Plain C++.
#include <cstdint>

#include "kernels/cuda/device_buffer.hpp"
#include "kernels/cuda/stiffness_assembly_kernels.hpp"
#include "kernels/stiffness_assembler.hpp"

namespace fem::kernels::cuda {

class DeviceCellBatch {
 public:
  explicit DeviceCellBatch(const CellBatch& batch)
      : nodes_(batch.nodes), points_(batch.points), cells_(static_cast<std::int64_t>(batch.cell.size())),
        weight_(batch.weight), N_(batch.N), dN_(batch.dN), node_(batch.node), cell_(batch.cell),
        material_(batch.material) {}

  CellBatchView view() const {
    return {nodes_, points_, cells_, weight_.get(), N_.get(), dN_.get(), node_.get(), cell_.get(), material_.get()};
  }

 private:
  int nodes_, points_;
  std::int64_t cells_;
  DeviceBuffer<double> weight_, N_, dN_;
  DeviceBuffer<int> node_;
  DeviceBuffer<std::int64_t> cell_;
  DeviceBuffer<int> material_;
};

}  // namespace fem::kernels::cuda
