#include "support/atomic_output.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>
#include <system_error>

#include "support/signal_cleanup.hpp"

namespace fem {

namespace fs = std::filesystem;

AtomicOutput::AtomicOutput(fs::path directory) : directory_(std::move(directory)) {
  std::error_code ec;
  fs::create_directories(directory_, ec);
  if (ec) throw std::runtime_error(directory_.string() + ": cannot create the output directory: " + ec.message());
  // Said here, once, rather than by whichever writer (VTK's, say) first fails on a temporary.
  if (::access(directory_.c_str(), W_OK | X_OK) != 0)
    throw std::runtime_error(directory_.string() + ": cannot write to the output directory: " + std::strerror(errno));
}

AtomicOutput::~AtomicOutput() {
  for (const auto& [temporary, final_path] : staged_) {
    std::error_code ec;
    fs::remove(temporary, ec);
    unregister_temporary(temporary);
  }
}

fs::path AtomicOutput::stage(const std::string& name) {
  const fs::path final_path = directory_ / name;
  const fs::path temporary = directory_ / ("." + name + ".partial-" + std::to_string(::getpid()));
  staged_.emplace_back(temporary, final_path);
  register_temporary(temporary);
  return temporary;
}

fs::path AtomicOutput::stage_text(const std::string& name, const std::string& text) {
  const fs::path temporary = stage(name);
  std::ofstream out(temporary, std::ios::binary);
  out << text;
  out.flush();
  if (!out) throw std::runtime_error((directory_ / name).string() + ": cannot write: " + std::strerror(errno));
  return temporary;
}

void write_file_atomically(const fs::path& path, const std::string& text) {
  AtomicOutput output(path.parent_path().empty() ? fs::path(".") : path.parent_path());
  output.stage_text(path.filename().string(), text);
  output.commit();
}

namespace {

// Keeps what `final_path` holds now under `backup` (a second link to it, or a copy where the file
// system has no hard links); false when there is nothing there to keep.
bool keep_previous(const fs::path& final_path, const fs::path& backup) {
  std::error_code ec;
  if (!fs::is_regular_file(final_path, ec)) return false;
  fs::remove(backup, ec);
  fs::create_hard_link(final_path, backup, ec);
  if (ec) fs::copy_file(final_path, backup, fs::copy_options::overwrite_existing, ec);
  if (ec) throw std::runtime_error(final_path.string() + ": cannot keep the previous result while replacing it: " + ec.message());
  return true;
}

}  // namespace

std::vector<fs::path> AtomicOutput::commit() {
  // Not every writer checks its writes (VTK's appended data does not): a file cut at the limit
  // would be moved into place as if whole.
  if (file_size_limit_reached())
    throw std::runtime_error(directory_.string() + ": a file reached this process's file-size limit (ulimit -f) while being "
                             "written; nothing was replaced");
  const SignalsHeld held;  // Ctrl-C here would leave some files new and the rest old
  // All or nothing: each final name's previous file is kept aside until every rename is done, and
  // put back if one of them fails.
  struct Replacement {
    fs::path final_path, backup;
    bool had_previous = false;
  };
  std::vector<Replacement> replacements;
  for (const auto& [temporary, final_path] : staged_) {
    Replacement r{final_path, directory_ / ("." + final_path.filename().string() + ".previous-" + std::to_string(::getpid()))};
    register_temporary(r.backup);
    r.had_previous = keep_previous(final_path, r.backup);
    replacements.push_back(r);
  }
  const auto drop_backups = [&] {
    for (const auto& r : replacements) {
      std::error_code ec;
      fs::remove(r.backup, ec);
      unregister_temporary(r.backup);
    }
  };
  std::vector<fs::path> written;
  for (std::size_t i = 0; i < staged_.size(); ++i) {
    std::error_code ec;
    fs::rename(staged_[i].first, staged_[i].second, ec);
    if (ec) {
      for (std::size_t k = 0; k < i; ++k) {  // put the previous results back
        std::error_code ignored;
        if (replacements[k].had_previous) fs::rename(replacements[k].backup, replacements[k].final_path, ignored);
        else fs::remove(replacements[k].final_path, ignored);
      }
      drop_backups();
      throw std::runtime_error(staged_[i].second.string() + ": cannot move the result into place: " + ec.message() +
                               "; the earlier results were left as they were");
    }
    unregister_temporary(staged_[i].first);
    written.push_back(staged_[i].second);
  }
  staged_.clear();
  drop_backups();
  return written;
}

}  // namespace fem
