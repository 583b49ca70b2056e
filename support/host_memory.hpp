#pragma once
// How many bytes the process may still allocate on the host: MemAvailable from /proc/meminfo,
// less where its cgroup caps its memory or an address-space limit (RLIMIT_AS, ulimit -v) leaves
// less unmapped.
#include <cstddef>

namespace fem {

// Empties the process's large-block cache first (support/large_block_cache.hpp): whoever asks is
// about to allocate. Not Linux: no limit known (the largest size_t).
std::size_t host_available_memory();

}  // namespace fem
