#pragma once
// A CSV file built row by row in memory and written all at once (write_file_atomically), so that
// a run that fails half-way leaves an earlier file as it was. Numbers are written as a stream
// writes them (six significant digits), text is quoted only where CSV needs it.
#include <concepts>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <vector>

namespace fem {

// `text` as one CSV field: in double quotes, inner quotes doubled, when it holds a comma, a
// quote or a line break; as it is otherwise.
std::string csv_field(const std::string& text);

// A real number as CSV (and a stream) writes it: %g, six significant digits.
std::string csv_number(double value);

// One cell of a row: text, an integer or a real number.
struct CsvCell {
  CsvCell(const std::string& text) : text(csv_field(text)) {}
  CsvCell(const char* text) : text(csv_field(text)) {}
  template <std::integral Integer>
  CsvCell(Integer value) : text(std::to_string(value)) {}
  CsvCell(double value) : text(csv_number(value)) {}
  std::string text;
};

class CsvTable {
 public:
  explicit CsvTable(const std::vector<std::string>& columns);
  // Appends a row, its cells in the order of the columns; throws std::logic_error when the count
  // differs (a row that would shift every column after it).
  void add(std::initializer_list<CsvCell> cells);
  const std::string& text() const { return text_; }
  // Writes the header and the rows to `path` atomically; throws naming the file.
  void write(const std::filesystem::path& path) const;

 private:
  std::size_t columns_;
  std::string text_;
};

}  // namespace fem
