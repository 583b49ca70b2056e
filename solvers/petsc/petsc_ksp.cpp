#include "solvers/petsc/petsc_ksp.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <string>
#include <vector>

#include "solvers/petsc/petsc_handle.hpp"
#include "solvers/petsc/petsc_session.hpp"
#include "support/stopwatch.hpp"

namespace fem::petsc {
namespace {

// Each solve reads its options under a prefix of its own ("fem3_ksp_type"), so that the options
// of one row of a comparison never leak into the next.
std::string fresh_prefix() {
  static std::atomic<int> solves{0};
  return "fem" + std::to_string(++solves) + "_";
}

void insert_options(const std::string& prefix, const std::string& text) {
  check(PetscOptionsPrefixPush(nullptr, prefix.c_str()), "options prefix");
  const PetscErrorCode inserted = PetscOptionsInsertString(nullptr, text.c_str());
  PetscOptionsPrefixPop(nullptr);
  check(inserted, "solver.petsc_options '" + text + "'");
}

// The options given under `prefix` that nothing read: a misspelt option would otherwise
// silently leave the default in place.
std::string unused_options(const std::string& prefix) {
  PetscInt count = 0;
  char **names = nullptr, **values = nullptr;
  if (PetscOptionsLeftGet(nullptr, &count, &names, &values) != 0) return "";
  std::string list;
  for (PetscInt i = 0; i < count; ++i)
    if (std::string(names[i]).rfind(prefix, 0) == 0) list += (list.empty() ? "-" : ", -") + std::string(names[i] + prefix.size());
  PetscOptionsLeftRestore(nullptr, &count, &names, &values);
  return list;
}

struct ProgressContext {
  const SolverOptions* options;
  double norm_b;
};

PetscErrorCode report_progress(KSP, PetscInt iteration, PetscReal norm, void* context) {
  const auto& c = *static_cast<const ProgressContext*>(context);
  if (iteration > 0 && iteration % 100 == 0 && c.options->progress) {
    char line[96];
    std::snprintf(line, sizeof line, "iteration %d, residual %.2e", static_cast<int>(iteration),
                  c.norm_b > 0 ? norm / c.norm_b : norm);
    c.options->progress(line);
  }
  return 0;
}

void set_defaults(KSP ksp, Method method, const SolverOptions& options) {
  PC pc = nullptr;
  check(KSPGetPC(ksp, &pc), "KSPGetPC");
  if (method == Method::Mumps) {
    check(KSPSetType(ksp, KSPPREONLY), "KSPSetType");
    check(PCSetType(pc, PCCHOLESKY), "PCSetType");
    check(PCFactorSetMatSolverType(pc, MATSOLVERMUMPS), "PCFactorSetMatSolverType");
    return;
  }
  check(KSPSetType(ksp, KSPCG), "KSPSetType");
  check(PCSetType(pc, PCGAMG), "PCSetType");
  check(KSPSetTolerances(ksp, options.tolerance, PETSC_DEFAULT, PETSC_DEFAULT,
                         options.max_iterations > 0 ? options.max_iterations : PETSC_DEFAULT),
        "KSPSetTolerances");
}

}  // namespace

std::string converged_reason_name(int reason) { return KSPConvergedReasons[reason]; }

void add_factor_figures(KSP ksp, SolveReport& report) {
  PC pc = nullptr;
  Mat factor = nullptr;
  MatSolverType solver_type = nullptr;
  if (KSPGetPC(ksp, &pc) != 0 || PCFactorGetMatrix(pc, &factor) != 0 ||
      MatFactorGetSolverType(factor, &solver_type) != 0 || std::string(solver_type) != MATSOLVERMUMPS)
    return;
  PetscInt entries = 0;
  PetscReal flops = 0;
  if (MatMumpsGetInfog(factor, 29, &entries) != 0 || MatMumpsGetRinfog(factor, 3, &flops) != 0) return;
  const double count = entries < 0 ? -1e6 * static_cast<double>(entries) : static_cast<double>(entries);
  report.figures["factor_bytes"] = count * sizeof(PetscScalar);
  report.figures["flops"] = flops;
  if (PetscInt ordering = -1; MatMumpsGetInfog(factor, 7, &ordering) == 0) report.figures["mumps_ordering"] = ordering;
}

void attach_near_null_space(Mat a, int dofs_per_node, int dimension, std::span<const double> local_coordinates) {
  if (local_coordinates.empty()) return;
  MPI_Comm comm = PetscObjectComm(reinterpret_cast<PetscObject>(a));
  OwnedNullSpace space;
  if (dofs_per_node == 1) {
    check(MatNullSpaceCreate(comm, PETSC_TRUE, 0, nullptr, space.out()), "MatNullSpaceCreate");
  } else {
    // MatNullSpaceCreateRigidBody wants `dimension` numbers per node, as a vector with that block size.
    const auto nodes = static_cast<PetscInt>(local_coordinates.size() / 3);
    OwnedVec coordinates;
    check(VecCreate(comm, coordinates.out()), "VecCreate");
    check(VecSetSizes(coordinates, nodes * dimension, PETSC_DECIDE), "VecSetSizes");
    check(VecSetBlockSize(coordinates, dimension), "VecSetBlockSize");
    check(VecSetFromOptions(coordinates), "VecSetFromOptions");
    PetscScalar* x = nullptr;
    check(VecGetArray(coordinates, &x), "VecGetArray");
    for (PetscInt node = 0; node < nodes; ++node)
      for (int k = 0; k < dimension; ++k) x[node * dimension + k] = local_coordinates[3 * node + k];
    check(VecRestoreArray(coordinates, &x), "VecRestoreArray");
    check(MatNullSpaceCreateRigidBody(coordinates, space.out()), "MatNullSpaceCreateRigidBody");
  }
  check(MatSetNearNullSpace(a, space), "MatSetNearNullSpace");
}

SolveReport solve_with_ksp(Mat a, Vec b, Vec x, Method method, const SolverOptions& options) {
  SolveReport report;
  const double resident_before = resident_bytes();
  const std::string prefix = fresh_prefix();
  insert_options(prefix, options.petsc_options);
  OwnedKsp ksp;
  check(KSPCreate(PetscObjectComm(reinterpret_cast<PetscObject>(a)), ksp.out()), "KSPCreate");
  check(KSPSetOptionsPrefix(ksp, prefix.c_str()), "KSPSetOptionsPrefix");
  check(KSPSetOperators(ksp, a, a), "KSPSetOperators");
  set_defaults(ksp, method, options);
  check(KSPSetFromOptions(ksp), "KSPSetFromOptions");
  // solver.tolerance is on ||f - K u|| / ||f||: CG measures that norm when told; other Krylov
  // methods keep the norm PETSc gives them (-ksp_norm_type chooses otherwise).
  PetscBool is_cg = PETSC_FALSE, norm_given = PETSC_FALSE;
  check(PetscObjectTypeCompare(reinterpret_cast<PetscObject>(static_cast<KSP>(ksp)), KSPCG, &is_cg), "KSP type");
  check(PetscOptionsHasName(nullptr, prefix.c_str(), "-ksp_norm_type", &norm_given), "options");
  if (is_cg && !norm_given) check(KSPSetNormType(ksp, KSP_NORM_UNPRECONDITIONED), "KSPSetNormType");

  PetscReal norm_b = 0;
  check(VecNorm(b, NORM_2, &norm_b), "VecNorm");
  ProgressContext progress{&options, norm_b};
  check(KSPMonitorSet(ksp, report_progress, &progress, nullptr), "KSPMonitorSet");
  check(KSPSetResidualHistory(ksp, nullptr, PETSC_DECIDE, PETSC_TRUE), "KSPSetResidualHistory");
  PetscReal norm_x = 0;
  check(VecNorm(x, NORM_INFINITY, &norm_x), "VecNorm");
  check(KSPSetInitialGuessNonzero(ksp, norm_x > 0 ? PETSC_TRUE : PETSC_FALSE), "KSPSetInitialGuessNonzero");

  const Stopwatch setting_up;
  check(KSPSetUp(ksp), "KSPSetUp");  // PCSetUp: the AMG hierarchy, or the MUMPS factorisation
  report.time_setup_s = setting_up.seconds();
  const Stopwatch solving;
  check(KSPSolve(ksp, b, x), "KSPSolve");
  report.time_solve_s = solving.seconds();
  report.memory_bytes = static_cast<std::size_t>(std::max(0.0, resident_bytes() - resident_before));
  report.figures["pc_setup_s"] = report.time_setup_s;
  report.figures["ksp_solve_s"] = report.time_solve_s;

  if (const std::string unused = unused_options(prefix); !unused.empty() && options.progress)
    options.progress("petsc: options not used: " + unused);
  KSPConvergedReason reason;
  PetscInt iterations = 0;
  PetscReal norm_r = 0;
  check(KSPGetConvergedReason(ksp, &reason), "KSPGetConvergedReason");
  check(KSPGetIterationNumber(ksp, &iterations), "KSPGetIterationNumber");
  check(KSPGetResidualNorm(ksp, &norm_r), "KSPGetResidualNorm");
  report.figures["converged_reason"] = reason;
  if (reason < 0) {
    std::string why = converged_reason_name(reason);
    if (reason == KSP_DIVERGED_PC_FAILED) {
      PC pc = nullptr;
      PCFailedReason pc_reason = PC_NOERROR;
      if (KSPGetPC(ksp, &pc) == 0 && PCGetFailedReason(pc, &pc_reason) == 0) why += ": " + std::string(PCFailedReasons[pc_reason]);
    }
    KSPType type = nullptr;
    KSPGetType(ksp, &type);
    char residual[32];
    std::snprintf(residual, sizeof residual, "%.2e", norm_b > 0 ? norm_r / norm_b : norm_r);
    throw SolveFailure("petsc: KSP " + std::string(type ? type : "?") + " did not converge (" + why + ") at iteration " +
                       std::to_string(iterations) + ", residual " + residual +
                       (method == Method::Mumps ? " (is the matrix positive definite?)" : ""));
  }
  if (method == Method::Krylov) {
    report.iterations = static_cast<int>(iterations);
    report.residual = norm_b > 0 ? norm_r / norm_b : 0.0;
    const PetscReal* history = nullptr;
    PetscInt length = 0;
    if (KSPGetResidualHistory(ksp, &history, &length) == 0)
      for (PetscInt i = 0; i < length; ++i) report.residual_history.push_back(norm_b > 0 ? history[i] / norm_b : history[i]);
  } else {
    add_factor_figures(ksp, report);
  }
  return report;
}

SolveReport solve_from_zero(Mat a, Vec b, Vec x, Method method, const SolverOptions& options, double& residual) {
  check(VecSet(x, 0.0), "VecSet");
  SolveReport report = solve_with_ksp(a, b, x, method, options);
  OwnedVec r;
  check(VecDuplicate(b, r.out()), "VecDuplicate");
  PetscReal norm_r = 0, norm_b = 0;
  check(MatMult(a, x, r), "MatMult");
  check(VecAYPX(r, -1.0, b), "VecAYPX");
  check(VecNorm(r, NORM_2, &norm_r), "VecNorm");
  check(VecNorm(b, NORM_2, &norm_b), "VecNorm");
  residual = norm_b > 0 ? norm_r / norm_b : 0.0;
  return report;
}

}  // namespace fem::petsc
