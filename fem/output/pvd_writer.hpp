#pragma once
// Writes a ParaView data collection (.pvd): the index of a time series, one dataset per time.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace fem {

struct SeriesEntry {
  double time = 0;
  std::string file;  // relative to the .pvd
};

// Returns the file's size in bytes; throws std::runtime_error when it cannot be written.
std::uintmax_t write_pvd(const std::filesystem::path& path, const std::vector<SeriesEntry>& entries);

}  // namespace fem
