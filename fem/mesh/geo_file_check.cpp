#include "fem/mesh/geo_file_check.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <iterator>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace fem {
namespace {

namespace fs = std::filesystem;

// Gmsh's .geo language: the words refused outright, with why.
struct Refused {
  const char* word;
  const char* why;
};
constexpr Refused kRefused[] = {
    {"SystemCall", "runs a shell command"},
    {"NonBlockingSystemCall", "runs a shell command"},
    {"OnelabRun", "runs a program"},
    {"Exit", "ends fem at once, with nothing written and exit status 0"},
    {"Abort", "ends fem at once"},
    {"Print", "writes a file"},
    {"Save", "writes a file"},
    {"CreateDir", "creates a folder"},
    {"Sleep", "waits"},
    {"While", "loops as long as its condition holds, which fem cannot bound"},
};

// Words that read a file, and the kinds of file each may read.
struct Reader {
  const char* word;
  std::vector<std::string> extensions;
};
const std::vector<Reader> kReaders = {
    {"Include", {".geo"}},
    {"Merge", {".msh", ".geo"}},
    {"MergeWithBoundingBox", {".msh", ".geo"}},
    {"ShapeFromFile", {".brep", ".step", ".stp", ".iges", ".igs"}},
};

struct Token {
  enum Kind { Word, String, Symbol } kind;
  std::string text;
  int line;
};

// Words (an option's parts, General.Terminal, come as separate words), "strings" and single
// symbols, without comments.
std::vector<Token> tokens(const std::string& text) {
  std::vector<Token> out;
  int line = 1;
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      ++i;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (text.compare(i, 2, "//") == 0) {
      i = std::min(text.find('\n', i), text.size());
    } else if (text.compare(i, 2, "/*") == 0) {
      const std::size_t end = std::min(text.find("*/", i + 2), text.size());
      line += static_cast<int>(std::count(text.begin() + static_cast<std::ptrdiff_t>(i), text.begin() + static_cast<std::ptrdiff_t>(end), '\n'));
      i = std::min(end + 2, text.size());
    } else if (c == '"') {
      const int start = line;
      std::string s;
      for (++i; i < text.size() && text[i] != '"'; ++i) {
        if (text[i] == '\\' && i + 1 < text.size()) ++i;
        if (text[i] == '\n') ++line;
        s += text[i];
      }
      ++i;
      out.push_back({Token::String, s, start});
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      std::size_t end = i;
      while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_')) ++end;
      out.push_back({Token::Word, text.substr(i, end - i), line});
      i = end;
    } else {
      out.push_back({Token::Symbol, std::string(1, c), line});
      ++i;
    }
  }
  return out;
}

[[noreturn]] void refuse(const fs::path& file, int line, const std::string& what) {
  throw std::runtime_error(file.string() + ":" + std::to_string(line) + ": " + what +
                           "; fem runs .geo files only to make their geometry and mesh");
}

void check_file(const fs::path& geo, const fs::path& root, std::set<fs::path>& seen, int depth) {
  if (depth > 20) refuse(geo, 1, "Include nested more than 20 deep");
  if (!seen.insert(geo).second) return;
  std::ifstream in(geo, std::ios::binary);
  if (!in) throw std::runtime_error(geo.string() + ": cannot read the file");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto t = tokens(text);
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i].kind != Token::Word) continue;
    // "Print.Width": an option, not the command; "Geometry.Tolerance" and the like likewise.
    const bool option = (i + 1 < t.size() && t[i + 1].text == ".") || (i > 0 && t[i - 1].text == ".");
    if (option) continue;
    const std::string& w = t[i].text;
    for (const auto& r : kRefused)
      if (w == r.word) refuse(geo, t[i].line, "'" + w + "' " + r.why);
    if (w == "Printf" || w == "Error" || w == "Warning") {
      // A parenthesised argument list, then '>' or '>>' and a file name: the message goes to a file.
      std::size_t j = i + 1;
      int depth_paren = 0;
      for (; j < t.size(); ++j) {
        if (t[j].text == "(") ++depth_paren;
        if (t[j].text == ")" && --depth_paren == 0) break;
      }
      if (j + 1 < t.size() && t[j + 1].text == ">") refuse(geo, t[i].line, "'" + w + " ... >' writes to a file");
    }
    for (const auto& reader : kReaders) {
      if (w != reader.word) continue;
      std::size_t j = i + 1;
      if (j < t.size() && t[j].text == "(") ++j;  // ShapeFromFile("part.step")
      if (j >= t.size() || t[j].kind != Token::String)
        refuse(geo, t[i].line, "'" + w + "' needs a \"quoted\" file name that fem can check before Gmsh reads it");
      const fs::path target = fs::weakly_canonical(geo.parent_path() / t[j].text);
      const auto [outside, rest] = std::mismatch(root.begin(), root.end(), target.begin(), target.end());
      if (outside != root.end()) refuse(geo, t[i].line, "'" + w + "' reads " + target.string() + ", outside the .geo's folder " + root.string());
      std::error_code ec;
      if (!fs::is_regular_file(target, ec)) refuse(geo, t[i].line, "'" + w + "' reads " + target.string() + ", which is not a regular file");
      std::string extension = target.extension().string();
      std::transform(extension.begin(), extension.end(), extension.begin(), [](unsigned char ch) { return std::tolower(ch); });
      if (std::find(reader.extensions.begin(), reader.extensions.end(), extension) == reader.extensions.end())
        refuse(geo, t[i].line, "'" + w + "' reads " + target.string() + ", which is not a file of geometry or mesh Gmsh reads that way");
      if (extension == ".geo") check_file(target, root, seen, depth + 1);
    }
  }
}

}  // namespace

void check_geo_file(const fs::path& geo) {
  const fs::path file = fs::weakly_canonical(geo);
  std::set<fs::path> seen;
  check_file(file, file.parent_path(), seen, 0);
}

}  // namespace fem
