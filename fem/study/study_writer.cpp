#include "fem/study/study_writer.hpp"

#include <ostream>
#include <stdexcept>

#include "support/atomic_output.hpp"
#include "fem/output/scratch_directory.hpp"
#include "fem/study/study_plots.hpp"
#include "fem/study/study_report.hpp"
#include "fem/study/study_table.hpp"

namespace fem::study {
namespace {

namespace fs = std::filesystem;

// Stages compare.csv and compare.json; returns the staged JSON's path.
fs::path stage_tables(const StudyResult& result, const fs::path& directory, AtomicOutput& output) {
  std::string csv = csv_header();
  for (const auto& row : result.rows) csv += csv_line(row);
  output.stage_text("compare.csv", csv);
  return output.stage_text("compare.json", to_json(result).dump(1) + "\n");
}

}  // namespace

void write_study_checkpoint(const StudyResult& result, const fs::path& directory) {
  AtomicOutput output(directory);
  stage_tables(result, directory, output);
  output.commit();
}

std::vector<fs::path> write_study(const StudyResult& result, const fs::path& directory, std::ostream& log) {
  log << "\n";
  print_table(result.rows, log);

  AtomicOutput output(directory);
  const fs::path json_path = stage_tables(result, directory, output);

  // The plots are drawn in a scratch folder from the staged JSON, then staged themselves.
  const ScratchDirectory scratch_folder("fem-plots");
  const fs::path& scratch = scratch_folder.path();
  const Plots plots = draw_study_plots(json_path, scratch);
  for (const auto& p : plots.drawn) fs::copy_file(scratch / p.file, output.stage(p.file));
  if (!plots.problem.empty()) log << "fem: warning: no plots: " << plots.problem << "\n";

  output.stage_text("report.md", study_report(result, plots));
  const auto written = output.commit();
  log << "\nfem: wrote";
  for (const auto& p : written) log << " " << p.filename().string();
  log << " in " << directory.string() << "\n";
  return written;
}

}  // namespace fem::study
