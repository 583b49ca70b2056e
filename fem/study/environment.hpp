#pragma once
// Where a study ran, recorded with its rows so that it can be reproduced and compared across
// machines: CPU, threads, GPU and driver, OpenCL device, library versions, git commit, date.
#include <nlohmann/json.hpp>

namespace fem::study {

nlohmann::json study_environment();

}  // namespace fem::study
