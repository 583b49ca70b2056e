#pragma once
// `fem sweep`: a study file's case at each of its sizes, small to large, every combination at
// each (until it passes the budget), and the growth of time and memory with the dofs fitted
// as power laws.
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "fem/study/study_file.hpp"
#include "fem/study/study_result.hpp"

namespace fem::study {

// `command`: the command line that reruns it, for the report. `after_each_size`, when given,
// receives the result so far (complete = false) after every size: a checkpoint.
StudyResult run_sweep(const StudyFile& study, const std::string& command, std::ostream& log,
                      const std::function<void(const StudyResult&)>& after_each_size = {});

// Per combination and renumbering, over its measured rows: time (wall-clock, median) and the
// solver's memory against dofs.
std::vector<GrowthFit> fit_growth(const std::vector<StudyRow>& rows);

}  // namespace fem::study
