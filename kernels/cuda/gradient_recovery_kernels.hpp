#pragma once
// The kernel of the CUDA gradient recoverer (gradient_recovery.cu). Plain C++: pointers are device
// pointers.
#include <cstdint>

#include "kernels/cuda/stiffness_assembly_kernels.hpp"

namespace fem::kernels::cuda {

// What every cell thread reads beside its batch (CellBatchView).
struct RecoveryMeshView {
  int space_dim = 3;
  bool elastic = true;
  const double* coords = nullptr;             // 3 per mesh node
  const std::int64_t* first_dof = nullptr;    // per mesh node
  const double *lambda = nullptr, *mu = nullptr, *k = nullptr;  // per material
  const double* solution = nullptr;           // per equation
};

// Adds each cell's values, extrapolated to its nodes (`extrapolation`: nodes x points), into
// `sums` (12 or 3 a node) and counts the cell at its nodes. Asynchronous on the default stream.
void add_cell_gradients(const RecoveryMeshView& mesh, const CellBatchView& batch, const double* extrapolation,
                        double* sums, int* counts);

}  // namespace fem::kernels::cuda
