#include "kernels/shared/spmv_tuning_cache.hpp"

#include "support/atomic_output.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <system_error>
#include <utility>
#include <vector>

namespace fem::kernels {
namespace fs = std::filesystem;
namespace {

// The first line of the file; another line there means another version of the format.
constexpr const char* kHeaderStem = "fem spmv tuning cache v";
constexpr const char* kHeader = "fem spmv tuning cache v1";

using Entries = std::map<std::pair<std::string, std::string>, std::string>;  // (device, shape) -> setting

// Fields are tab-separated, one entry a line: tabs and line breaks inside a field become spaces.
std::string field(std::string text) {
  for (char& c : text)
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  return text;
}

// "<=1.25", ">3": the first of `bounds` that `value` does not exceed.
std::string bucket(double value, std::initializer_list<double> bounds) {
  std::ostringstream s;
  for (const double b : bounds)
    if (value <= b) {
      s << "<=" << b;
      return s.str();
    }
  s << ">" << *(bounds.end() - 1);
  return s.str();
}

// log2(value) rounded to 1/steps: "2^22.5".
std::string octave(double value, int steps) {
  std::ostringstream s;
  s << "2^" << std::round(std::log2(std::max(value, 1.0)) * steps) / steps;
  return s.str();
}

}  // namespace

std::string spmv_shape_key(const RowStats& s) {
  const double rows = std::max<double>(1.0, static_cast<double>(s.rows));
  const double nnz = std::max<double>(1.0, static_cast<double>(s.nnz));
  const double mean = std::max(s.mean, 1e-9);
  std::ostringstream key;
  key << "rows " << octave(rows, 4) << " per-row " << octave(s.mean, 8) << " spread "
      << bucket(s.stddev / mean, {0.1, 0.3, 1.0})
      << " longest " << bucket(static_cast<double>(s.max) / mean, {1.25, 2, 4, 16}) << " sell "
      << bucket(static_cast<double>(s.slice_slots) / nnz, {1.25, 1.8, 3}) << " dia "
      << bucket(static_cast<double>(s.diagonals) * rows / nnz, {1.25, 1.8, 3});
  if (s.block3) {
    const double block_rows = static_cast<double>(s.rows / 3);
    key << " blocks3 cds " << bucket(9 * static_cast<double>(s.block_diagonals) * block_rows / nnz, {1.25, 1.8, 3})
        << " bell " << bucket(9 * static_cast<double>(s.block_slice_slots) / nnz, {1.25, 1.8, 3});
  }
  return key.str();
}

fs::path spmv_cache_directory() {
  auto set = [](const char* name) -> const char* {
    const char* value = std::getenv(name);
    return value && *value ? value : nullptr;
  };
  if (const char* dir = set("FEM_CACHE_DIR")) return dir;
  if (const char* dir = set("XDG_CACHE_HOME")) return fs::path(dir) / "fem";
  if (const char* home = set("HOME")) return fs::path(home) / ".cache" / "fem";
  return {};
}

SpmvTuningCache::SpmvTuningCache(fs::path directory, Warn warn)
    : file_(directory.empty() ? fs::path() : directory / "spmv-tuning.txt"), warn_(std::move(warn)) {
  if (!warn_) warn_ = [](const std::string& line) { std::cerr << "fem: warning: " << line << "\n"; };
}

namespace {

// The entries of `file`; nothing (and a warning) when it exists but cannot be used.
std::optional<Entries> read_entries(const fs::path& file, const SpmvTuningCache::Warn& warn) {
  std::error_code error;
  if (file.empty() || !fs::exists(file, error)) return Entries{};
  std::ifstream in(file);
  std::string line;
  if (!in || !std::getline(in, line)) {
    warn("SpMV tuning cache " + file.string() + " cannot be read: ignored");
    return std::nullopt;
  }
  if (line != kHeader) {
    const bool versioned = line.rfind(kHeaderStem, 0) == 0;
    warn("SpMV tuning cache " + file.string() + (versioned ? " is from another version of fem" : " is corrupt") +
         ": ignored (rewritten when tuning stores)");
    return std::nullopt;
  }
  Entries entries;
  for (int number = 2; std::getline(in, line); ++number) {
    std::vector<std::string> fields;
    std::stringstream parts(line);
    for (std::string part; std::getline(parts, part, '\t');) fields.push_back(part);
    if (fields.size() != 3 || fields[0].empty() || fields[1].empty() || fields[2].empty()) {
      warn("SpMV tuning cache " + file.string() + ":" + std::to_string(number) + " is corrupt: the file is ignored");
      return std::nullopt;
    }
    entries[{fields[0], fields[1]}] = fields[2];
  }
  return entries;
}

}  // namespace

std::optional<std::string> SpmvTuningCache::find(const std::string& device, const std::string& shape) const {
  const auto entries = read_entries(file_, warn_);
  if (!entries) return std::nullopt;
  const auto it = entries->find({field(device), field(shape)});
  if (it == entries->end()) return std::nullopt;
  return it->second;
}

void SpmvTuningCache::store(const std::string& device, const std::string& shape, const std::string& setting) const {
  if (file_.empty()) return;
  Entries entries = read_entries(file_, [](const std::string&) {}).value_or(Entries{});  // find() warned already
  entries[{field(device), field(shape)}] = field(setting);
  std::ostringstream text;
  text << kHeader << "\n";
  for (const auto& [key, value] : entries) text << key.first << "\t" << key.second << "\t" << value << "\n";
  std::error_code error;
  fs::create_directories(file_.parent_path(), error);
  try {
    write_file_atomically(file_, text.str());  // readers see the old file or the new one
  } catch (const std::exception& e) {
    warn_(std::string(e.what()) + ": the tuned SpMV setting is not kept");
  }
}

}  // namespace fem::kernels
