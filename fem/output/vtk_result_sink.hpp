#pragma once
// The fields as VTK XML files for ParaView: one .vtu, or under MPI a piece per rank and the
// .pvtu index that joins them; beside them the ParaView script that shows them first.
#include "fem/output/result_sink.hpp"
#include "fem/output/vtu_compression.hpp"

namespace fem {

class VtkResultSink final : public ResultSink {
 public:
  explicit VtkResultSink(VtuCompression compression = kDefaultVtuCompression) : compression_(compression) {}
  StagedFields stage(AtomicOutput& output, const std::string& name, const ResultFields& fields,
                     const std::optional<ResultPiece>& piece) override;
  StagedFields stage_step(AtomicOutput& output, const std::string& name, int step, const ResultFields& fields,
                          std::string& entry) override;
  StagedFields stage_series(AtomicOutput& output, const std::string& name, const std::vector<SeriesEntry>& steps,
                            const ParaviewView& view) override;

 private:
  VtuCompression compression_;
};

}  // namespace fem
