#include "solvers/petsc/slepc_eigen.hpp"

#include <slepceps.h>
#include <slepcversion.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <limits>
#include <numeric>

#include "solvers/eigen/shifted_matrix.hpp"
#include "solvers/petsc/petsc_handle.hpp"
#include "solvers/petsc/petsc_ksp.hpp"
#include "solvers/petsc/petsc_session.hpp"
#include "support/stopwatch.hpp"

namespace fem::petsc {
namespace {

using OwnedEps = Handle<EPS, EPSDestroy>;

void finalize_slepc() { SlepcFinalize(); }

// SLEPc on top of the PETSc that ensure_initialized started; finalised before it at exit
// (atexit runs the later registration first).
void ensure_slepc() {
  ensure_initialized();
  static const bool started = [] {
    PetscBool running = PETSC_FALSE;
    SlepcInitialized(&running);
    if (!running) {
      check(SlepcInitializeNoArguments(), "SlepcInitialize");
      std::atexit(finalize_slepc);
    }
    return true;
  }();
  (void)started;
}

bool has_mass(const CsrMatrix& m, std::int64_t i) {
  for (auto p = m.row_ptr[i]; p < m.row_ptr[i + 1]; ++p)
    if (m.col[p] == i) return m.val[p] > 0;
  return false;
}

// This process's rows of `a` restricted to the rows and columns where `index` is not -1,
// renumbered by it: an AIJ matrix over `comm` of which this process owns the rows
// [first, first + local) of n (one process: all of them).
void copy_restricted(const CsrMatrix& a, const std::vector<PetscInt>& index, MPI_Comm comm, PetscInt first, PetscInt local,
                     PetscInt n, OwnedMat& out) {
  std::vector<PetscInt> row_start{0}, col;
  std::vector<PetscScalar> val;
  for (std::int64_t i = 0; i < a.rows; ++i) {
    if (index[i] < first || index[i] >= first + local) continue;
    for (auto p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p)
      if (index[a.col[p]] >= 0) {
        col.push_back(index[a.col[p]]);
        val.push_back(a.val[p]);
      }
    row_start.push_back(static_cast<PetscInt>(col.size()));
  }
  check(MatCreate(comm, out.out()), "MatCreate");
  check(MatSetSizes(out, local, local, n, n), "MatSetSizes");
  check(MatSetType(out, MATAIJ), "MatSetType");
  // Each call does nothing for the other type: sequential on one process, MPI on more.
  check(MatSeqAIJSetPreallocationCSR(out, row_start.data(), col.data(), val.data()), "MatSeqAIJSetPreallocationCSR");
  check(MatMPIAIJSetPreallocationCSR(out, row_start.data(), col.data(), val.data()), "MatMPIAIJSetPreallocationCSR");
  check(MatSetOption(out, MAT_SYMMETRIC, PETSC_TRUE), "MatSetOption");
}

struct MonitorContext {
  const eigen::EigenOptions* options;
  int wanted;
  std::exception_ptr stopped;  // the progress callback threw (a time budget): rethrown after EPSSolve
};

// Progress lines from SLEPc's iterations. An exception must not cross SLEPc's C frames: it is
// kept, and the error code ends EPSSolve.
PetscErrorCode monitor(EPS, PetscInt iteration, PetscInt converged, PetscScalar*, PetscScalar*, PetscReal*, PetscInt,
                       void* context) {
  auto& c = *static_cast<MonitorContext*>(context);
  if (!c.options->progress) return 0;
  try {
    char line[96];
    std::snprintf(line, sizeof line, "iteration %d: %d of %d converged", static_cast<int>(iteration),
                  static_cast<int>(std::min<PetscInt>(converged, c.wanted)), c.wanted);
    c.options->progress(line);
  } catch (...) {
    c.stopped = std::current_exception();
    return PETSC_ERR_USER;
  }
  return 0;
}

// Shift-invert: every application of (K - sigma M)^-1 a MUMPS Cholesky solve. Returns the KSP
// whose factor figures the result reports.
KSP use_mumps_shift_invert(EPS eps) {
  ST st = nullptr;
  KSP ksp = nullptr;
  PC pc = nullptr;
  check(EPSGetST(eps, &st), "EPSGetST");
  check(STSetType(st, STSINVERT), "STSetType");
  check(STGetKSP(st, &ksp), "STGetKSP");
  check(KSPSetType(ksp, KSPPREONLY), "KSPSetType");
  check(KSPGetPC(ksp, &pc), "KSPGetPC");
  check(PCSetType(pc, PCCHOLESKY), "PCSetType");
  check(PCFactorSetMatSolverType(pc, MATSOLVERMUMPS), "PCFactorSetMatSolverType");
  return ksp;
}

}  // namespace

eigen::EigenResult slepc_krylov_schur(const CsrMatrix& k, const CsrMatrix& m, const eigen::EigenOptions& options) {
  ensure_slepc();
  const std::int64_t n_full = k.rows;
  if (m.rows != n_full) throw std::invalid_argument("slepc: K and M differ in size");
  if (n_full > std::numeric_limits<PetscInt>::max())
    throw SolverUnavailable("slepc: " + std::to_string(n_full) + " equations exceed this PETSc's 32-bit indices");
  std::vector<PetscInt> index(n_full, -1);
  PetscInt n = 0;
  for (std::int64_t i = 0; i < n_full; ++i)
    if (has_mass(m, i)) index[i] = n++;
  if (options.modes < 1 || options.modes > n)
    throw eigen::EigenFailure(std::to_string(options.modes) + " modes asked for, but only " + std::to_string(n) +
                              " equations carry mass");

  eigen::EigenResult result;
  result.shift = options.shift ? *options.shift : eigen::default_shift(k, m);
  const double resident_before = resident_bytes();
  const Stopwatch setup;
  // Under mpirun every process holds K and M whole and gives PETSc its block of rows.
  const MPI_Comm comm = PETSC_COMM_WORLD;
  PetscInt local = PETSC_DECIDE, end = 0;
  check(PetscSplitOwnership(comm, &local, &n), "PetscSplitOwnership");
  MPI_Scan(&local, &end, 1, MPIU_INT, MPI_SUM, comm);
  OwnedMat a, b;
  copy_restricted(k, index, comm, end - local, local, n, a);
  copy_restricted(m, index, comm, end - local, local, n, b);

  OwnedEps eps;
  check(EPSCreate(comm, eps.out()), "EPSCreate");
  check(EPSSetOperators(eps, a, b), "EPSSetOperators");
  check(EPSSetProblemType(eps, EPS_GHEP), "EPSSetProblemType");
  check(EPSSetType(eps, EPSKRYLOVSCHUR), "EPSSetType");
  check(EPSSetDimensions(eps, options.modes, PETSC_DEFAULT, PETSC_DEFAULT), "EPSSetDimensions");
  check(EPSSetTolerances(eps, options.tolerance, options.max_restarts), "EPSSetTolerances");
  check(EPSSetTarget(eps, result.shift), "EPSSetTarget");
  check(EPSSetWhichEigenpairs(eps, EPS_TARGET_MAGNITUDE), "EPSSetWhichEigenpairs");
  KSP ksp = use_mumps_shift_invert(eps);
  MonitorContext context{&options, options.modes, nullptr};
  check(EPSMonitorSet(eps, monitor, &context, nullptr), "EPSMonitorSet");
  check(EPSSetUp(eps), "EPSSetUp (MUMPS's Cholesky of K - sigma M)");
  result.setup.time_setup_s = setup.seconds();
  add_factor_figures(ksp, result.setup);

  const Stopwatch solving;
  const PetscErrorCode solved = EPSSolve(eps);
  if (context.stopped) std::rethrow_exception(context.stopped);
  check(solved, "EPSSolve");
  result.time_solve_s = solving.seconds();
  PetscInt converged = 0, iterations = 0, applications = 0;
  check(EPSGetConverged(eps, &converged), "EPSGetConverged");
  check(EPSGetIterationNumber(eps, &iterations), "EPSGetIterationNumber");
  check(KSPGetTotalIterations(ksp, &applications), "KSPGetTotalIterations");
  result.restarts = static_cast<int>(iterations);
  result.solves = applications;
  result.block_size = 1;
  PetscInt subspace = 0;
  check(EPSGetDimensions(eps, nullptr, &subspace, nullptr), "EPSGetDimensions");
  result.subspace = static_cast<int>(subspace);
  if (converged < options.modes)
    throw eigen::EigenFailure("slepc: " + std::to_string(converged) + " of " + std::to_string(options.modes) +
                              " modes converged in " + std::to_string(iterations) + " iterations");

  // SLEPc orders them by distance from the target; ascending eigenvalue is the same order here
  // save for roundoff between equal ones, so sort to be sure.
  std::vector<double> values(converged);
  for (PetscInt i = 0; i < converged; ++i) check(EPSGetEigenvalue(eps, i, &values[i], nullptr), "EPSGetEigenvalue");
  std::vector<PetscInt> order(converged);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](PetscInt x, PetscInt y) { return values[x] < values[y]; });
  OwnedVec x, bx, whole;
  check(MatCreateVecs(a, x.out(), bx.out()), "MatCreateVecs");
  Handle<VecScatter, VecScatterDestroy> gather;  // every process gets the whole vector
  check(VecScatterCreateToAll(x, gather.out(), whole.out()), "VecScatterCreateToAll");
  result.vectors.assign(static_cast<std::size_t>(options.modes) * n_full, 0.0);
  for (int mode = 0; mode < options.modes; ++mode) {
    check(EPSGetEigenvector(eps, order[mode], x, nullptr), "EPSGetEigenvector");
    PetscScalar norm_squared = 0;
    check(MatMult(b, x, bx), "MatMult");
    check(VecDot(x, bx, &norm_squared), "VecDot");
    const double scale = norm_squared > 0 ? 1 / std::sqrt(norm_squared) : 1.0;
    check(VecScatterBegin(gather, x, whole, INSERT_VALUES, SCATTER_FORWARD), "VecScatterBegin");
    check(VecScatterEnd(gather, x, whole, INSERT_VALUES, SCATTER_FORWARD), "VecScatterEnd");
    const PetscScalar* values_x = nullptr;
    check(VecGetArrayRead(whole, &values_x), "VecGetArrayRead");
    double* out = result.vectors.data() + static_cast<std::size_t>(mode) * n_full;
    for (std::int64_t i = 0; i < n_full; ++i)
      if (index[i] >= 0) out[i] = scale * values_x[index[i]];
    check(VecRestoreArrayRead(whole, &values_x), "VecRestoreArrayRead");
    result.eigenvalues.push_back(values[order[mode]]);
  }
  result.setup.memory_bytes = static_cast<std::size_t>(std::max(0.0, resident_bytes() - resident_before));
  return result;
}

std::string slepc_version() {
  return std::to_string(SLEPC_VERSION_MAJOR) + "." + std::to_string(SLEPC_VERSION_MINOR) + "." +
         std::to_string(SLEPC_VERSION_SUBMINOR);
}

}  // namespace fem::petsc
