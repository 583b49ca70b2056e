#include "fem/output/pvd_writer.hpp"

#include <fstream>
#include <stdexcept>

namespace fem {

std::uintmax_t write_pvd(const std::filesystem::path& path, const std::vector<SeriesEntry>& entries) {
  std::ofstream out(path);
  out.precision(17);  // times read back exactly
  out << "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
      << "  <Collection>\n";
  for (const auto& e : entries)
    out << "    <DataSet timestep=\"" << e.time << "\" group=\"\" part=\"0\" file=\"" << e.file << "\"/>\n";
  out << "  </Collection>\n</VTKFile>\n";
  out.close();
  if (!out) throw std::runtime_error(path.string() + ": cannot write the time-series index");
  return std::filesystem::file_size(path);
}

}  // namespace fem
