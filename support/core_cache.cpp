#include "support/core_cache.hpp"

#include <unistd.h>

#include <initializer_list>

namespace fem {

std::size_t core_cache_bytes() {
  constexpr std::size_t kSmallestServerL2 = 256 * 1024;
  for (const int level : {_SC_LEVEL2_CACHE_SIZE, _SC_LEVEL1_DCACHE_SIZE}) {
    const long bytes = sysconf(level);
    if (bytes > 0) return static_cast<std::size_t>(bytes);
  }
  return kSmallestServerL2;
}

}  // namespace fem
