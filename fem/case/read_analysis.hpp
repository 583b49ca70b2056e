#pragma once
// Reading and checking the 'analysis' section (fem/case/analysis_spec.hpp).
#include <filesystem>

#include "fem/case/case.hpp"
#include "fem/case/yaml_section.hpp"

namespace fem {

// The section under the case file's root; static when it is absent.
AnalysisSpec read_analysis(const Section& root, const std::filesystem::path& file);

// The number of steps of a transient analysis: end_time / time_step (a whole number).
int transient_steps(const AnalysisSpec& a);

// What the analysis needs of the rest of the case: modal takes elasticity and a density on every
// material, transient heat and a density and specific_heat on every material. Throws CaseError at the line at fault.
void check_analysis(const Case& c);

}  // namespace fem
