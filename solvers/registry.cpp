// The rows of the solver table (solvers/solver_table.hpp): one per method, with the devices it
// runs on. Adding a solver is its own folder and one row here; a device that needs optional parts
// of the build names them ({kMetis, kCuda}), so that a build without one still lists the row and
// says how to get it.
#include "fem/config.hpp"

#include "solvers/direct/band_cholesky_solver.hpp"
#include "kernels/dense_registry.hpp"
#include "solvers/direct/band_elimination.hpp"
#include "solvers/frontal/frontal_solver.hpp"
#include "solvers/iterative/bicgstab.hpp"
#include "solvers/iterative/conjugate_gradient.hpp"
#include "solvers/solver_table.hpp"
#if FEM_WITH_METIS
#include "solvers/multifrontal/multifrontal_solver.hpp"
#include "solvers/multifrontal/nested_dissection.hpp"
#endif
#if FEM_WITH_PETSC
#include "solvers/petsc/petsc_session.hpp"
#include "solvers/petsc/petsc_solver.hpp"
#endif
#if FEM_WITH_SLEPC
#include "solvers/petsc/slepc_eigen.hpp"
#endif

namespace fem {
namespace {

constexpr BuildOption kCuda{FEM_WITH_CUDA, "configure with -DFEM_WITH_CUDA=ON; needs the CUDA toolkit"};
constexpr BuildOption kOpenCL{FEM_WITH_OPENCL, "configure with -DFEM_WITH_OPENCL=ON; Debian: ocl-icd-opencl-dev opencl-headers"};
constexpr BuildOption kMetis{FEM_WITH_METIS, "configure with -DFEM_WITH_METIS=ON; Debian: libmetis-dev"};
constexpr BuildOption kPetsc{FEM_WITH_PETSC, "configure with -DFEM_WITH_PETSC=ON; Debian: petsc-dev"};

// The solver families a build leaves out have no factories to name.
#if !FEM_WITH_METIS
constexpr SolverFactory make_multifrontal_cpu = nullptr;
constexpr SolverFactory make_multifrontal_cuda = nullptr;
#endif
#if !FEM_WITH_PETSC
constexpr SolverFactory make_petsc_cpu = nullptr;
constexpr SolverFactory make_mumps_cpu = nullptr;
#endif

constexpr auto Direct = SolverKind::Direct;
constexpr auto Iterative = SolverKind::Iterative;
constexpr auto Bandwidth = OrderingGoal::Bandwidth;
constexpr auto Front = OrderingGoal::Front;
constexpr auto Locality = OrderingGoal::Locality;
constexpr auto One = Processes::One;
constexpr auto Many = Processes::Many;
using F = Footprint;

}  // namespace

const std::vector<SolverMethod>& solver_table() {
  static const std::vector<SolverMethod> table = {
      {"band-cholesky", Direct, Bandwidth, {F::Band}, One, "banded Cholesky on BLAS tiles (on cuda, long bands from both ends at once); precision mixed factors in FP32",
       {{"cpu", make_band_cholesky_cpu}, {"cuda", make_band_cholesky_cuda, {kCuda}}}},
      {"band-gauss", Direct, Bandwidth, {F::BandBothTriangles}, One, "banded Gaussian elimination without pivoting, both triangles (a baseline)",
       {{"cpu", make_band_gauss_cpu}}},
      {"band-ldlt", Direct, Bandwidth, {F::Band}, One, "banded LDL^T on the lower band, no square roots (a baseline)",
       {{"cpu", make_band_ldlt_cpu}}},
      {"frontal", Direct, Front, {F::ProfileAndFront}, One, "frontal elimination of element matrices, never assembled; out_of_core keeps the factor in a file",
       {{"cpu", make_cpu_frontal}, {"opencl", make_opencl_frontal, {kOpenCL}}, {"cuda", make_cuda_frontal, {kCuda}}}},
      // Orders the equations itself (nested dissection): the numbering only serves locality.
      {"multifrontal", Direct, Locality, {F::NestedDissectionFactor}, One, "supernodal multifrontal Cholesky, nested dissection by METIS",
       {{"cpu", make_multifrontal_cpu, {kMetis}}, {"cuda", make_multifrontal_cuda, {kMetis, kCuda}}}},
      {"cg", Iterative, Locality, {F::KrylovVectors, 6, 1}, One, "preconditioned conjugate gradients (solver.preconditioner)",
       {{"cpu", make_conjugate_gradient}, {"cuda", make_conjugate_gradient, {kCuda}}, {"opencl", make_conjugate_gradient, {kOpenCL}}}},
      {"bicgstab", Iterative, Locality, {F::KrylovVectors, 9, 2}, One, "preconditioned BiCGSTAB",
       {{"cpu", make_bicgstab}, {"cuda", make_bicgstab, {kCuda}}, {"opencl", make_bicgstab, {kOpenCL}}}},
      {"petsc", Iterative, Locality, {F::KrylovVectors, 6, 1, 1.5}, Many, "PETSc KSP/PC, CG with GAMG unless solver.petsc_options says otherwise; runs under mpirun",
       {{"cpu", make_petsc_cpu, {kPetsc}}}},
      {"mumps", Direct, Locality, {F::NestedDissectionFactor, 0, 0, 2}, Many, "MUMPS sparse Cholesky through PETSc; runs under mpirun",
       {{"cpu", make_mumps_cpu, {kPetsc}}}},
  };
  return table;
}

std::map<std::string, std::string> solver_libraries() {
  std::map<std::string, std::string> libraries{{"blas", kernels::make_dense_backend("blas")->description()}};
#if FEM_WITH_METIS
  libraries["metis"] = multifrontal::metis_version();
#endif
#if FEM_WITH_PETSC
  libraries["petsc"] = petsc::petsc_version();
  libraries["mumps"] = petsc::mumps_version();
#endif
#if FEM_WITH_SLEPC
  libraries["slepc"] = petsc::slepc_version();
#endif
  return libraries;
}

}  // namespace fem
