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

std::vector<fs::path> AtomicOutput::commit() {
  // Not every writer checks its writes (VTK's appended data does not): a file cut at the limit
  // would be moved into place as if whole.
  if (file_size_limit_reached())
    throw std::runtime_error(directory_.string() + ": a file reached this process's file-size limit (ulimit -f) while being "
                             "written; nothing was replaced");
  const SignalsHeld held;  // Ctrl-C here would leave some files new and the rest old
  std::vector<fs::path> written;
  for (const auto& [temporary, final_path] : staged_) {
    std::error_code ec;
    fs::rename(temporary, final_path, ec);
    if (ec) throw std::runtime_error(final_path.string() + ": cannot move the result into place: " + ec.message());
    unregister_temporary(temporary);
    written.push_back(final_path);
  }
  staged_.clear();
  return written;
}

}  // namespace fem
