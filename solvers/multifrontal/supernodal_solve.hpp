#pragma once
// Forward and back substitution with the supernodal factor: L Y = B supernode by supernode in
// postorder (a triangular solve with the diagonal block, then the block below updates the
// rows it reaches), then Lᵀ X = Y in reverse. Memory-bound work on row-major panels, written as
// plain loops over contiguous rows (BLAS's GEMM with one column packs its operands for nothing);
// several right-hand sides at once read each panel once for all of them. The factorisation's
// tree schedule shares the sweeps among threads: independent subtrees in parallel, a large
// front above them split by rows (forward) and by columns (backward).
#include <vector>

#include "solvers/multifrontal/numeric_factorisation.hpp"
#include "solvers/multifrontal/symbolic_analysis.hpp"

namespace fem::multifrontal {

// x holds `count` right-hand sides in the elimination order, row-major (row i's values for the
// count of them together: x[i * count + c]), and becomes the solutions. The host sweeps leave out
// the supernodes on the device (symbolic.on_device), whose sweeps `device` runs between them (null
// when there are none; it substitutes one vector, so count must then be 1).
template <class T>
void substitute(const SymbolicFactor& symbolic, const T* panels, DevicePart<T>* device, std::vector<T>& x,
                int count = 1);

}  // namespace fem::multifrontal
