#pragma once
// The AMG preconditioner: one V-cycle over the hierarchy per application, from a zero guess.
// Pre- and post-smoothing are the same polynomial and restriction is the transpose of
// prolongation, so M^-1 is symmetric positive definite and CG stays valid.
#include <memory>

#include "solvers/iterative/preconditioner.hpp"
#include "solvers/linear_solver.hpp"

namespace fem::amg {

// Builds the hierarchy (the setup) for the matrix and its node layout.
std::unique_ptr<Preconditioner> make_amg_preconditioner(const CsrMatrix& a, const NodeLayout& nodes,
                                                        const AmgOptions& options);

}  // namespace fem::amg
