#include "support/csv_table.hpp"

#include <stdexcept>

#include "support/atomic_output.hpp"

namespace fem {

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string csv_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

CsvTable::CsvTable(const std::vector<std::string>& columns) : columns_(columns.size()) {
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (i > 0) text_ += ',';
    text_ += csv_field(columns[i]);
  }
  text_ += '\n';
}

void CsvTable::add(std::initializer_list<CsvCell> cells) {
  if (cells.size() != columns_)
    throw std::logic_error("CsvTable: a row of " + std::to_string(cells.size()) + " cells for " +
                           std::to_string(columns_) + " columns");
  bool first = true;
  for (const CsvCell& cell : cells) {
    if (!first) text_ += ',';
    text_ += cell.text;
    first = false;
  }
  text_ += '\n';
}

void CsvTable::write(const std::filesystem::path& path) const { write_file_atomically(path, text_); }

}  // namespace fem
