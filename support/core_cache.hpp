#pragma once
// The cache a core keeps to itself (L2 on current x86 and Arm servers), for choices that depend
// on whether a working set stays near the core.
#include <cstddef>

namespace fem {

// What the system reports for the core's last private cache level (L2, else L1d); where it
// reports nothing, the smallest L2 of current server cores (256 KiB).
std::size_t core_cache_bytes();

}  // namespace fem
