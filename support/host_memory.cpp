#include "support/host_memory.hpp"

#include <algorithm>
#include <fstream>
#include <limits>
#include <string>

#include <sys/resource.h>
#include <unistd.h>

#include "support/large_block_cache.hpp"

namespace fem {

namespace {

// A number from a one-line file such as cgroup v2's memory.max ("max": none).
std::size_t read_bytes(const char* path) {
  std::ifstream in(path);
  std::size_t v = 0;
  if (in >> v) return v;
  return std::numeric_limits<std::size_t>::max();
}

}  // namespace

std::size_t host_available_memory() {
  // Whoever asks is about to allocate: the pages an earlier AMG setup freed into the process's
  // large-block cache (kept there for the next setup) go back to the system first, so a study's
  // direct solver after the AMG one sees, and gets, the memory they held.
  LargeBlockCache::process().release();
  std::size_t available = std::numeric_limits<std::size_t>::max();  // not Linux: no limit known
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::size_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit)
    if (key == "MemAvailable:") available = kib * 1024;
  // A container's cgroup (v2) may allow less than the machine has free.
  const std::size_t limit = read_bytes("/sys/fs/cgroup/memory.max");
  const std::size_t used = read_bytes("/sys/fs/cgroup/memory.current");
  if (limit != std::numeric_limits<std::size_t>::max() && used <= limit) available = std::min(available, limit - used);
  // An address-space limit (ulimit -v, as some batch systems set one): what the process has not
  // mapped of it yet.
  rlimit address_space{};
  if (getrlimit(RLIMIT_AS, &address_space) == 0 && address_space.rlim_cur != RLIM_INFINITY) {
    std::ifstream statm("/proc/self/statm");
    std::size_t pages = 0;
    statm >> pages;
    const std::size_t mapped = pages * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    const std::size_t cap = address_space.rlim_cur;
    available = std::min(available, cap > mapped ? cap - mapped : 0);
  }
  return available;
}

}  // namespace fem
