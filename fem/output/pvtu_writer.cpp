#include "fem/output/pvtu_writer.hpp"

#include <vtkDataSetAttributes.h>

#include <fstream>
#include <stdexcept>

namespace fem {

std::uintmax_t write_vtu_piece(const std::filesystem::path& path, const Mesh& mesh, const std::vector<std::size_t>& cells,
                               const std::vector<PointArray>& points, const std::vector<CellArray>& cell_arrays,
                               const std::vector<char>& owned, VtuCompression compression) {
  Mesh piece;
  piece.dimension = mesh.dimension;
  piece.source = mesh.source;
  std::vector<int> local(mesh.num_nodes(), -1);
  std::vector<int> global;  // mesh node of each piece point
  std::vector<int> nodes;
  for (std::size_t e : cells) {
    nodes.clear();
    for (int n : mesh.cells.nodes_of(e)) {
      if (local[n] < 0) {
        local[n] = static_cast<int>(global.size());
        global.push_back(n);
      }
      nodes.push_back(local[n]);
    }
    piece.cells.add(mesh.cells.type[e], nodes);
  }
  piece.coords.reserve(3 * global.size());
  for (int n : global) piece.coords.insert(piece.coords.end(), &mesh.coords[3 * n], &mesh.coords[3 * n] + 3);

  std::vector<std::vector<double>> values(points.size());
  std::vector<PointArray> piece_points;
  for (std::size_t a = 0; a < points.size(); ++a) {
    const int width = points[a].components;
    values[a].reserve(global.size() * width);
    for (int n : global)
      values[a].insert(values[a].end(), points[a].values.begin() + static_cast<std::ptrdiff_t>(n) * width,
                       points[a].values.begin() + static_cast<std::ptrdiff_t>(n + 1) * width);
    piece_points.push_back({points[a].name, width, values[a]});
  }
  std::vector<CellArray> piece_cells;
  for (const auto& array : cell_arrays) {
    CellArray c{array.name, {}};
    for (std::size_t e : cells) c.values.push_back(array.values[e]);
    piece_cells.push_back(std::move(c));
  }
  std::vector<unsigned char> duplicate;
  for (int n : global) duplicate.push_back(owned[n] ? 0 : 1);
  return write_vtu(path, piece, piece_points, piece_cells, compression, duplicate);
}

std::uintmax_t write_pvtu(const std::filesystem::path& path, const std::vector<std::string>& pieces,
                          const std::vector<PointArray>& points, const std::vector<CellArray>& cell_arrays) {
  std::ofstream out(path);
  out << "<?xml version=\"1.0\"?>\n"
      << "<VTKFile type=\"PUnstructuredGrid\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n"
      << "  <PUnstructuredGrid GhostLevel=\"0\">\n    <PPointData>\n";
  for (const auto& p : points)
    out << "      <PDataArray type=\"Float64\" Name=\"" << p.name << "\" NumberOfComponents=\"" << p.components << "\"/>\n";
  out << "      <PDataArray type=\"UInt8\" Name=\"" << vtkDataSetAttributes::GhostArrayName() << "\"/>\n"
      << "    </PPointData>\n    <PCellData>\n";
  for (const auto& c : cell_arrays) out << "      <PDataArray type=\"Float64\" Name=\"" << c.name << "\"/>\n";
  out << "    </PCellData>\n    <PPoints>\n      <PDataArray type=\"Float64\" NumberOfComponents=\"3\"/>\n    </PPoints>\n";
  for (const auto& piece : pieces) out << "    <Piece Source=\"" << piece << "\"/>\n";
  out << "  </PUnstructuredGrid>\n</VTKFile>\n";
  out.close();
  if (!out) throw std::runtime_error(path.string() + ": cannot write the parallel VTU index");
  return std::filesystem::file_size(path);
}

}  // namespace fem
