#pragma once
// `loads.temperature`: the temperature field that loads an elasticity case with thermal strain,
// either uniform or the solution of a heat case solved on the same mesh in the same run.
#include <filesystem>

namespace fem {

class Section;

struct TemperatureLoadSpec {
  double uniform = 0;            // the temperature everywhere, when `from` is empty
  std::filesystem::path from;    // a heat case file (absolute); its mesh section is not used
  int line = 0;
};

// Reads loads.temperature of the case `file`: a number, or {from: heat_case.yaml} with the path
// relative to the case file. Throws CaseError naming the file and line.
TemperatureLoadSpec read_temperature_load(const Section& loads, const std::filesystem::path& file);

}  // namespace fem
