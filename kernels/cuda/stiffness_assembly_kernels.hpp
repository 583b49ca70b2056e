#pragma once
// The kernels of the CUDA stiffness assembler (stiffness_assembly.cu). Plain C++: pointers are
// device pointers.
#include <cstdint>

namespace fem::kernels::cuda {

// What every pair thread reads.
struct StiffnessMeshView {
  int space_dim = 3;
  bool elastic = true, axisymmetric = false;
  double thickness = 1;
  const double* coords = nullptr;             // 3 per mesh node
  const std::int64_t* first_dof = nullptr;    // per mesh node
  const double *lambda = nullptr, *mu = nullptr, *k = nullptr;  // per material
  // The pattern: CSR rows of scalars, or where `node_blocks` rows of d x d node blocks (block row
  // and column = first_dof / d; values block after block, each row-major).
  const std::int64_t* row_ptr = nullptr;
  const std::int32_t* col = nullptr;
  bool node_blocks = false;
  // Where given, 3 per material: the body force per unit volume, whose loads go into `rhs` (per equation).
  const double* body_force = nullptr;
  double* rhs = nullptr;
};

// One element type's cells (kernels/stiffness_assembler.hpp's CellBatch, on the device).
struct CellBatchView {
  int nodes = 0, points = 0;
  std::int64_t cells = 0;
  const double *weight = nullptr, *N = nullptr, *dN = nullptr;
  const int* node = nullptr;
  const std::int64_t* cell = nullptr;
  const int* material = nullptr;
};

// Adds every cell's matrix into `values` and, where `mesh.body_force` is given, its body load
// into `mesh.rhs`; an inverted or degenerate cell lowers `inverted` to its id instead.
// Asynchronous on the default stream.
void add_cell_matrices(const StiffnessMeshView& mesh, const CellBatchView& batch, double* values,
                       unsigned long long* inverted);

// Adds `count` scalar entries (row and column equations, their values) into `values`, laid out as
// StiffnessMeshView's pattern (`block`: the node blocks' size d, 0 for CSR rows); every entry's
// position is in the pattern. Asynchronous on the default stream.
void add_entries(std::int64_t count, const std::int64_t* row, const std::int64_t* column, const double* value,
                 int block, const std::int64_t* row_ptr, const std::int32_t* col, double* values);

// The host's apply_constraints on the device: `g` per row (`rows` scalars), NaN where free; the
// pattern as StiffnessMeshView's (`block`: the node blocks' size d, 0 for CSR rows).
void apply_prescribed(std::int64_t rows, int block, const std::int64_t* row_ptr, const std::int32_t* col,
                      const double* g, double* values, double* rhs);

}  // namespace fem::kernels::cuda
