#pragma once
// The band Cholesky on the host with look-ahead: a team of threads, each BLAS call on one
// thread. At each step one thread brings the next block column up to date and factors it (POTRF,
// then its whole panel by the inverse of its diagonal block in one TRMM, or by substitution where
// that block is ill-conditioned) while the others update the rest of the trailing window in
// pieces of rows, so that the small serial operations leave the critical path; one barrier a
// step. Against in order (OpenBLAS's threads inside each call), 2 threads, 2026-11-26: up to
// 1.35x faster while both cores were free, 0-10 % slower at load 4 on 2 cores.
#include <functional>

#include "solvers/direct/band_of_csr.hpp"

namespace fem::band {

// Factors the band in place: `rows` holds layout.n rows of layout.pitch() entries in host
// memory (element (i, j) at rows[layout.offset(i, j)]). Calls `columns_done` with the columns
// whose factor is final, once a step. Throws kernels::NotPositiveDefinite naming the equation.
template <class T>
void factor_look_ahead(T* rows, const BandLayout& layout, const std::function<void(index_t)>& columns_done);

}  // namespace fem::band
