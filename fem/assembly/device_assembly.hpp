#pragma once
// Assembly on the CUDA device (kernels/stiffness_assembler.hpp) for the solvers that run there: the
// host builds the pattern (in parallel) and the boundary loads, the device the matrix, the uniform
// body loads and the constraints, and the result is the host's AssembledSystemData, so that
// everything downstream is unchanged.
#include <optional>

#include "fem/assembly/assembler.hpp"
#include "fem/assembly/dirichlet.hpp"

namespace fem {

// True when the device path takes this problem: its loads need no element integration beyond
// the host's assemble_loads (no thermal strain). Convection's matrix terms on the boundary are
// the host's, added on the device before the constraints.
bool device_can_assemble(const Problem& problem);

// K and f with the constraints applied, as assemble() then apply_constraints() give them (K in
// node blocks where `in_node_blocks`: AssembledSystemData::blocks, no CSR, their values on the
// device alone, in blocks_on_device); none when this build or
// machine has no CUDA device or the problem is not one the device path takes. Throws
// InvertedElement, as assemble() does, for an inverted or degenerate cell.
std::optional<AssembledSystemData> assemble_on_cuda(const Problem& problem, const DofMap& dofs,
                                                    const renumber::NodeGraph& graph, const Constraints& constraints,
                                                    bool in_node_blocks = false);

}  // namespace fem
