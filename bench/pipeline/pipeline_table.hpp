#pragma once
// The rows of `fem bench pipeline` as they come: printed to the terminal (a table per case),
// kept for the CSV and the JSON, which are written all at once at the end.
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/pipeline/pipeline_cases.hpp"
#include "bench/pipeline/pipeline_row.hpp"
#include "support/csv_table.hpp"

namespace fem::bench {

class PipelineTable {
 public:
  // `triad_bytes_per_second`: the machine's limit that assembly and post GB/s are compared with.
  explicit PipelineTable(double triad_bytes_per_second) : triad_(triad_bytes_per_second) {}
  void start_case(const PipelineCase& kind);
  void add(const PipelineCase& kind, const PipelineRow& row);
  // pipeline.csv and pipeline.json in `directory`; `about`: where and how it ran.
  void write(const std::filesystem::path& directory, nlohmann::json about) const;

 private:
  double triad_;
  CsvTable csv_{{"case", "n", "device", "status", "repeats", "elements", "nodes", "dofs", "nnz", "mesh_s", "renumber_s",
                 "assemble_s", "solve_s", "amg_setup_s", "iterations", "iterate_s", "post_s", "write_s", "total_s",
                 "wall_s", "assemble_elements_per_s", "assemble_bytes", "assemble_GBps", "post_elements_per_s",
                 "post_bytes", "post_GBps", "triad_GBps", "write_MB", "write_MBps", "peak_host_bytes",
                 "peak_host_bytes_per_dof", "peak_after_assemble_bytes", "peak_after_solve_bytes", "device_bytes_per_dof",
                 "note"}};
  nlohmann::json rows_ = nlohmann::json::array();
};

}  // namespace fem::bench
