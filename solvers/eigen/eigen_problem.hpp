#pragma once
// The generalized symmetric eigenproblem K x = lambda M x as the eigen solvers take and answer
// it: matrices only (K symmetric positive semi-definite, M symmetric positive semi-definite,
// same size). Equations whose row of M is empty carry no mass (Dirichlet-fixed ones, their rows
// and columns cleared in both, K keeping its diagonal): they are left out of the problem, never
// reported as modes at infinity.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "solvers/linear_solver.hpp"

namespace fem::eigen {

struct EigenOptions {
  int modes = 10;                       // how many eigenpairs, nearest the shift from above
  std::optional<double> shift;          // sigma of K - sigma M; none: default_shift(K, M)
  int block_size = 0;                   // vectors per Lanczos step; 0: min(modes, 6) (a free body's rigid modes are 6 equal eigenvalues)
  int subspace = 0;                     // basis vectors kept at most; 0: 2 modes + 3 blocks
  // On each Ritz pair: ||OP y - theta y||_M <= tolerance |theta|, or roundoff in the largest |theta|.
  // Tight, because the residual ||K x - lambda M x|| of a low mode is that of theta magnified
  // by up to the spread of the spectrum.
  double tolerance = 1e-12;
  int max_restarts = 300;
  Device device = Device::Cpu;          // LOBPCG: where its blocks, products and V-cycles run (cpu, cuda)
  // Called after each restart with a short status line ("restart 12: 7 of 10 converged").
  std::function<void(const std::string&)> progress;
};

struct EigenResult {
  std::vector<double> eigenvalues;      // ascending
  std::vector<double> vectors;          // eigenvalues.size() vectors of n values one after another, M-orthonormal
  // Per pair, ||K x - lambda M x|| / max(||K x||, lambda_ref ||M x||) as mode_residuals measures
  // it, where the method measured it on fresh products with K and M (LOBPCG, on its device);
  // empty where it did not.
  std::vector<double> residuals;
  double shift = 0;                     // the sigma used
  int restarts = 0;
  std::int64_t solves = 0;              // right-hand sides solved with K - sigma M
  int block_size = 0, subspace = 0;
  SolveReport setup;                    // preparing K - sigma M (factorisation)
  double time_solve_s = 0;              // all the solves with it
  bool reuses_preparation = true;       // false: the linear solver repeated its set-up per solve
};

// The eigen problem is not solvable as asked: too few equations with mass, a shift the linear
// solver cannot factorise, no convergence within the restarts.
class EigenFailure : public SolveFailure {
 public:
  using SolveFailure::SolveFailure;
};

}  // namespace fem::eigen
