#include "fem/output/vtk_result_sink.hpp"

#include "fem/output/pvtu_writer.hpp"

namespace fem {

StagedFields VtkResultSink::stage(AtomicOutput& output, const std::string& name, const ResultFields& fields,
                                  const std::optional<ResultPiece>& piece) {
  std::vector<std::filesystem::path> files;
  ParaviewView view = fields.view;
  if (piece) {
    std::vector<std::string> pieces;
    for (int r = 0; r < piece->ranks; ++r) pieces.push_back(name + "_" + std::to_string(r) + ".vtu");
    const std::vector<char> owned(piece->owned.begin(), piece->owned.end());
    files.push_back(output.stage(pieces[piece->rank]));
    write_vtu_piece(files.back(), *fields.mesh, piece->cells, fields.points, fields.cells, owned);
    if (piece->rank == 0) {
      files.push_back(output.stage(name + ".pvtu"));
      write_pvtu(files.back(), pieces, fields.points, fields.cells);
    }
    view.vtu_name = name + ".pvtu";
  } else {
    files.push_back(output.stage(name + ".vtu"));
    write_vtu(files.back(), *fields.mesh, fields.points, fields.cells);
    view.vtu_name = name + ".vtu";
  }
  if (!piece || piece->rank == 0) write_paraview_script(output.stage(name + "-view.py"), view);
  StagedFields staged;
  for (const auto& file : files) staged.bytes += std::filesystem::file_size(file);
  return staged;
}

}  // namespace fem
