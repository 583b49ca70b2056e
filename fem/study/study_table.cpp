#include "fem/study/study_table.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>

#include "fem/pipeline/number_format.hpp"

namespace fem::study {
namespace {

using Cells = std::vector<std::string>;

std::string scientific(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2e", v);
  return text;
}

bool any_size(const std::vector<StudyRow>& rows) {
  return std::any_of(rows.begin(), rows.end(), [](const StudyRow& r) { return !r.size.empty(); });
}

// Rows that solve several right-hand sides (load cases) get the count and the time per one.
bool any_cases(const std::vector<StudyRow>& rows) {
  return std::any_of(rows.begin(), rows.end(), [](const StudyRow& r) { return r.rhs > 1; });
}

Cells header(bool sizes, bool cases, bool markdown) {
  Cells h = {"solver", "renumber"};
  if (sizes) h.push_back("size");
  for (const char* c : {"dofs", "bandwidth", "setup s", "solve s", "total s"}) h.push_back(c);
  if (cases) h.insert(h.end(), {"rhs", "per rhs s"});
  h.push_back("memory");
  if (markdown) h.insert(h.end(), {"factor", "GFLOP/s", "energy J"});
  for (const char* c : {"iterations", "residual", "max rel diff", "agrees", "status"}) h.push_back(c);
  return h;
}

Cells cells(const StudyRow& r, bool sizes, bool cases, bool markdown) {
  const bool measured = r.repeats > 0;
  const auto time = [&](const Spread& s) {
    if (!measured) return std::string("-");
    std::string t = short_number(s.median);
    if (markdown && r.repeats > 1) t += " (" + short_number(s.min) + "–" + short_number(s.max) + ")";
    return t;
  };
  Cells c = {r.combination(), r.renumber_used.empty() ? r.renumber : r.renumber_used};
  if (sizes) c.push_back(r.size);
  c.push_back(with_commas(r.dofs));
  c.push_back(r.bandwidth > 0 ? with_commas(r.bandwidth) : "-");  // 0: a method with its own ordering
  c.push_back(time(r.time_setup_s));
  c.push_back(time(r.time_solve_s));
  c.push_back(time(r.time_total_s));
  if (cases) {
    c.push_back(std::to_string(r.rhs));
    c.push_back(measured ? short_number(r.time_solve_s.median / r.rhs) : "-");
  }
  c.push_back(measured ? human_bytes(std::max(r.peak_memory_bytes, r.solver_memory_bytes)) : "-");
  if (markdown) {
    c.push_back(r.factor_bytes ? human_bytes(*r.factor_bytes) + (r.fill ? " (fill " + short_number(*r.fill) + ")" : "") : "-");
    c.push_back(r.gflops ? short_number(*r.gflops) : "-");
    c.push_back(r.energy_j ? short_number(*r.energy_j) : "-");
  }
  c.push_back(measured && r.iterations > 0 ? std::to_string(r.iterations) : "-");
  c.push_back(measured ? scientific(r.residual) : "-");
  c.push_back(r.max_rel_diff ? (r.reference ? "reference" : scientific(*r.max_rel_diff)) : "-");
  c.push_back(r.agrees ? (*r.agrees ? "true" : "**false**") : "-");
  if (!markdown && c.back() == "**false**") c.back() = "FALSE";
  std::string status = status_name(r.status);
  if (markdown && !r.message.empty()) status += ": " + r.message;
  if (markdown && !r.note.empty()) status += " (" + r.note + ")";
  c.push_back(status);
  return c;
}

std::string markdown_escaped(std::string s) {
  for (std::size_t i = 0; (i = s.find('|', i)) != std::string::npos; i += 2) s.replace(i, 1, "\\|");
  std::replace(s.begin(), s.end(), '\n', ' ');
  return s;
}

// Eigen rows: one column per solved row of the largest size (the last), one line per mode, so
// that the methods' frequencies read side by side. Empty when no row found modes.
std::vector<Cells> frequency_grid(const std::vector<StudyRow>& rows) {
  std::vector<const StudyRow*> solved;
  for (const auto& r : rows)
    if (!r.frequencies_hz.empty() && r.size == rows.back().size) solved.push_back(&r);
  if (solved.empty()) return {};
  const bool renumberings = std::any_of(solved.begin(), solved.end(), [&](const StudyRow* r) { return r->renumber != solved.front()->renumber; });
  Cells head = {"mode"};
  std::size_t modes = 0;
  for (const StudyRow* r : solved) {
    head.push_back(r->combination() + (renumberings ? " (" + r->renumber + ")" : ""));
    modes = std::max(modes, r->frequencies_hz.size());
  }
  std::vector<Cells> grid = {head};
  for (std::size_t i = 0; i < modes; ++i) {
    Cells line = {std::to_string(i + 1)};
    for (const StudyRow* r : solved) {
      char text[32] = "-";
      if (i < r->frequencies_hz.size()) std::snprintf(text, sizeof text, "%.9g", r->frequencies_hz[i]);
      line.push_back(text);
    }
    grid.push_back(std::move(line));
  }
  return grid;
}

}  // namespace

std::string short_number(double v) {
  char text[32];
  if (v != 0 && (std::abs(v) < 1e-3 || std::abs(v) >= 1e5)) std::snprintf(text, sizeof text, "%.2e", v);
  else std::snprintf(text, sizeof text, "%.3g", v);
  return text;
}

void print_table(const std::vector<StudyRow>& rows, std::ostream& out) {
  const bool sizes = any_size(rows), cases = any_cases(rows);
  std::vector<Cells> table = {header(sizes, cases, false)};
  for (const auto& r : rows) table.push_back(cells(r, sizes, cases, false));
  std::vector<std::size_t> width(table[0].size(), 0);
  for (const auto& line : table)
    for (std::size_t i = 0; i < line.size(); ++i) width[i] = std::max(width[i], line[i].size());
  for (const auto& line : table) {
    std::string text;
    for (std::size_t i = 0; i < line.size(); ++i) {
      // Text columns to the left, numbers to the right.
      const bool left = i < (sizes ? 3u : 2u) || i + 2 >= line.size();
      const std::string pad(width[i] - line[i].size(), ' ');
      text += (i ? "  " : "") + (left ? line[i] + pad : pad + line[i]);
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out << text << "\n";
  }
  // Why a row is not a measurement, below the table where there is room for it; a reason that
  // repeats for the same solver (unavailable at every size) is said once.
  std::vector<std::string> said;
  for (const auto& r : rows) {
    if (r.status == RowStatus::Ok && r.note.empty()) continue;
    const std::string why = r.status != RowStatus::Ok ? std::string(status_name(r.status)) + ": " + r.message : r.note;
    if (std::find(said.begin(), said.end(), r.combination() + why) != said.end()) continue;
    said.push_back(r.combination() + why);
    out << "  " << r.combination() << " (" << r.renumber << (r.size.empty() ? "" : ", " + r.size) << "): " << why << "\n";
  }
  const auto grid = frequency_grid(rows);
  if (!grid.empty()) {
    out << "\nfrequencies [Hz]" << (rows.back().size.empty() ? "" : " at " + rows.back().size) << ":\n";
    std::vector<std::size_t> columns(grid[0].size(), 0);
    for (const auto& line : grid)
      for (std::size_t i = 0; i < line.size(); ++i) columns[i] = std::max(columns[i], line[i].size());
    for (const auto& line : grid) {
      std::string text;
      for (std::size_t i = 0; i < line.size(); ++i) text += (i ? "  " : "") + std::string(columns[i] - line[i].size(), ' ') + line[i];
      out << text << "\n";
    }
  }
  out << std::flush;
}

std::string markdown_table(const std::vector<StudyRow>& rows) {
  const bool sizes = any_size(rows), cases = any_cases(rows);
  const Cells h = header(sizes, cases, true);
  std::string text = "|";
  for (const auto& c : h) text += " " + c + " |";
  text += "\n|";
  for (std::size_t i = 0; i < h.size(); ++i) text += i < (sizes ? 3u : 2u) || i + 1 == h.size() ? " --- |" : " ---: |";
  text += "\n";
  for (const auto& r : rows) {
    text += "|";
    for (const auto& c : cells(r, sizes, cases, true)) text += " " + markdown_escaped(c) + " |";
    text += "\n";
  }
  const auto grid = frequency_grid(rows);
  if (!grid.empty()) {
    text += "\nFrequencies [Hz]" + (rows.back().size.empty() ? std::string() : " at " + rows.back().size) +
            ", lowest first:\n\n|";
    for (const auto& c : grid[0]) text += " " + markdown_escaped(c) + " |";
    text += "\n|";
    for (std::size_t i = 0; i < grid[0].size(); ++i) text += " ---: |";
    text += "\n";
    for (std::size_t line = 1; line < grid.size(); ++line) {
      text += "|";
      for (const auto& c : grid[line]) text += " " + c + " |";
      text += "\n";
    }
  }
  return text;
}

}  // namespace fem::study
