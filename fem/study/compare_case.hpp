#pragma once
// `fem compare`: one case, meshed once, solved by every combination under every renumbering.
#include <filesystem>
#include <iosfwd>
#include <string>

#include "fem/pipeline/run_overrides.hpp"
#include "fem/study/comparison.hpp"
#include "fem/study/study_result.hpp"

namespace fem::study {

// `overrides` adjust the case's solver settings (tolerance, preconditioner ...); an empty
// settings.renumberings means the case's own. `command` reruns it, for the report.
StudyResult compare_case(const std::filesystem::path& case_file, const RunOverrides& overrides, CompareSettings settings,
                         const std::string& command, std::ostream& log);

}  // namespace fem::study
