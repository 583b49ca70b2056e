// The .vtu writer: whatever the compression, VTK's reader gets back every coordinate, cell
// (type and VTK node order) and array value exactly, from raw (not base64) appended data.
#include <doctest/doctest.h>

#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkIdList.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLUnstructuredGridReader.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>

#include "fem/mesh/box_mesh.hpp"
#include "fem/output/vtk_cells.hpp"
#include "fem/output/vtu_writer.hpp"

using namespace fem;
namespace fs = std::filesystem;

namespace {

struct Scratch {
  fs::path path = fs::temp_directory_path() / ("fem-vtu-test-" + std::to_string(::getpid()));
  Scratch() { fs::create_directories(path); }
  ~Scratch() { fs::remove_all(path); }
};

std::string head_of(const fs::path& file, std::size_t bytes) {
  std::ifstream in(file, std::ios::binary);
  std::string text(bytes, '\0');
  in.read(text.data(), static_cast<std::streamsize>(bytes));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;
}

// Distinct, non-round values: a swapped component or node shows.
std::vector<double> field(std::size_t count, double seed) {
  std::vector<double> v(count);
  for (std::size_t i = 0; i < count; ++i) v[i] = std::sin(seed + 0.37 * static_cast<double>(i)) * 1e3 + i;
  return v;
}

}  // namespace

TEST_CASE("write_vtu round-trips through VTK's reader with every compression") {
  Scratch dir;
  // Quadratic hexahedra and tetrahedra: their VTK node order differs from Gmsh's.
  for (ElementShape shape : {ElementShape::Hexahedron, ElementShape::Tetrahedron}) {
    const Mesh mesh = make_box_mesh({{2, 1, 1}, {3, 2, 2}, shape, 2, false});
    const std::size_t n = mesh.num_nodes();
    const std::vector<double> u = field(3 * n, 1), s = field(6 * n, 2), t = field(n, 3);
    const std::vector<PointArray> points{{"displacement", 3, u}, {"stress", 6, s}, {"temperature", 1, t}};
    const std::vector<CellArray> cells{{"material", field(mesh.cells.size(), 4)}};
    std::vector<unsigned char> duplicate(n, 0);
    for (std::size_t i = 0; i < n; i += 3) duplicate[i] = 1;
    for (VtuCompression compression : {VtuCompression::None, VtuCompression::Lz4, VtuCompression::Zlib}) {
      CAPTURE(name_of(compression));
      const fs::path file = dir.path / "out.vtu";
      const std::uintmax_t bytes = write_vtu(file, mesh, points, cells, compression, duplicate);
      CHECK(bytes == fs::file_size(file));

      const std::string header = head_of(file, 4096);
      CHECK(header.find("encoding=\"raw\"") != std::string::npos);
      CHECK(header.find("base64") == std::string::npos);
      const char* compressor = compression == VtuCompression::Lz4    ? "vtkLZ4DataCompressor"
                               : compression == VtuCompression::Zlib ? "vtkZLibDataCompressor"
                                                                     : nullptr;
      if (compressor) CHECK(header.find(compressor) != std::string::npos);
      else CHECK(header.find("compressor=") == std::string::npos);

      vtkNew<vtkXMLUnstructuredGridReader> reader;
      reader->SetFileName(file.c_str());
      reader->Update();
      vtkUnstructuredGrid* grid = reader->GetOutput();
      REQUIRE(grid->GetNumberOfPoints() == static_cast<vtkIdType>(n));
      REQUIRE(grid->GetNumberOfCells() == static_cast<vtkIdType>(mesh.cells.size()));
      for (std::size_t i = 0; i < n; ++i)
        for (int k = 0; k < 3; ++k) CHECK(grid->GetPoint(static_cast<vtkIdType>(i))[k] == mesh.coords[3 * i + k]);
      vtkNew<vtkIdList> ids;
      for (std::size_t e = 0; e < mesh.cells.size(); ++e) {
        CHECK(grid->GetCellType(static_cast<vtkIdType>(e)) == vtk_cell_type(mesh.cells.type[e]));
        grid->GetCellPoints(static_cast<vtkIdType>(e), ids);
        const auto nodes = mesh.cells.nodes_of(e);
        const auto order = vtk_from_gmsh(mesh.cells.type[e]);
        REQUIRE(ids->GetNumberOfIds() == static_cast<vtkIdType>(nodes.size()));
        for (std::size_t i = 0; i < nodes.size(); ++i) CHECK(ids->GetId(static_cast<vtkIdType>(i)) == nodes[order[i]]);
      }
      for (const PointArray& p : points) {
        vtkDataArray* array = grid->GetPointData()->GetArray(p.name.c_str());
        REQUIRE(array != nullptr);
        REQUIRE(array->GetNumberOfComponents() == p.components);
        for (std::size_t i = 0; i < p.values.size(); ++i)
          CHECK(array->GetComponent(static_cast<vtkIdType>(i / p.components), static_cast<int>(i % p.components)) ==
                p.values[i]);
      }
      vtkDataArray* material = grid->GetCellData()->GetArray("material");
      REQUIRE(material != nullptr);
      for (std::size_t e = 0; e < mesh.cells.size(); ++e)
        CHECK(material->GetComponent(static_cast<vtkIdType>(e), 0) == cells[0].values[e]);
      vtkUnsignedCharArray* ghosts = grid->GetPointGhostArray();
      REQUIRE(ghosts != nullptr);
      for (std::size_t i = 0; i < n; ++i) CHECK((ghosts->GetValue(static_cast<vtkIdType>(i)) != 0) == (duplicate[i] != 0));
    }
  }
}

TEST_CASE("compressed results are smaller than raw ones, and compression names round-trip") {
  Scratch dir;
  const Mesh mesh = make_box_mesh({{1, 1, 1}, {8, 8, 8}, ElementShape::Hexahedron, 1, false});
  const std::vector<double> zeros(3 * mesh.num_nodes(), 0.0);  // reactions away from supports
  const std::vector<PointArray> points{{"reaction", 3, zeros}};
  const auto none = write_vtu(dir.path / "none.vtu", mesh, points, {}, VtuCompression::None);
  const auto lz4 = write_vtu(dir.path / "lz4.vtu", mesh, points, {}, VtuCompression::Lz4);
  const auto zlib = write_vtu(dir.path / "zlib.vtu", mesh, points, {}, VtuCompression::Zlib);
  CHECK(lz4 < none);
  CHECK(zlib < none);
  for (VtuCompression c : {VtuCompression::None, VtuCompression::Lz4, VtuCompression::Zlib})
    CHECK(parse_choice<VtuCompression>(name_of(c)) == c);
  CHECK_FALSE(parse_choice<VtuCompression>("gzip").has_value());
  CHECK(choice_list<VtuCompression>() == "none, lz4, zlib");
}
