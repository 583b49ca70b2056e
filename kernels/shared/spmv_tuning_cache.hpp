#pragma once
// The SpMV tuning cache on disk: the setting tuning chose, per device and matrix shape, so that a
// second run of a similar case skips the timing. One small text file, spmv-tuning.txt, in
// $FEM_CACHE_DIR, else $XDG_CACHE_HOME/fem, else ~/.cache/fem. A file that cannot be read, is
// corrupt or from another version is ignored with a one-line warning; it is rewritten whole
// through a temporary file and a rename, so a reader never sees half of one.
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "kernels/shared/sparse_formats.hpp"

namespace fem::kernels {

// The shape of a matrix as the cache compares it: rows and mean row length in steps of about
// 19 % and 9 %, and classes (at the model's thresholds) of row-length spread, padding, occupied
// diagonals and 3x3 blocks. Matrices alike in all of them share a tuned setting.
std::string spmv_shape_key(const RowStats& stats);

// $FEM_CACHE_DIR, else $XDG_CACHE_HOME/fem, else $HOME/.cache/fem; empty when none is set.
std::filesystem::path spmv_cache_directory();

class SpmvTuningCache {
 public:
  using Warn = std::function<void(const std::string&)>;
  // `warn` gets each one-line warning; by default they go to stderr as "fem: warning: ...".
  explicit SpmvTuningCache(std::filesystem::path directory = spmv_cache_directory(), Warn warn = {});

  // The setting stored for this device and shape, if any.
  std::optional<std::string> find(const std::string& device, const std::string& shape) const;
  // Stores (or replaces) the entry; a directory that cannot be written gets a warning, not an error.
  void store(const std::string& device, const std::string& shape, const std::string& setting) const;
  std::filesystem::path file() const { return file_; }

 private:
  std::filesystem::path file_;
  Warn warn_;
};

}  // namespace fem::kernels
