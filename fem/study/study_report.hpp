#pragma once
// report.md: what a researcher puts in a paper — how the study was run and where, the table,
// the growth exponents of a sweep, the plots, and how each number is measured.
#include <string>

#include "fem/study/study_plots.hpp"
#include "fem/study/study_result.hpp"

namespace fem::study {

std::string study_report(const StudyResult& result, const Plots& plots);

}  // namespace fem::study
