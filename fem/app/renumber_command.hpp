#pragma once
// `fem renumber`: every renumbering method on a case's mesh, side by side, and a picture of
// the band before and after.
#include <filesystem>
#include <iosfwd>

#include "fem/pipeline/run_overrides.hpp"

namespace fem {

struct RenumberReportOptions {
  bool plot = false;  // write <output>/<case>-sparsity.png
};

// Prints the table and writes <output>/<case>-renumber.csv (and the PNG). Returns the PNG path
// when one was written.
std::filesystem::path renumber_report(const std::filesystem::path& case_file, const RunOverrides& overrides,
                                      const RenumberReportOptions& options, std::ostream& log);

}  // namespace fem
