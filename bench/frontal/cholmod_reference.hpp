#pragma once
// CHOLMOD (SuiteSparse), what a user would pick instead of our direct solvers: analyse,
// factorise and solve one assembled SPD system, timed and measured, for the frontal benchmark.
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "kernels/csr_matrix.hpp"

namespace fem::bench {

struct CholmodRun {
  bool available = false;   // false when this build has no CHOLMOD
  double time_analyse_s = 0, time_factor_s = 0, time_solve_s = 0;
  std::size_t factor_bytes = 0;   // values and row indices of L
  std::size_t stored_bytes = 0;   // what its L holds: values with the supernodes' explicit zeros, and indices
  std::size_t peak_bytes = 0;     // CHOLMOD's own peak allocation
  double flops = 0;               // of the factorisation, as CHOLMOD counts them
  std::string method;             // supernodal or simplicial, and the ordering it chose
  int blas_threads = 0;           // OpenBLAS's threads while it ran (0: not OpenBLAS)
  std::vector<double> solution;
};

// K is symmetric with both triangles stored (CSR of kernels/csr_matrix.hpp). blas_threads > 0:
// OpenBLAS's threads while CHOLMOD runs (0: as they are).
CholmodRun run_cholmod(const CsrMatrix& matrix, std::span<const double> rhs, int blas_threads = 0);

// Which BLAS the process has loaded (libraries named *blas* or *lapack*), which file the global
// dgemm_ (CHOLMOD's) comes from, and OpenBLAS's build and threads when it is OpenBLAS.
std::string blas_in_use();

}  // namespace fem::bench
