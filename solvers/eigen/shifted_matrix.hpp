#pragma once
// K - sigma M on the union of the two patterns, and the shift used when none is asked for.
#include "kernels/csr_matrix.hpp"

namespace fem::eigen {

CsrMatrix shifted_matrix(const CsrMatrix& k, const CsrMatrix& m, double sigma);

// A shift just below zero: -1e-6 times the mean of K_ii / M_ii over the equations with mass.
// That ratio is of the order of the largest eigenvalue, so the shift lies below the lowest elastic
// eigenvalue of any reasonable mesh (the wanted eigenvalues stay well separated after inversion)
// and far enough from zero for K - sigma M of a free body, whose rigid-body modes have
// eigenvalue 0, to be positive definite and factorise.
double default_shift(const CsrMatrix& k, const CsrMatrix& m);

}  // namespace fem::eigen
