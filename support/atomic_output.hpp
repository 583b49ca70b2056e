#pragma once
// Results appear all at once or not at all: files are written under temporary names and
// renamed into place only when every one of them is complete. Temporaries are removed when the
// output is dropped uncommitted, and when a signal stops the process (signal_cleanup.hpp).
#include <filesystem>
#include <string>
#include <vector>

namespace fem {

class AtomicOutput {
 public:
  explicit AtomicOutput(std::filesystem::path directory);
  ~AtomicOutput();  // removes temporaries that were never committed
  AtomicOutput(const AtomicOutput&) = delete;
  AtomicOutput& operator=(const AtomicOutput&) = delete;

  // The temporary path to write `name` to.
  std::filesystem::path stage(const std::string& name);
  // Stages `name` with `text` as its contents; returns the temporary path; throws naming the
  // file and the reason (errno).
  std::filesystem::path stage_text(const std::string& name, const std::string& text);
  // Renames every staged file to its final name; returns the final paths.
  std::vector<std::filesystem::path> commit();

 private:
  std::filesystem::path directory_;
  std::vector<std::pair<std::filesystem::path, std::filesystem::path>> staged_;  // temporary, final
};

// Writes one file all at once (CSV, JSON): `path` keeps its old contents until the new ones
// are complete. Throws std::runtime_error naming the file and the reason.
void write_file_atomically(const std::filesystem::path& path, const std::string& text);

}  // namespace fem
