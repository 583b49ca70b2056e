#pragma once
// Forward and back substitution with the supernodal factor: L y = b supernode by supernode in
// postorder (a triangular solve with the diagonal block, then the block below updates the
// rows it reaches), then Lᵀ x = y in reverse. Memory-bound BLAS-2 work on row-major panels,
// written as plain loops over contiguous rows (BLAS's GEMM with one column packs its operands
// for nothing).
#include <vector>

#include "solvers/multifrontal/numeric_factorisation.hpp"
#include "solvers/multifrontal/symbolic_analysis.hpp"

namespace fem::multifrontal {

// x holds b in the elimination order and becomes the solution (same order). The host sweeps
// leave out the supernodes on the device (symbolic.on_device), whose sweeps `device` runs between
// them (null when there are none).
template <class T>
void substitute(const SymbolicFactor& symbolic, const T* panels, DevicePart<T>* device, std::vector<T>& x);

}  // namespace fem::multifrontal
