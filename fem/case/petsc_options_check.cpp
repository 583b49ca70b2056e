#include "fem/case/petsc_options_check.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <string_view>
#include <vector>

namespace fem {
namespace {

constexpr const char* kFamilies =
    "the PETSc options fem passes on: ksp_, pc_, mg_, sub_, mat_mumps_ families (a monitor or view goes to the console)";
constexpr std::array<std::string_view, 5> kAllowed = {"ksp_", "pc_", "mg_", "sub_", "mat_mumps_"};

// Options outside the families that do harm, refused with what they do: a name that is one of
// these or starts with one followed by '_'.
struct Refused {
  std::string_view name, what;
};
constexpr std::array<Refused, 14> kRefused = {{
    {"options", "works on the options database itself (-options_file reads a file)"},
    {"prefix", "changes the prefix each solve's options are read under"},
    {"dll", "loads code"},
    {"dynamic_library", "loads code"},
    {"on_error", "runs a handler on an error (a debugger, an abort)"},
    {"start_in_debugger", "starts a debugger"},
    {"stop_for_debugger", "starts a debugger"},
    {"debugger", "starts a debugger"},
    {"malloc", "changes or logs memory allocation (to files too)"},
    {"log", "writes a log (to files too)"},
    {"history", "writes a history file"},
    {"viewer", "sets up viewers (files, windows, sockets)"},
    {"help", "prints PETSc's help"},
    {"h", "prints PETSc's help"},
}};

// Viewer types other than the console's ascii, which PETSc matches by a value's ending: files,
// windows, sockets, Python code.
constexpr std::array<std::string_view, 13> kViewerTypes = {"binary", "draw",  "socket", "matlab", "saws",   "hdf5",   "vtk",
                                                           "glvis",  "exodusii", "adios", "adios2", "python", "pyvista"};
// Words that, as a part of a name inside the families, mean the same or a file or folder:
// -ksp_monitor_lg_residualnorm (a window), -mat_mumps_ooc_tmpdir.
constexpr std::array<std::string_view, 3> kNotConsoleParts = {"lg", "file", "tmpdir"};

// MUMPS's Fortran output units (ICNTL 1 to 3): a unit other than 6 writes a file fort.N.
constexpr std::array<std::string_view, 3> kFortranUnits = {"mat_mumps_icntl_1", "mat_mumps_icntl_2", "mat_mumps_icntl_3"};

struct Token {
  std::string text;
  bool quoted;
};

// PETSc's PetscTokenFind with ' ' as the separator: a token that starts with '"' runs to the
// next '"' (or the end), the quotes dropped.
std::vector<Token> tokens(const std::string& text) {
  std::vector<Token> out;
  std::size_t i = 0;
  while (true) {
    while (i < text.size() && text[i] == ' ') ++i;
    if (i == text.size()) return out;
    if (text[i] == '"') {
      const auto end = std::min(text.find('"', i + 1), text.size());
      out.push_back({text.substr(i + 1, end - i - 1), true});
      i = std::min(end + 1, text.size());
    } else {
      const auto end = std::min(text.find(' ', i), text.size());
      out.push_back({text.substr(i, end - i), false});
      i = end;
    }
  }
}

bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_word(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return is_letter(c) || (c >= '0' && c <= '9') || c == '_'; });
}

// PETSc's PetscOptionsValidKey: '-' (or "--") and a letter, and not a number such as -inf.
bool is_option(const std::string& token) {
  const char* key = token.c_str();
  if (key[0] != '-') return false;
  if (key[1] == '-') ++key;
  if (!is_letter(key[1])) return false;
  char* end = nullptr;
  (void)std::strtod(key, &end);
  return end == key || *end == '_' || is_letter(*end) || (*end >= '0' && *end <= '9');
}

std::string lower(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }
bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::vector<std::string_view> parts(std::string_view s, char separator) {
  std::vector<std::string_view> out;
  for (std::size_t begin = 0;;) {
    const auto end = std::min(s.find(separator, begin), s.size());
    out.push_back(s.substr(begin, end - begin));
    if (end == s.size()) return out;
    begin = end + 1;
  }
}

// What is wrong with `option`, or "" when it passes. `name` is its name in lower case (PETSc
// compares names regardless of case) without its '-'.
std::string option_problem(const std::string& option, const std::string& name) {
  const auto refused = [&](const std::string& why) { return "'petsc_options': '" + option + "' is refused: it " + why + "; " + kFamilies; };
  if (!is_word(name)) return refused("is not a PETSc option name (letters, digits and _)");
  if (std::none_of(kAllowed.begin(), kAllowed.end(), [&](std::string_view f) { return starts_with(name, f); })) {
    for (const auto& r : kRefused)
      if (name == r.name || starts_with(name, std::string(r.name) + "_")) return refused(std::string(r.what));
    return "'petsc_options': '" + option + "' is not among " + kFamilies;
  }
  for (const auto part : parts(name, '_'))
    if (std::find(kViewerTypes.begin(), kViewerTypes.end(), part) != kViewerTypes.end() ||
        std::find(kNotConsoleParts.begin(), kNotConsoleParts.end(), part) != kNotConsoleParts.end())
      return refused("writes to a file, a window or a socket, or loads code ('" + std::string(part) + "')");
  if (std::find(kFortranUnits.begin(), kFortranUnits.end(), name) != kFortranUnits.end())
    return refused("sets a Fortran output unit of MUMPS (any but 6 writes a file fort.N)");
  if (ends_with(name, "convergence_test"))
    return refused("replaces the solver's test of convergence ('skip' stops only at the iteration limit)");
  return "";
}

// A value PETSc may take as a viewer, "type:file:format:mode", passes when it goes to the console:
// no ':' and no other viewer type at its end, or type ascii (or none) with no file but stdout or
// stderr and, without either, a format (PETSc's "ASCII format without file name").
bool console_value(const std::string& value) {
  if (value.find(':') == std::string::npos)
    return std::none_of(kViewerTypes.begin(), kViewerTypes.end(), [&](std::string_view v) { return ends_with(value, v); });
  const auto p = parts(value, ':');
  if (p.size() > 4 || !(p[0].empty() || p[0] == "ascii")) return false;
  const bool console_file = p[1] == "stdout" || p[1] == "stderr";
  const bool format = p.size() >= 3 && !p[2].empty();
  return (console_file || (p[1].empty() && format)) && std::all_of(p.begin() + 2, p.end(), is_word);
}

std::string quoted(const Token& t) { return t.quoted ? "\"" + t.text + "\"" : t.text; }

}  // namespace

std::string petsc_options_problem(const std::string& text) {
  // PETSc splits on spaces alone: a tab or line break would join what this check sees apart.
  if (std::any_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }))
    return "'petsc_options' has a tab, line break or other control character; separate options with spaces";
  const auto list = tokens(text);
  for (std::size_t i = 0; i < list.size(); ++i) {
    const Token& option = list[i];
    if (!is_option(option.text)) return "'petsc_options': '" + quoted(option) + "' stands where an option (-name) belongs; " + kFamilies;
    if (const auto problem = option_problem(option.text, lower(option.text.substr(1))); !problem.empty()) return problem;
    if (i + 1 < list.size() && !is_option(list[i + 1].text)) {
      const Token& value = list[++i];
      if (!console_value(lower(value.text)))
        return "'petsc_options': '" + option.text + " " + quoted(value) +
               "' is refused: a viewer to a file, a window or a socket, or code to load; a monitor or view goes to the "
               "console (no value, or a format such as ::ascii_info)";
    }
  }
  return "";
}

}  // namespace fem
