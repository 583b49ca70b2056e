#pragma once
// Where a run's fields go: VTK files for ParaView (one .vtu, or a .pvtu with a piece per MPI
// rank) or nowhere but the JSON summary in a build without VTK. The composition root picks one.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "fem/mesh/mesh.hpp"
#include "fem/output/paraview_script.hpp"
#include "fem/output/pvd_writer.hpp"
#include "fem/output/vtu_compression.hpp"
#include "fem/output/vtu_writer.hpp"
#include "support/atomic_output.hpp"

namespace fem {

// One process's share of the result files when they are written in pieces.
struct ResultPiece {
  int rank = 0, ranks = 1;
  std::vector<std::size_t> cells;    // the cells this piece holds
  std::vector<char> owned;           // per mesh node: 1 where this piece owns it
};

// The fields of a run at the nodes and cells of its mesh, and how a viewer shows them first.
struct ResultFields {
  const Mesh* mesh = nullptr;
  std::vector<PointArray> points;
  std::vector<CellArray> cells;
  ParaviewView view;
};

// What a sink staged: the bytes of its files, and a note for the write line.
struct StagedFields {
  std::uintmax_t bytes = 0;
  std::string note;
};

class ResultSink {
 public:
  virtual ~ResultSink() = default;
  // Stages the files for `fields` in `output` as `<name>...` (committed with the run's other
  // files); `piece`: this process's share, when the results are written in pieces.
  virtual StagedFields stage(AtomicOutput& output, const std::string& name, const ResultFields& fields,
                            const std::optional<ResultPiece>& piece) = 0;
  // A time series (transient): one step's fields as `<name>_<step>.vtu` (no view script), its
  // file name in `entry`; then stage_series writes the index `<name>.pvd` of the steps and a view
  // script `<name>-view.py` that opens it with `view`.
  virtual StagedFields stage_step(AtomicOutput& output, const std::string& name, int step, const ResultFields& fields,
                                  std::string& entry) = 0;
  virtual StagedFields stage_series(AtomicOutput& output, const std::string& name,
                                    const std::vector<SeriesEntry>& steps, const ParaviewView& view) = 0;
};

// The sink of this build: VTK files written with `compression` (vtk_result_sink.cpp), or the
// summary alone where the build has no VTK (summary_only_sink.cpp); CMake compiles one of the two.
std::unique_ptr<ResultSink> make_field_sink(VtuCompression compression);

// Writes no field files: the summary alone (a build without VTK, or a benchmark of the rest).
class SummaryOnlySink final : public ResultSink {
 public:
  explicit SummaryOnlySink(std::string why = "no .vtu: this build has no VTK") : why_(std::move(why)) {}
  StagedFields stage(AtomicOutput&, const std::string&, const ResultFields&, const std::optional<ResultPiece>&) override {
    return {0, why_};
  }
  StagedFields stage_step(AtomicOutput&, const std::string&, int, const ResultFields&, std::string&) override {
    return {0, why_};
  }
  StagedFields stage_series(AtomicOutput&, const std::string&, const std::vector<SeriesEntry>&,
                            const ParaviewView&) override {
    return {0, why_};
  }

 private:
  std::string why_;
};

}  // namespace fem
