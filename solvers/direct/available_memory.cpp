#include "solvers/direct/available_memory.hpp"

#include <fstream>
#include <limits>
#include <sstream>

#include "kernels/device_queries.hpp"
#include "solvers/linear_solver.hpp"
#include "support/large_block_cache.hpp"

namespace fem::band {

std::size_t host_available_memory() {
  // Whoever asks is about to allocate: the pages an earlier AMG setup freed into the process's
  // large-block cache (kept there for the next setup) go back to the system first, so a study's
  // direct solver after the AMG one sees, and gets, the memory they held.
  LargeBlockCache::process().release();
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::size_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024;
  return std::numeric_limits<std::size_t>::max();  // not Linux: no limit known
}

namespace {

std::string gib(std::size_t bytes) {
  std::ostringstream s;
  s.precision(3);
  s << static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0) << " GiB";
  return s.str();
}

}  // namespace

std::size_t available_memory(const kernels::DenseBackend& backend) {
  if (backend.uses_host_memory()) return host_available_memory();
  const std::string name = backend.name();
  if (name.rfind("cuda", 0) == 0 || name == "cublas") {
    if (const std::size_t free = kernels::cuda_free_memory(); free > 0) return free;
  }
  return std::numeric_limits<std::size_t>::max();
}

void require_memory(std::size_t bytes, std::size_t available, const std::string& what, const std::string& where,
                    const std::string& advice) {
  if (bytes > available)
    throw SolveFailure(what + " needs " + gib(bytes) + " but only " + gib(available) + " is available on " + where +
                       ": " + advice);
}

void require_memory(const kernels::DenseBackend& backend, std::size_t bytes, const std::string& what) {
  std::string where = backend.name();
  where += " (" + backend.description() + ")";
  require_memory(bytes, available_memory(backend), what, where);
}

}  // namespace fem::band
