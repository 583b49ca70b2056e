#pragma once
// Modal analysis of an elastic body: the lowest natural frequencies and mode shapes from
// K x = lambda M x, with the Dirichlet-fixed equations left out and free bodies allowed (their
// rigid-body modes come first, near 0 Hz). Frequencies f = sqrt(lambda) / (2 pi).
#include <array>
#include <functional>
#include <string>
#include <vector>

#include "fem/assembly/dirichlet.hpp"
#include "fem/assembly/dof_map.hpp"
#include "fem/case/analysis_spec.hpp"
#include "kernels/csr_matrix.hpp"
#include "solvers/eigen/eigen_problem.hpp"

namespace fem {

struct ModalSolution {
  eigen::EigenResult eigen;                   // eigenvalues ascending, M-orthonormal vectors in equation order
  std::vector<double> frequencies_hz;         // 0 for an eigenvalue that roundoff made slightly negative
  std::vector<double> residuals;              // ||K x - lambda M x|| / ||K x|| per mode (eigen::mode_residuals says more)
  std::vector<std::vector<double>> shapes;    // per mode: 3 values per mesh node, largest |u| = 1
  // Per mode and direction x y z: the participation factor phi^T M r / phi^T M phi of the unit
  // translation r, and the effective mass (phi^T M r)^2 / phi^T M phi.
  std::vector<std::array<double, 3>> participation, effective_mass;
  double total_mass = 0;                      // of the whole body, fixed parts included
};

// The shift sigma for a shift given in Hz: (2 pi f)^2 with the sign of f.
double shift_of_frequency(double hz);

// The frequency in Hz of an eigenvalue lambda = (2 pi f)^2; 0 for one that roundoff made slightly negative.
double frequency_of_eigenvalue(double lambda);

// Zeroes the rows and columns of the fixed equations in M (K already has them cleared with its
// diagonal kept): those equations then have no mass, so shift-invert never returns them as modes.
void remove_fixed_mass(CsrMatrix& m, const Constraints& constraints);

// The eigenpairs of `k` and `m` (as solve_modal takes them) by analysis.method: shift-invert
// Lanczos through `solver`, prepared once with K - sigma M; LOBPCG with AMG set up by `amg`, on
// `device` (solver.device); or SLEPc. `solver` is used by Lanczos only (and must be given for it). Throws
// eigen::EigenFailure, SolveFailure, or SolverUnavailable for SLEPc in a build without it.
eigen::EigenResult solve_eigen(const CsrMatrix& k, const CsrMatrix& m, LinearSolver* solver, NodeLayout nodes,
                               const AmgOptions& amg, Device device, const AnalysisSpec& analysis,
                               std::function<void(const std::string&)> progress = {});

// The modes of `k` (constraints applied) and `m` (fixed mass removed; `total_mass` from it before)
// by solve_eigen, with frequencies, residuals, shapes, participation factors and effective masses.
ModalSolution solve_modal(const DofMap& dofs, const CsrMatrix& k, const CsrMatrix& m, double total_mass,
                          LinearSolver& solver, NodeLayout nodes, const AmgOptions& amg, Device device,
                          const AnalysisSpec& analysis,
                          std::function<void(const std::string&)> progress = {});

// r^T M r for the unit translation r along x (the mass, for an elastic body's consistent or lumped M).
double translational_mass(const CsrMatrix& m, const DofMap& dofs);

}  // namespace fem
