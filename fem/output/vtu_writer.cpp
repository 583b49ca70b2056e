#include "fem/output/vtu_writer.hpp"

#include <vtkCellArray.h>
#include <vtkDoubleArray.h>
#include <vtkIdTypeArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkCellData.h>
#include <vtkDataSetAttributes.h>
#include <vtkPoints.h>
#include <vtkUnsignedCharArray.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLUnstructuredGridWriter.h>

#include <stdexcept>

#include "fem/output/vtk_cells.hpp"

namespace fem {

void write_vtu(const std::filesystem::path& path, const Mesh& mesh, const std::vector<PointArray>& points,
               const std::vector<CellArray>& cells, const std::vector<unsigned char>& duplicate_points) {
  vtkNew<vtkUnstructuredGrid> grid;
  vtkNew<vtkPoints> xyz;
  xyz->SetDataTypeToDouble();
  xyz->SetNumberOfPoints(static_cast<vtkIdType>(mesh.num_nodes()));
  for (std::size_t n = 0; n < mesh.num_nodes(); ++n) xyz->SetPoint(static_cast<vtkIdType>(n), &mesh.coords[3 * n]);
  grid->SetPoints(xyz);

  vtkNew<vtkUnsignedCharArray> types;
  vtkNew<vtkCellArray> connectivity;
  std::vector<vtkIdType> ids;
  for (std::size_t e = 0; e < mesh.cells.size(); ++e) {
    const auto type = mesh.cells.type[e];
    const auto nodes = mesh.cells.nodes_of(e);
    const auto order = vtk_from_gmsh(type);
    ids.resize(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) ids[i] = nodes[order[i]];
    connectivity->InsertNextCell(static_cast<vtkIdType>(ids.size()), ids.data());
    types->InsertNextValue(static_cast<unsigned char>(vtk_cell_type(type)));
  }
  grid->SetCells(types, connectivity);

  for (const auto& p : points) {
    vtkNew<vtkDoubleArray> array;
    array->SetName(p.name.c_str());
    array->SetNumberOfComponents(p.components);
    array->SetNumberOfTuples(static_cast<vtkIdType>(mesh.num_nodes()));
    std::copy(p.values->begin(), p.values->end(), array->GetPointer(0));
    grid->GetPointData()->AddArray(array);
  }
  if (!duplicate_points.empty()) {
    vtkNew<vtkUnsignedCharArray> ghosts;
    ghosts->SetName(vtkDataSetAttributes::GhostArrayName());
    for (unsigned char duplicate : duplicate_points)
      ghosts->InsertNextValue(duplicate ? vtkDataSetAttributes::DUPLICATEPOINT : 0);
    grid->GetPointData()->AddArray(ghosts);
  }
  for (const auto& c : cells) {
    vtkNew<vtkDoubleArray> array;
    array->SetName(c.name.c_str());
    array->SetNumberOfTuples(static_cast<vtkIdType>(mesh.cells.size()));
    std::copy(c.values.begin(), c.values.end(), array->GetPointer(0));
    grid->GetCellData()->AddArray(array);
  }

  vtkNew<vtkXMLUnstructuredGridWriter> writer;
  writer->SetFileName(path.string().c_str());
  writer->SetInputData(grid);
  writer->SetDataModeToAppended();
  writer->SetCompressorTypeToZLib();
  if (writer->Write() != 1) throw std::runtime_error(path.string() + ": VTK could not write the file");
}

}  // namespace fem
