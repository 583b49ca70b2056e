#pragma once
// Writes results as a VTK XML unstructured grid (.vtu) with VTK's own writer.
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "fem/mesh/mesh.hpp"
#include "fem/output/vtu_compression.hpp"

namespace fem {

struct PointArray {
  std::string name;
  int components = 1;
  std::span<const double> values;  // num_nodes * components
};

struct CellArray {
  std::string name;
  std::vector<double> values;  // one per cell
};

// Writes the cells of the mesh with the arrays to `path`: raw binary appended data (not
// base64), compressed as `compression` says. Returns the file's size in bytes.
// `duplicate_points` (one piece of a .pvtu): 1 for each point another piece owns, written as
// VTK's ghost array (vtkGhostType, DUPLICATEPOINT) so that readers count every point once.
// Throws std::runtime_error when VTK cannot write the file.
std::uintmax_t write_vtu(const std::filesystem::path& path, const Mesh& mesh, const std::vector<PointArray>& points,
                         const std::vector<CellArray>& cells, VtuCompression compression = kDefaultVtuCompression,
                         const std::vector<unsigned char>& duplicate_points = {});

}  // namespace fem
