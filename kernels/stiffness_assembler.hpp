#pragma once
// Assembly of the stiffness (conduction) matrix on a compute device: the declared operation, in
// plain arrays, and the registry that gives the device's implementation. The host builds the
// CSR pattern and the loads; the device computes every element matrix (the formulas of
// shared/element_stiffness.hpp), adds it into the pattern's values and applies the prescribed
// values, and the values and the lifted right-hand side come back.
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "kernels/sparse_backend.hpp"

namespace fem::kernels {

// The cells of one element type: the shape table at its stiffness rule's points
// (fem/elements/shape_table.hpp's layout), and each cell's nodes, id and material.
struct CellBatch {
  int nodes = 0, points = 0;
  std::span<const double> weight;       // points
  std::span<const double> N;            // N[q * nodes + a]
  std::span<const double> dN;           // dN[(q * nodes + a) * dim + j]
  std::span<const int> node;            // cells * nodes mesh node ids
  std::span<const std::int64_t> cell;   // mesh cell ids
  std::span<const int> material;        // per cell, into StiffnessAssembly's material arrays
};

struct StiffnessAssembly {
  int space_dim = 3;           // 2 or 3; dofs per node: space_dim (elastic) or 1
  bool elastic = true;
  bool axisymmetric = false;   // x = r; integrals carry 2 pi r
  double thickness = 1;        // 2D and not axisymmetric: the factor integrals carry
  std::span<const double> coords;            // 3 per mesh node
  std::span<const std::int64_t> first_dof;   // per mesh node: its first equation
  std::span<const double> lambda, mu, k;     // per material (Lame form; conduction)
  std::vector<CellBatch> batches;
  std::span<const std::int64_t> row_ptr;     // the pattern (both triangles, sorted columns; a
  std::span<const std::int32_t> col;         // node's columns together, as every row holds them)
  bool node_blocks = false;                  // the pattern is of d x d node blocks (BlockMatrix's
                                             // layout, d = dofs per node), not of scalar rows
  std::span<const double> prescribed;        // per equation: its value, NaN where free
  // Scalar entries added to K before the conditions, repeats summed: boundary terms the host
  // computed (convection's h N N^T over its facets), by equation.
  std::span<const std::int64_t> entry_row, entry_column;
  std::span<const double> entry_value;
  // Per material, 3 numbers: the body force per unit volume (gravity times density; heat: the
  // source, first), integrated into the right-hand side on the device with the matrix. Empty: the
  // loads given hold the body loads already.
  std::span<const double> body_force;
};

class StiffnessAssembler {
 public:
  virtual ~StiffnessAssembler() = default;
  // Fills `values` (the pattern's: its entries, or its blocks one after another; empty for node
  // blocks left on the device alone, take_matrix()), adds the body loads to `rhs` (the loads)
  // where `input.body_force` is given, and turns `rhs` into the constrained system's:
  // prescribed rows and columns cleared but for their diagonal (1 where it is not positive),
  // free rows lifted, prescribed rows diagonal times value. Returns the lowest id of a cell that
  // is inverted or degenerate (values then unusable), or -1.
  virtual std::int64_t assemble(const StiffnessAssembly& input, std::span<double> values, std::span<double> rhs) = 0;
  // Where the last assemble() was of node blocks: the matrix it left in device memory, a double
  // block_matrix() of the device's sparse back-end (moved out: the assembler keeps nothing), so
  // that a solver there need not copy the host's values back. Null otherwise.
  virtual std::unique_ptr<SparseMatrix> take_matrix() { return nullptr; }
};

// The CUDA device's assembler; null in a build without CUDA or on a machine without a device.
std::unique_ptr<StiffnessAssembler> cuda_stiffness_assembler();

}  // namespace fem::kernels
