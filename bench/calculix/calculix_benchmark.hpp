#pragma once
// `fem-bench-calculix`: a modal case's lowest modes by CalculiX's *FREQUENCY (SPOOLES and
// ARPACK, Debian's calculix-ccx) and by fem's eigen methods, side by side in one process on one
// mesh, made as `fem run` makes it: wall times, their ratio, the frequencies and their relative
// differences. `--write-inp` only writes the deck, for running ccx by hand.
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/calculix/calculix_run.hpp"
#include "fem/case/case.hpp"

namespace fem::bench {

// fem's rows: Lanczos on a direct factorisation (the method's name), or LOBPCG with AMG.
inline const std::vector<std::string> kFemModalMethods = {"multifrontal", "band-cholesky", "lobpcg"};

struct CalculixComparisonSettings {
  int modes = 10;
  std::vector<std::string> methods = kFemModalMethods;
  bool calculix = true;         // false: fem's rows alone
  int threads = 1;              // for ccx; fem runs on its OpenMP default
  double ccx_time_limit_s = 3600;
  bool verbose = false;         // fem's phase lines and mode tables on stdout
};

struct FemModalRow {
  std::string method;           // "lanczos-multifrontal", "lanczos-band-cholesky", "lobpcg-amg"
  std::string status = "ok";    // or "skipped: ...", "unavailable: ...", "failed: ..."
  double time_s = 0;            // renumber + assemble (K and M) + eigen solve
  double renumber_s = 0, assemble_s = 0, solve_s = 0;
  double max_residual = 0;
  std::vector<double> frequencies_hz;
  nlohmann::json eigen_solver;  // the run summary's figures (shift, block, restarts, solves, times)
};

struct CalculixComparison {
  std::string case_file, title, elements;  // elements: "12,000 hex20"
  long long nodes = 0, dofs = 0, fixed_dofs = 0;
  int modes = 0;
  std::string calculix_status = "ok";      // or why it has no row
  CalculixRun calculix;
  double deck_s = 0;                       // writing the deck (not in either time)
  std::vector<FemModalRow> fem;
};

// |a - b| / |b| per mode over the modes both have; the largest. Infinity when either is empty.
double max_relative_difference(const std::vector<double>& a, const std::vector<double>& b);

// Writes the CalculiX deck of case `c` (modal, 3D elasticity) for `modes` modes to `path`.
void write_calculix_deck_file(const Case& c, int modes, const std::filesystem::path& path);

// Runs ccx and each of fem's methods on the mesh of `c` (analysis.modes replaced by settings.modes);
// `measured` (when set) sees the comparison so far after each code, so a long run that is stopped
// keeps what it measured.
CalculixComparison compare_with_calculix(const Case& c, const CalculixComparisonSettings& settings,
                                         const std::function<void(const CalculixComparison&)>& measured = {});

nlohmann::json comparison_json(const CalculixComparison& comparison);

int run_calculix_benchmark(int argc, char** argv);

}  // namespace fem::bench
