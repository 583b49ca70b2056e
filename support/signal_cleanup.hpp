#pragma once
// What fem does when it is told to stop (SIGINT, SIGTERM, SIGHUP) or reaches the file-size
// limit (SIGXFSZ, `ulimit -f`): the temporaries registered here are removed, so no
// `.partial-PID` file is left beside earlier results, which stay as they were. SIGXFSZ does not
// kill: the write that crossed the limit fails (EFBIG), and AtomicOutput refuses to commit
// once file_size_limit_reached(), whether or not the writer noticed.
#include <filesystem>

namespace fem {

// Installs the handlers; call once, early in main.
void install_signal_cleanup();

// A file to remove if a signal ends the process before unregister_temporary(path). Safe to
// call from several threads. Beyond 256 registered at once a path is not registered (it is
// still removed on an ordinary exit by whoever owns it).
void register_temporary(const std::filesystem::path& path);
void unregister_temporary(const std::filesystem::path& path);

// True once a write has crossed the file-size limit of the process.
bool file_size_limit_reached();

// Holds SIGINT, SIGTERM and SIGHUP back while it lives (a signal that came meanwhile is
// delivered at its end), so that a set of renames is done whole.
class SignalsHeld {
 public:
  SignalsHeld();
  ~SignalsHeld();
  SignalsHeld(const SignalsHeld&) = delete;
  SignalsHeld& operator=(const SignalsHeld&) = delete;
};

}  // namespace fem
