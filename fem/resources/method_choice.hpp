#pragma once
// What `solver.method: auto` becomes, once the mesh is made and its size known: a direct
// factorisation (multifrontal; band-cholesky where this build lacks METIS) where it fits in half
// the memory available and its estimated time for all the right-hand sides is no more than
// CG with AMG's or under a second, CG with AMG otherwise. The estimates are time_estimate.hpp's at the rates measured
// now, so the choice follows the machine.
#include <cstddef>
#include <string>

#include "fem/case/case.hpp"
#include "fem/renumber/node_graph.hpp"
#include "fem/resources/time_estimate.hpp"

namespace fem::resources {

struct MethodChoice {
  SolverMethodId method;  // a row of the solver table
  std::string reason;  // one line for the log, fem check and the run summary
  double seconds = 0;  // its estimated time for every right-hand side, at the rates it was chosen with
};

// The choice for `system` on `device`. `needs_factorisation`: the analysis is built on one
// (shift-invert Lanczos), so an iterative method is chosen only where no factor fits.
MethodChoice choose_method(const SystemSize& system, Device device, const SolveWork& work,
                           bool needs_factorisation, std::size_t available, const MachineRates& rates);

// The choice for case `c` on its node graph: the right-hand sides its analysis solves (load
// cases, time steps, a modal analysis's shift-invert steps), its preconditioner and tolerance.
MethodChoice choose_method_for(const Case& c, const renumber::NodeGraph& graph, int dimension, int dofs_per_node,
                               std::size_t available);

// Where `c` says solver.method: auto, makes it the method choose_method_for picks (with the
// memory available now) and records why in method_chosen_because; a named method is kept.
void resolve_auto_method(Case& c, const renumber::NodeGraph& graph, int dimension, int dofs_per_node);

}  // namespace fem::resources
