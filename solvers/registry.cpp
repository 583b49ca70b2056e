// The rows of the solver table (solvers/solver_table.hpp): one per method, with the devices it
// runs on. Adding a solver is its own folder, its id and name (solvers/solver_choices.hpp) and one
// row here; a device that needs optional parts of the build names them ({kMetis, kCuda}), so that
// a build without one still lists the row and says how to get it.
#include "fem/config.hpp"

#include "solvers/direct/band_cholesky_solver.hpp"
#include "kernels/dense_registry.hpp"
#include "solvers/direct/band_elimination.hpp"
#include "solvers/frontal/frontal_solver.hpp"
#include "solvers/iterative/bicgstab.hpp"
#include "solvers/iterative/conjugate_gradient.hpp"
#include "solvers/optional_parts.hpp"
#include "solvers/solver_table.hpp"

namespace fem {
namespace {

constexpr BuildOption kCuda{FEM_WITH_CUDA, "configure with -DFEM_WITH_CUDA=ON; needs the CUDA toolkit"};
constexpr BuildOption kOpenCL{FEM_WITH_OPENCL, "configure with -DFEM_WITH_OPENCL=ON; Debian: ocl-icd-opencl-dev opencl-headers"};
constexpr BuildOption kMetis{FEM_WITH_METIS, "configure with -DFEM_WITH_METIS=ON; Debian: libmetis-dev"};
constexpr BuildOption kPetsc{FEM_WITH_PETSC, "configure with -DFEM_WITH_PETSC=ON; Debian: petsc-dev"};

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
  // The families a build leaves out have no factories to name (solvers/optional_parts.hpp).
  static const MultifrontalPart multifrontal = multifrontal_part();
  static const PetscPart petsc = petsc_part();
  static const std::vector<SolverMethod> table = {
      {SolverMethodId::BandCholesky, Direct, Bandwidth, {F::Band}, One, "banded Cholesky on BLAS tiles (on cuda, long bands from both ends at once); precision mixed factors in FP32",
       {{Device::Cpu, make_band_cholesky_cpu}, {Device::Cuda, make_band_cholesky_cuda, {kCuda}}}},
      {SolverMethodId::BandGauss, Direct, Bandwidth, {F::BandBothTriangles}, One, "banded Gaussian elimination without pivoting, both triangles (a baseline)",
       {{Device::Cpu, make_band_gauss_cpu}}},
      {SolverMethodId::BandLdlt, Direct, Bandwidth, {F::Band}, One, "banded LDL^T on the lower band, no square roots (a baseline)",
       {{Device::Cpu, make_band_ldlt_cpu}}},
      {SolverMethodId::Frontal, Direct, Front, {F::ProfileAndFront}, One, "frontal elimination of element matrices, never assembled; out_of_core keeps the factor in a file",
       {{Device::Cpu, make_cpu_frontal}, {Device::OpenCl, make_opencl_frontal, {kOpenCL}}, {Device::Cuda, make_cuda_frontal, {kCuda}}}},
      // Orders the equations itself (nested dissection): the numbering only serves locality.
      {SolverMethodId::Multifrontal, Direct, Locality, {F::NestedDissectionFactor}, One, "supernodal multifrontal Cholesky, nested dissection by METIS",
       {{Device::Cpu, multifrontal.cpu, {kMetis}}, {Device::Cuda, multifrontal.cuda, {kMetis, kCuda}}}},
      {SolverMethodId::Cg, Iterative, Locality, {F::KrylovVectors, 6, 1}, One, "preconditioned conjugate gradients (solver.preconditioner)",
       {{Device::Cpu, make_conjugate_gradient}, {Device::Cuda, make_conjugate_gradient, {kCuda}}, {Device::OpenCl, make_conjugate_gradient, {kOpenCL}}}},
      {SolverMethodId::Bicgstab, Iterative, Locality, {F::KrylovVectors, 9, 2}, One, "preconditioned BiCGSTAB",
       {{Device::Cpu, make_bicgstab}, {Device::Cuda, make_bicgstab, {kCuda}}, {Device::OpenCl, make_bicgstab, {kOpenCL}}}},
      {SolverMethodId::Petsc, Iterative, Locality, {F::KrylovVectors, 6, 1, 1.5}, Many, "PETSc KSP/PC, CG with GAMG unless solver.petsc_options says otherwise; runs under mpirun",
       {{Device::Cpu, petsc.petsc, {kPetsc}}}},
      {SolverMethodId::Mumps, Direct, Locality, {F::NestedDissectionFactor, 0, 0, 2}, Many, "MUMPS sparse Cholesky through PETSc; runs under mpirun",
       {{Device::Cpu, petsc.mumps, {kPetsc}}}},
  };
  return table;
}

std::map<std::string, std::string> solver_libraries() {
  LibraryVersions libraries{{"blas", kernels::make_dense_backend("blas")->description()}};
  for (const LibraryVersions& part : {multifrontal_part().libraries, petsc_part().libraries, slepc_libraries()})
    libraries.insert(part.begin(), part.end());
  return libraries;
}

}  // namespace fem
