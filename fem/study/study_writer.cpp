#include "fem/study/study_writer.hpp"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <ostream>
#include <set>
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

// The rows of an earlier run of the same study in `directory` whose sizes `result` has not
// measured; none when there is no such run (or its compare.json cannot be read).
std::vector<StudyRow> earlier_rows_not_rerun(const StudyResult& result, const fs::path& directory) {
  std::ifstream in(directory / "compare.json");
  if (!in) return {};
  StudyResult earlier;
  try {
    earlier = study_from_json(nlohmann::json::parse(in));
  } catch (const nlohmann::json::exception&) {
    return {};
  }
  if (earlier.kind != result.kind || earlier.study_file != result.study_file) return {};
  std::set<std::string> rerun;
  for (const auto& row : result.rows) rerun.insert(row.size);
  std::vector<StudyRow> kept;
  std::copy_if(earlier.rows.begin(), earlier.rows.end(), std::back_inserter(kept),
               [&](const StudyRow& row) { return !rerun.count(row.size); });
  return kept;
}

}  // namespace

void write_study_checkpoint(const StudyResult& result, const fs::path& directory) {
  StudyResult checkpoint = result;
  for (auto& row : earlier_rows_not_rerun(result, directory)) checkpoint.rows.push_back(std::move(row));
  AtomicOutput output(directory);
  stage_tables(checkpoint, directory, output);
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
