#pragma once
// A private folder under the system's temporary directory for files that only live while one
// step runs (plot inputs, a picture before it is moved into place); removed with everything in
// it when the object goes out of scope, also when the step throws.
#include <filesystem>
#include <random>
#include <string>
#include <system_error>

namespace fem {

class ScratchDirectory {
 public:
  // `prefix` names the folder's purpose, e.g. "fem-render".
  explicit ScratchDirectory(const std::string& prefix)
      : path_(std::filesystem::temp_directory_path() / (prefix + "-" + std::to_string(std::random_device{}()))) {
    std::filesystem::create_directories(path_);
  }
  ~ScratchDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  ScratchDirectory(const ScratchDirectory&) = delete;
  ScratchDirectory& operator=(const ScratchDirectory&) = delete;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace fem
