#pragma once
// The one small interface every solver implements, and make_solver, which picks one by method
// and device from the solver table (solvers/solver_table.hpp).
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "solvers/linear_system.hpp"
#include "solvers/solver_choices.hpp"

namespace fem {

// The AMG preconditioner's settings (solver.amg in a case file).
struct AmgOptions {
  double strength_threshold = 0.0;     // node blocks i, j strong when ||A_ij|| >= t sqrt(||A_ii|| ||A_jj||)
  AmgSmoother smoother = AmgSmoother::Chebyshev;
  int smoother_degree = 2;             // polynomial degree or sweeps, before and after the coarse level
  int coarse_size = 2000;              // coarsen until at most this many unknowns, solved by Cholesky
  AmgPrecision precision = AmgPrecision::Single;  // the levels' matrices on the back-end
};

struct SolverOptions {
  SolverMethodId method = SolverMethodId::Cg;  // a method of the solver table
  Device device = Device::Cpu;                 // one of its devices
  Preconditioner preconditioner = Preconditioner::Jacobi;  // iterative
  Precision precision = Precision::Double;                // direct
  double tolerance = 1e-10;            // iterative: relative residual
  int max_iterations = 0;              // iterative: 0 chooses from the size
  SpmvChoice spmv;                     // GPU iterative: SpMV format/setting, or auto (tuned on the matrix)
  SpmvTuning spmv_tuning = SpmvTuning::Cache;
  AmgOptions amg;                      // preconditioner amg
  bool out_of_core = false;            // direct: keep the factor in a file (solver.out_of_core)
  std::string out_of_core_directory;   // where that file goes; empty: the system's temporary folder
  std::string petsc_options;           // petsc, mumps: PETSc options-database text ("-ksp_type cg -pc_type hypre")
  // Called now and then during long solves with a short status line ("iteration 200, residual 3e-6").
  std::function<void(const std::string&)> progress;
  double progress_interval_s = 2.0;    // at most one progress line this often
};

struct SolveReport {
  int iterations = 0;                  // 0 for direct solvers
  double residual = 0;                 // the solver's own relative residual estimate
  double time_setup_s = 0;             // factorisation, format conversion, transfers
  double time_solve_s = 0;
  std::size_t memory_bytes = 0;        // what the solver allocated beyond its input
  std::vector<double> residual_history;
  // Why an iterative solve stopped short of its tolerance ("the iteration limit of 5,000 ..."):
  // empty when it reached it. The caller decides whether the answer is usable (fem/pipeline/answer_check.hpp).
  std::string unconverged;
  std::map<std::string, double> figures;  // solver-specific: factor_bytes, flops, front_max, ...
};

// A solver failed on the system itself: not positive definite, singular, no convergence.
// `equation` names the failing equation (-1 when none applies) so the caller can name the node.
class SolveFailure : public std::runtime_error {
 public:
  SolveFailure(const std::string& what, std::int64_t equation = -1)
      : std::runtime_error(what), equation_(equation) {}
  std::int64_t equation() const { return equation_; }

 private:
  std::int64_t equation_;
};

// The requested method/device combination is not in this build or has no device here.
class SolverUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One matrix made ready once (factorised by a direct solver; moved to its device with its
// preconditioner built by an iterative one), then solved for as many right-hand sides as wanted:
// load cases, the shift-invert steps of an eigen solver, the steps of a transient run.
class PreparedSolver {
 public:
  virtual ~PreparedSolver() = default;
  // What preparing cost: time_setup_s, memory_bytes, figures (with what a solve had to prepare
  // again, such as mixed precision's fall back to an FP64 factor).
  const SolveReport& setup() const { return setup_; }
  // True when solve() reuses one preparation; false when each right-hand side repeats it (a
  // solver without its own prepared path), which comparisons must say.
  virtual bool reuses_preparation() const { return true; }
  // Solves A X = B for `count` right-hand sides stored one after another in `rhs` (count * n
  // values) into `solution` (count * n; iterative solvers start from what it holds). The report
  // gives time_solve_s for all of them, the largest iterations and the largest residual, the
  // right-hand sides' residual histories one after another, and in time_setup_s only what had to
  // be prepared again (mixed precision's fall back to an FP64 factor). Throws
  // std::invalid_argument when the sizes do not match.
  virtual SolveReport solve(std::span<const double> rhs, std::span<double> solution, int count = 1) = 0;

 protected:
  SolveReport setup_;
};

class LinearSolver {
 public:
  virtual ~LinearSolver() = default;
  // True for solvers that take element matrices (the frontal method) instead of the CSR matrix.
  virtual bool uses_element_matrices() const { return false; }
  virtual SolveReport solve(const AssembledSystem& system, std::span<double> solution);
  virtual SolveReport solve(const ElementSystem& system, std::span<double> solution);
  // `matrix` (symmetric positive definite, Dirichlet conditions applied; it, the coordinates and
  // this solver must outlive the result) made ready for repeated solves. This default repeats
  // solve() per right-hand side; solvers that can keep a factorisation or a set-up override it.
  virtual std::unique_ptr<PreparedSolver> prepare(const CsrMatrix& matrix, NodeLayout nodes = {});
  // True for a solver that multiplies K in node blocks as its own format (CG and BiCGSTAB with
  // AMG, whose fine operator they are): it takes them in place of CSR, with no conversion.
  virtual bool takes_node_blocks() const { return false; }
  // prepare() for K in node blocks (`blocks.blocks`, and the device's copy of them where the
  // assembly left one); only where takes_node_blocks() (std::logic_error elsewhere).
  virtual std::unique_ptr<PreparedSolver> prepare(const SystemMatrix& blocks, NodeLayout nodes);

 protected:
  // solve() for a solver with its own prepare(): prepare, then one prepared solve, in one report
  // (setup's figures, the solve's over them), so the two paths cannot drift apart.
  SolveReport solve_by_preparing(const AssembledSystem& system, std::span<double> solution);
};

// Throws std::invalid_argument unless `rhs` and `solution` each hold `count` (at least 1)
// vectors of `equations` values.
void require_right_hand_sides(std::int64_t equations, std::span<const double> rhs, std::span<const double> solution,
                              int count);

// Adds one right-hand side's report to the total of a prepared solve (see PreparedSolver::solve).
void add_right_hand_side(SolveReport& total, const SolveReport& one);

// The solver of options.method on options.device. Throws SolverUnavailable saying why not: an
// unknown name, a device the method does not run on, a part this build lacks.
std::unique_ptr<LinearSolver> make_solver(const SolverOptions& options);
// "method:device" for every row of the solver table this build has.
std::vector<std::string> available_solvers();

}  // namespace fem
