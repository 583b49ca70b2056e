#pragma once
// Preconditioners for the CPU Krylov solvers: z = M^-1 r for an M that is cheap to invert.
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "kernels/csr_matrix.hpp"
#include "solvers/linear_solver.hpp"

namespace fem {

// M^-1 as inverse diagonal blocks of `block` equations, row-major (block 0, no values: the identity).
struct InverseBlocks {
  std::span<const double> values;
  int block = 0;
};

class HostPreconditioner {
 public:
  virtual ~HostPreconditioner() = default;
  virtual void apply(std::span<const double> r, std::span<double> z) const = 0;
  virtual std::size_t bytes() const = 0;
  // Its inverse blocks when M^-1 is block-diagonal (none, jacobi, block-jacobi), so that a device
  // applies it inside the Krylov methods' fused steps; nullopt for those that run on the host.
  virtual std::optional<InverseBlocks> inverse_blocks() const { return std::nullopt; }
};

// The block a preconditioner's inverse_blocks() will have (none 0, jacobi 1, block-jacobi 3),
// nullopt for one that runs on the host only (ssor): what a device back-end can be asked for.
std::optional<int> diagonal_block(Preconditioner preconditioner);

// Throws SolverUnavailable when `preconditioner` is not among the `supported` ones of `solver`
// (e.g. "cg on cuda"), listing those it has.
void require_preconditioner(Preconditioner preconditioner, const std::vector<Preconditioner>& supported,
                            const std::string& solver);

// none: z = r. jacobi: the diagonal. block-jacobi: the 3x3 diagonal blocks of the nodes (rows
// 3i..3i+2; elasticity in 3D), each inverted by Cholesky. ssor: symmetric Gauss-Seidel
// (omega = 1.2), a forward and a backward sweep. Throws SolveFailure naming the equation of a
// non-positive diagonal or block, std::invalid_argument for amg, which runs on a sparse back-end
// (amg/v_cycle.hpp, made by the Krylov setup).
std::unique_ptr<HostPreconditioner> make_preconditioner(Preconditioner preconditioner, const CsrMatrix& a);

}  // namespace fem
