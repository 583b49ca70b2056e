#include "fem/output/vtk_result_sink.hpp"

#include "fem/output/pvtu_writer.hpp"

namespace fem {

std::unique_ptr<ResultSink> make_field_sink(VtuCompression compression) {
  return std::make_unique<VtkResultSink>(compression);
}

StagedFields VtkResultSink::stage(AtomicOutput& output, const std::string& name, const ResultFields& fields,
                                  const std::optional<ResultPiece>& piece) {
  StagedFields staged;
  ParaviewView view = fields.view;
  view.script_name = name + "-view.py";  // a load case's own, <case>-<name>-view.py
  if (piece) {
    std::vector<std::string> pieces;
    for (int r = 0; r < piece->ranks; ++r) pieces.push_back(name + "_" + std::to_string(r) + ".vtu");
    staged.bytes += write_vtu_piece(output.stage(pieces[piece->rank]), *fields.mesh, piece->cells, fields.points,
                                    fields.cells, piece->owned, compression_);
    if (piece->rank == 0) staged.bytes += write_pvtu(output.stage(name + ".pvtu"), pieces, fields.points, fields.cells);
    view.vtu_name = name + ".pvtu";
  } else {
    staged.bytes += write_vtu(output.stage(name + ".vtu"), *fields.mesh, fields.points, fields.cells, compression_);
    view.vtu_name = name + ".vtu";
  }
  if (!piece || piece->rank == 0) write_paraview_script(output.stage(name + "-view.py"), view);
  return staged;
}

StagedFields VtkResultSink::stage_step(AtomicOutput& output, const std::string& name, int step,
                                       const ResultFields& fields, std::string& entry) {
  entry = name + "_" + std::to_string(step) + ".vtu";
  return {write_vtu(output.stage(entry), *fields.mesh, fields.points, fields.cells, compression_), ""};
}

StagedFields VtkResultSink::stage_series(AtomicOutput& output, const std::string& name,
                                         const std::vector<SeriesEntry>& steps, const ParaviewView& view) {
  ParaviewView series = view;
  series.vtu_name = name + ".pvd";
  write_paraview_script(output.stage(name + "-view.py"), series);
  return {write_pvd(output.stage(series.vtu_name), steps), ""};
}

}  // namespace fem
