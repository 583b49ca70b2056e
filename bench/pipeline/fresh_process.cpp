#include "bench/pipeline/fresh_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <thread>

#include "support/stopwatch.hpp"

extern char** environ;

namespace fem::bench {

ProcessOutcome run_this_executable(const std::vector<std::string>& arguments, const std::filesystem::path& log,
                                   double time_limit_s) {
  std::vector<std::string> storage{"/proc/self/exe"};
  storage.insert(storage.end(), arguments.begin(), arguments.end());
  std::vector<char*> argv;
  for (auto& a : storage) argv.push_back(a.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_addopen(&files, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&files, 1, 2);
  pid_t pid = 0;
  const Stopwatch wall;
  const int spawned = posix_spawn(&pid, "/proc/self/exe", &files, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&files);
  if (spawned != 0) throw std::runtime_error(std::string("cannot start /proc/self/exe: ") + std::strerror(spawned));

  ProcessOutcome outcome;
  int status = 0;
  for (;;) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) throw std::runtime_error(std::string("waitpid: ") + std::strerror(errno));
    if (time_limit_s > 0 && wall.seconds() > time_limit_s) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      outcome.end = ProcessOutcome::End::OverTime;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  outcome.wall_s = wall.seconds();
  if (outcome.end == ProcessOutcome::End::Exited)
    outcome.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return outcome;
}

std::string last_line(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string line, last;
  while (std::getline(in, line))
    if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
  return last;
}

}  // namespace fem::bench
