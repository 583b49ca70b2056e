#pragma once
// The temperature that `loads.temperature: {from: heat_case.yaml}` names: that heat case solved
// first, in the same run, on this case's mesh (the heat case's own mesh section is not used, so
// the field sits on the very nodes the elasticity uses), with the run's solver and renumbering.
#include <vector>

#include "fem/case/case.hpp"
#include "fem/mesh/mesh.hpp"
#include "fem/pipeline/executor.hpp"
#include "fem/pipeline/phase_log.hpp"

namespace fem {

// The temperature per node (mesh order) of the heat case c.temperature->from, solved on `mesh`
// as phase "heat". Throws CaseError naming the case line when that file is not a heat
// case, and the heat case's own file and line for its errors (a group this mesh lacks, ...).
std::vector<double> solve_temperature_field(const Case& c, const Mesh& mesh, const SolverOptions& options,
                                            Executor& executor, PhaseLog& phases);

}  // namespace fem
