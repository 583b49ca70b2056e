#include "fem/output/vtu_writer.hpp"

#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkDataSetAttributes.h>
#include <vtkDoubleArray.h>
#include <vtkIdTypeArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkSmartPointer.h>
#include <vtkUnsignedCharArray.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLUnstructuredGridWriter.h>

#include <stdexcept>

#include "fem/output/vtk_cells.hpp"

namespace fem {
namespace {

// A VTK array over `values` without copying them: VTK's arrays take non-const pointers, but the
// writer only reads, and `save` = 1 leaves the memory to the vector.
vtkSmartPointer<vtkDoubleArray> borrowed(const char* name, int components, std::span<const double> values) {
  auto array = vtkSmartPointer<vtkDoubleArray>::New();
  if (name) array->SetName(name);
  array->SetNumberOfComponents(components);
  array->SetArray(const_cast<double*>(values.data()), static_cast<vtkIdType>(values.size()), 1);
  return array;
}

// The cells in VTK's form: connectivity (Gmsh's node order changed to VTK's), offsets, types.
void set_cells(const ElementSet& cells, vtkUnstructuredGrid& grid) {
  const auto num_cells = static_cast<vtkIdType>(cells.size());
  vtkNew<vtkIdTypeArray> offsets, connectivity;
  vtkNew<vtkUnsignedCharArray> types;
  offsets->SetNumberOfValues(num_cells + 1);
  connectivity->SetNumberOfValues(static_cast<vtkIdType>(cells.node.size()));
  types->SetNumberOfValues(num_cells);
  vtkIdType* offset = offsets->GetPointer(0);
  vtkIdType* ids = connectivity->GetPointer(0);
  unsigned char* type = types->GetPointer(0);
  offset[0] = 0;
  for (vtkIdType e = 0; e < num_cells; ++e) {
    const auto nodes = cells.nodes_of(e);
    const auto order = vtk_from_gmsh(cells.type[e]);
    vtkIdType* out = ids + cells.offset[e];
    for (std::size_t i = 0; i < nodes.size(); ++i) out[i] = nodes[order[i]];
    offset[e + 1] = static_cast<vtkIdType>(cells.offset[e + 1]);
    type[e] = static_cast<unsigned char>(vtk_cell_type(cells.type[e]));
  }
  vtkNew<vtkCellArray> cell_array;
  cell_array->SetData(offsets, connectivity);
  grid.SetCells(types, cell_array);
}

}  // namespace

std::uintmax_t write_vtu(const std::filesystem::path& path, const Mesh& mesh, const std::vector<PointArray>& points,
                         const std::vector<CellArray>& cells, VtuCompression compression,
                         const std::vector<unsigned char>& duplicate_points) {
  vtkNew<vtkUnstructuredGrid> grid;
  vtkNew<vtkPoints> xyz;
  xyz->SetData(borrowed(nullptr, 3, mesh.coords));
  grid->SetPoints(xyz);
  set_cells(mesh.cells, *grid);

  for (const auto& p : points) grid->GetPointData()->AddArray(borrowed(p.name.c_str(), p.components, p.values));
  if (!duplicate_points.empty()) {
    vtkNew<vtkUnsignedCharArray> ghosts;
    ghosts->SetName(vtkDataSetAttributes::GhostArrayName());
    ghosts->SetNumberOfValues(static_cast<vtkIdType>(duplicate_points.size()));
    unsigned char* ghost = ghosts->GetPointer(0);
    for (std::size_t n = 0; n < duplicate_points.size(); ++n)
      ghost[n] = duplicate_points[n] ? vtkDataSetAttributes::DUPLICATEPOINT : 0;
    grid->GetPointData()->AddArray(ghosts);
  }
  for (const auto& c : cells) grid->GetCellData()->AddArray(borrowed(c.name.c_str(), 1, c.values));

  vtkNew<vtkXMLUnstructuredGridWriter> writer;
  writer->SetFileName(path.string().c_str());
  writer->SetInputData(grid);
  writer->SetDataModeToAppended();
  writer->EncodeAppendedDataOff();  // raw bytes after the XML: base64 would add a third and cost time
  writer->SetHeaderTypeToUInt64();  // block sizes past 4 GiB (an uncompressed large array)
  switch (compression) {
    case VtuCompression::None: writer->SetCompressorTypeToNone(); break;
    case VtuCompression::Lz4: writer->SetCompressorTypeToLZ4(); break;
    case VtuCompression::Zlib:
      writer->SetCompressorTypeToZLib();
      writer->SetCompressionLevel(1);  // doubles gain little from harder work: VTK's level 5 is slower, hardly smaller
      break;
  }
  if (writer->Write() != 1) throw std::runtime_error(path.string() + ": VTK could not write the file");
  return std::filesystem::file_size(path);
}

}  // namespace fem
