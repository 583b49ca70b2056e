#pragma once
// How well eigenpairs satisfy K x = lambda M x, recomputed from the matrices.
#include <span>
#include <vector>

#include "kernels/csr_matrix.hpp"

namespace fem::eigen {

// Per pair: ||K x - lambda M x|| / max(||K x||, |shift| ||M x||). The second term of the
// denominator matters for rigid-body modes only, where K x is nothing but roundoff.
std::vector<double> mode_residuals(const CsrMatrix& k, const CsrMatrix& m, std::span<const double> eigenvalues,
                                   std::span<const double> vectors, double shift);

}  // namespace fem::eigen
