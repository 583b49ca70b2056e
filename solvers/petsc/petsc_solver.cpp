#include "solvers/petsc/petsc_solver.hpp"

#include <algorithm>
#include <limits>
#include <vector>

#include "solvers/petsc/petsc_handle.hpp"
#include "solvers/petsc/petsc_ksp.hpp"
#include "solvers/petsc/petsc_session.hpp"
#include "support/stopwatch.hpp"

namespace fem {
namespace {

// A sequential AIJ copy of `matrix`, told its node block size (GAMG aggregates whole nodes) and
// that it is symmetric positive definite (MUMPS then factors without pivoting).
void copy_matrix(const CsrMatrix& matrix, int block_size, petsc::OwnedMat& a) {
  using petsc::check;
  static_assert(sizeof(PetscInt) == sizeof(matrix.col[0]), "fem's column indices are passed to PETSc as they are");
  if (matrix.nnz() > std::numeric_limits<PetscInt>::max())
    throw SolverUnavailable("petsc: " + std::to_string(matrix.nnz()) + " nonzeros exceed this PETSc's 32-bit indices");
  const std::vector<PetscInt> row_start(matrix.row_ptr.begin(), matrix.row_ptr.end());
  const auto n = static_cast<PetscInt>(matrix.rows);
  check(MatCreate(PETSC_COMM_SELF, a.out()), "MatCreate");
  check(MatSetSizes(a, n, n, n, n), "MatSetSizes");
  check(MatSetType(a, MATSEQAIJ), "MatSetType");
  check(MatSetBlockSize(a, n % block_size == 0 ? block_size : 1), "MatSetBlockSize");
  check(MatSeqAIJSetPreallocationCSR(a, row_start.data(), matrix.col.data(), matrix.val.data()), "MatSeqAIJSetPreallocationCSR");
  check(MatSetOption(a, MAT_SPD, PETSC_TRUE), "MatSetOption");
}

class PetscSolver final : public LinearSolver {
 public:
  PetscSolver(SolverOptions options, petsc::Method method) : options_(std::move(options)), method_(method) {
    petsc::ensure_initialized();
  }

  SolveReport solve(const AssembledSystem& system, std::span<double> u) override {
    using petsc::check;
    const double resident_before = petsc::resident_bytes();
    const Stopwatch copying;
    petsc::OwnedMat a;
    const CsrMatrix& k = system.matrix.csr_for(method_ == petsc::Method::Mumps ? "mumps" : "petsc");
    copy_matrix(k, system.nodes.dofs_per_node, a);
    if (method_ == petsc::Method::Krylov)
      petsc::attach_near_null_space(a, system.nodes.dofs_per_node, system.nodes.dimension, system.nodes.coordinates);
    const auto n = static_cast<PetscInt>(k.rows);
    petsc::OwnedVec b, x;
    check(VecCreateSeq(PETSC_COMM_SELF, n, b.out()), "VecCreateSeq");
    PetscScalar* rhs = nullptr;
    check(VecGetArray(b, &rhs), "VecGetArray");
    std::copy(system.rhs.begin(), system.rhs.end(), rhs);
    check(VecRestoreArray(b, &rhs), "VecRestoreArray");
    check(VecCreateSeqWithArray(PETSC_COMM_SELF, 1, n, u.data(), x.out()), "VecCreateSeqWithArray");  // solves into u
    const double copy_s = copying.seconds();
    const double copy_bytes = std::max(0.0, petsc::resident_bytes() - resident_before);

    SolveReport report = petsc::solve_with_ksp(a, b, x, method_, options_);
    report.time_setup_s += copy_s;
    report.memory_bytes += static_cast<std::size_t>(copy_bytes);
    return report;
  }

 private:
  SolverOptions options_;
  petsc::Method method_;
};

}  // namespace

std::unique_ptr<LinearSolver> make_petsc_cpu(const SolverOptions& options) {
  return std::make_unique<PetscSolver>(options, petsc::Method::Krylov);
}
std::unique_ptr<LinearSolver> make_mumps_cpu(const SolverOptions& options) {
  return std::make_unique<PetscSolver>(options, petsc::Method::Mumps);
}

}  // namespace fem
