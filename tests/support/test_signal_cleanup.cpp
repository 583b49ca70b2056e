// support/signal_cleanup: each case forks a child that installs the handlers and meets the
// signal, so the test process itself is never stopped.
#include <doctest/doctest.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>

#include "support/atomic_output.hpp"
#include "support/signal_cleanup.hpp"

namespace fs = std::filesystem;

namespace {

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("fem-signal-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// Runs `child` in a child process; returns its wait status.
template <class Child>
int in_child(Child&& child) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    fem::install_signal_cleanup();
    child();
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return status;
}

}  // namespace

TEST_CASE("SIGINT and SIGTERM while writing remove the staged files and leave the earlier ones whole") {
  for (int signal : {SIGINT, SIGTERM}) {
    CAPTURE(signal);
    const fs::path dir = fresh_dir("stop");
    std::ofstream(dir / "case.json") << "earlier\n";
    const int status = in_child([&] {
      fem::AtomicOutput output(dir);
      std::ofstream(output.stage("case.json")) << "half";
      std::ofstream(output.stage("case.vtu")) << "half";
      ::raise(signal);
    });
    CHECK(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == signal);
    std::size_t files = 0;
    for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir)) ++files;
    CHECK(files == 1);
    std::ifstream in(dir / "case.json");
    std::string text;
    std::getline(in, text);
    CHECK(text == "earlier");
    fs::remove_all(dir);
  }
}

TEST_CASE("the file-size limit makes the write fail instead of killing, and is told") {
  const fs::path dir = fresh_dir("fsize");
  const int status = in_child([&] {
    const rlimit limit{4096, 4096};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    bool failed = false;
    try {
      fem::AtomicOutput output(dir);
      output.stage_text("big.txt", std::string(100000, 'x'));
    } catch (const std::exception&) {
      failed = true;
    }
    ::_exit(!failed ? 5 : fem::file_size_limit_reached() ? 3 : 4);
  });
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 3);
  CHECK(fs::is_empty(dir));  // the staged temporary went with the failed output
  fs::remove_all(dir);
}
