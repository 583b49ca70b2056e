#pragma once
// Modal test problems in memory: an elastic body's K and M assembled by the production stages,
// and its modes by a chosen eigen method (Lanczos on band Cholesky, LOBPCG on a device, ...).
#include "fem/analysis/modal_analysis.hpp"
#include "fem/assembly/assembler.hpp"

namespace fem::testing {

// A body of one material (E 70 GPa, nu 0.3) on the mesh, no boundary conditions yet.
Problem elastic_box(const Mesh& mesh, ElasticModel model, double thickness, double density);

// K (constraints applied) and M (fixed equations massless) of a problem, under RCM.
struct Pencil {
  DofMap dofs;
  AssembledSystemData k;
  CsrMatrix m;
  double total_mass = 0;
};
Pencil pencil_of(const Problem& p, MassLumping lumping);

// The lowest `modes` modes by `method` (Lanczos: on band Cholesky; LOBPCG: on `device`), each
// checked to the residual a run accepts.
ModalSolution modes_of(const Problem& p, int modes, MassLumping lumping = MassLumping::Consistent,
                       EigenMethod method = EigenMethod::Lanczos, Device device = Device::Cpu);

}  // namespace fem::testing
