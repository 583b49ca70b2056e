#include "solvers/direct/available_memory.hpp"

#include <limits>
#include <sstream>

#include "kernels/device_queries.hpp"
#include "solvers/linear_solver.hpp"
#include "support/host_memory.hpp"

namespace fem::band {

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
