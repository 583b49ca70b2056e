#pragma once
// Running CalculiX's `ccx` on a deck and reading its eigenvalues back.
#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

namespace fem::bench {

struct CalculixRun {
  std::vector<double> eigenvalues;   // (2 pi f)^2, lowest first, as the .dat lists them
  std::vector<double> frequencies_hz;
  double wall_s = 0;                 // the whole ccx process: reading the deck to writing the .dat
  double reported_s = 0;             // "Total CalculiX Time" from its own log (0 when absent)
};

// The eigenvalue table of a CalculiX .dat file (the block under "E I G E N V A L U E   O U T P U T").
// Throws std::runtime_error naming `source` when there is none or a line of it does not read.
std::vector<double> read_calculix_eigenvalues(std::istream& dat, const std::string& source);

// Runs `ccx` on `deck` (job.inp) in its folder with `threads` threads (OMP_NUM_THREADS and
// CalculiX's own thread variables), stopped after `time_limit_s`. Throws std::runtime_error when
// ccx is not on PATH, fails, passes the limit or reports an *ERROR (its log's last lines then).
CalculixRun run_calculix(const std::filesystem::path& deck, int threads, double time_limit_s);

}  // namespace fem::bench
