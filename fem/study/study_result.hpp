#pragma once
// Everything a study produced: its rows, the growth fits of a sweep, how it was run and where.
// compare.json is this value; the CSV, the report and the plots are drawn from it.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fem/study/power_law_fit.hpp"
#include "fem/study/study_row.hpp"

namespace fem::study {

// How time and memory grow with the number of unknowns for one combination and renumbering:
// time ~ dofs^p (wall-clock of the solve), memory ~ dofs^q (what the solver allocates).
struct GrowthFit {
  std::string combination, renumber;
  PowerFit time, memory;
};

struct StudyResult {
  std::string kind;                 // "compare" | "sweep"
  std::string title;
  std::string case_file;
  std::string study_file;           // sweeps
  std::string command;              // the command line that reruns it
  nlohmann::json settings;          // solvers, renumberings, repeat, tolerance, budget, sizes
  std::vector<StudyRow> rows;
  std::vector<GrowthFit> fits;      // sweeps
  nlohmann::json environment;
  bool complete = true;             // false in the checkpoints a sweep writes after each size
};

nlohmann::json to_json(const StudyResult& result);
// Reads back what to_json wrote (compare.json), so that a study run on one machine can have its
// report and plots drawn on another (`fem report`). Throws nlohmann::json::exception.
StudyResult study_from_json(const nlohmann::json& j);

}  // namespace fem::study
