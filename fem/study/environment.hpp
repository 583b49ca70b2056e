#pragma once
// Where a study ran, recorded with its rows so that it can be reproduced and compared across
// machines: CPU, threads, GPU and driver, OpenCL device, library versions (the solvers' too:
// PETSc, MUMPS, METIS, the BLAS and its threads), git commit, date, and the machine's load.
#include <nlohmann/json.hpp>

namespace fem::study {

nlohmann::json study_environment();

// The load average over 1, 5 and 15 minutes: recorded before a study (in study_environment) and
// after it, since other work on the machine skews its timings.
nlohmann::json load_average();

}  // namespace fem::study
