#include "fem/pipeline/memory_watermark.hpp"

#include <malloc.h>
#include <sys/resource.h>

#include <fstream>
#include <string>

namespace fem {

namespace {

// A "Name:   1234 kB" line of /proc/self/status, in bytes; 0 when absent.
std::size_t status_bytes(const char* name) {
  std::ifstream status("/proc/self/status");
  const std::string key = std::string(name) + ":";
  for (std::string line; std::getline(status, line);)
    if (line.rfind(key, 0) == 0) return std::stoull(line.substr(key.size())) * 1024;
  return 0;
}

}  // namespace

std::size_t resident_memory_bytes() { return status_bytes("VmRSS"); }

std::size_t peak_memory_bytes() {
  if (const std::size_t hwm = status_bytes("VmHWM")) return hwm;
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<std::size_t>(usage.ru_maxrss) * 1024;  // Linux reports kilobytes
}

bool reset_peak_memory() {
  // Without the trim, memory freed by the previous solve but kept by malloc would count again.
  malloc_trim(0);
  std::ofstream clear("/proc/self/clear_refs");
  clear << "5";  // 5: reset the peak RSS to the current RSS (Linux >= 4.0)
  clear.flush();
  return static_cast<bool>(clear);
}

}  // namespace fem
