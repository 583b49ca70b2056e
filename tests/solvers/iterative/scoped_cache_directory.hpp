#pragma once
// A fresh, empty SpMV tuning cache for one test: FEM_CACHE_DIR points at a new temporary folder
// while the object lives (the folder is removed, the variable restored, after).
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>

#include <unistd.h>

namespace fem::testing {

class ScopedCacheDirectory {
 public:
  ScopedCacheDirectory() {
    if (const char* old = std::getenv("FEM_CACHE_DIR")) previous_ = old;
    std::string pattern = (std::filesystem::temp_directory_path() / "fem-cache-test-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("cannot make a temporary folder " + pattern);
    path_ = pattern;
    ::setenv("FEM_CACHE_DIR", path_.c_str(), 1);
  }
  ~ScopedCacheDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
    if (previous_) ::setenv("FEM_CACHE_DIR", previous_->c_str(), 1);
    else ::unsetenv("FEM_CACHE_DIR");
  }
  ScopedCacheDirectory(const ScopedCacheDirectory&) = delete;
  ScopedCacheDirectory& operator=(const ScopedCacheDirectory&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  std::optional<std::string> previous_;
};

}  // namespace fem::testing
