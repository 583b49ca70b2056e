#pragma once
// The storage of a field's values at the nodes (NodalResults, Reactions): filled by the parallel
// loops that make it, with no zeroing by one thread first, in pages the solver's large arrays
// left behind (LargeBlockCache) rather than fresh ones, which cost 0.4-2 s a GB on the virtual
// machines measured (bench/RESULTS.md).
#include "kernels/uninitialized_allocator.hpp"

namespace fem {

using NodalArray = kernels::UninitializedVector<double>;

}  // namespace fem
