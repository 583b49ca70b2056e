#pragma once
// What a solver is handed: either the assembled matrix, or the element matrices in an order
// (the frontal method never assembles). Solvers never see meshes or case files.
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/block_matrix.hpp"
#include "kernels/csr_matrix.hpp"

namespace fem {

namespace kernels {
class SparseMatrix;
}

// Where the equations sit in space, for solvers that build a near-null space from it (the
// rigid-body modes of elasticity, the constants of heat: AMG, PETSc GAMG). Equations are grouped
// by node: node i owns equations i*dofs_per_node .. i*dofs_per_node + dofs_per_node - 1.
struct NodeLayout {
  int dofs_per_node = 1;
  int dimension = 3;                     // 2 or 3: how many rigid-body modes elasticity has (3 or 6)
  std::span<const double> coordinates;   // x y z of each node in equation order; empty: not known
};

// K in d x d node blocks (d = dofs per node; block rows and columns are nodes in equation order):
// the format the assembly writes for solvers that multiply blocks (LinearSolver::takes_node_blocks).
using NodeBlocks = kernels::BlockMatrix<double>;

// K as a solver's setup is handed it: CSR, or node blocks (for a solver that takes them; read in
// place, never copied). Converts from either.
struct SystemMatrix {
  SystemMatrix(const CsrMatrix& a) : csr(&a) {}    // NOLINT(google-explicit-constructor): either converts
  SystemMatrix(const NodeBlocks& a) : blocks(&a) {}  // NOLINT(google-explicit-constructor)
  std::int64_t rows() const { return csr ? csr->rows : blocks->rows(); }
  // K in CSR for a solver that reads nothing else; throws std::logic_error naming `solver` when K
  // came in node blocks (only solvers that take them are handed blocks).
  const CsrMatrix& csr_for(std::string_view solver) const {
    if (!csr) throw std::logic_error(std::string(solver) + " was handed K in node blocks; it reads CSR only");
    return *csr;
  }
  const CsrMatrix* csr = nullptr;
  const NodeBlocks* blocks = nullptr;
  // The same node blocks already in a device's memory, where the assembly made them there: a
  // double block_matrix() of that device's sparse back-end, which a solver on it may use instead
  // of copying `blocks` there again. Null where there is none.
  std::shared_ptr<const kernels::SparseMatrix> blocks_on_device;
  // Where `blocks` came without their values (empty val: they are in blocks_on_device alone):
  // copies them into `blocks` in place. A solver calls it before it reads them. Empty otherwise.
  std::function<void()> fetch_values;
};

// K u = f with Dirichlet conditions already applied symmetrically (constrained rows and
// columns cleared, diagonal kept, right-hand side lifted): K is symmetric positive definite.
struct AssembledSystem {
  SystemMatrix matrix;                   // node blocks only for a solver that takes them
  std::span<const double> rhs;
  NodeLayout nodes = {};                 // optional: solvers must work without coordinates
};

// One element's contribution: its global equation numbers and its dense matrix (row-major,
// dofs.size() squared) and load vector. Dirichlet conditions are NOT applied to these.
struct ElementContribution {
  std::vector<std::int32_t> dofs;
  std::vector<double> matrix;
  std::vector<double> load;
};

// The unassembled system, produced element by element in `order` (the frontal solver's
// element order). `prescribed[i]` is the value of a constrained equation, NaN where free;
// `nodal_load` carries loads that belong to no element (none today, but point loads would).
struct ElementSystem {
  std::int64_t equations = 0;
  std::span<const std::int64_t> order;
  std::function<void(std::int64_t element, ElementContribution& out)> element;
  std::span<const double> prescribed;
};

}  // namespace fem
