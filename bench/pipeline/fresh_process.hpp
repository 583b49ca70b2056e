#pragma once
// One run in a process of its own: peak resident memory is per process, so a size measured in
// the process that ran a smaller one (or the benchmark's own arrays) would report their peak.
#include <filesystem>
#include <string>
#include <vector>

namespace fem::bench {

struct ProcessOutcome {
  enum class End { Exited, OverTime } end = End::Exited;
  int exit_code = 0;
  double wall_s = 0;
};

// Runs this executable (/proc/self/exe) with `arguments` (argv[1] on), its stdout and stderr
// into `log`; kills it once it has run `time_limit_s` (0: no limit).
ProcessOutcome run_this_executable(const std::vector<std::string>& arguments, const std::filesystem::path& log,
                                   double time_limit_s);

// The last non-empty line of `file` (what a failed run said last), or "".
std::string last_line(const std::filesystem::path& file);

}  // namespace fem::bench
