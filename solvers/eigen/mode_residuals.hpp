#pragma once
// How well eigenpairs satisfy K x = lambda M x, recomputed from the matrices.
#include <span>
#include <vector>

#include "kernels/csr_matrix.hpp"

namespace fem::eigen {

// Per pair: ||K x - lambda M x|| / max(||K x||, lambda_ref ||M x||), lambda_ref the largest of
// |shift| and the |lambda| of the pairs. The second term matters for rigid-body modes only, where
// K x is nothing but roundoff: they are measured against the stiffness of the band computed.
std::vector<double> mode_residuals(const CsrMatrix& k, const CsrMatrix& m, std::span<const double> eigenvalues,
                                   std::span<const double> vectors, double shift);

}  // namespace fem::eigen
