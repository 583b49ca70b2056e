#pragma once
// The rows of a study as a table of text: aligned columns for the terminal, a Markdown table
// for report.md. Both show the same columns; the report adds the spread of the repeats. Eigen
// rows add their frequencies side by side below the table.
#include <iosfwd>
#include <string>
#include <vector>

#include "fem/study/study_row.hpp"

namespace fem::study {

void print_table(const std::vector<StudyRow>& rows, std::ostream& out);
std::string markdown_table(const std::vector<StudyRow>& rows);

// 0.000123 -> "1.23e-04", 12.3 -> "12.3": three significant digits, for seconds and ratios.
std::string short_number(double value);

}  // namespace fem::study
