#include "bench/calculix/calculix_run.hpp"

#include <sys/wait.h>

#include <cmath>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <numbers>
#include <sstream>
#include <stdexcept>

#include "fem/output/external_command.hpp"
#include "support/stopwatch.hpp"

namespace fem::bench {
namespace {

namespace fs = std::filesystem;

// The last lines of ccx's log, for a failure's message; the *ERROR lines wherever they are.
struct LogDigest {
  std::string tail, errors;
  double reported_s = 0;
};

LogDigest digest_log(const fs::path& log) {
  std::ifstream in(log);
  std::deque<std::string> last;
  LogDigest digest;
  const std::string total = "Total CalculiX Time:";
  for (std::string line; std::getline(in, line);) {
    if (line.find("*ERROR") != std::string::npos) digest.errors += line + "\n";
    if (const auto at = line.find(total); at != std::string::npos)
      digest.reported_s = std::atof(line.c_str() + at + total.size());
    last.push_back(line);
    if (last.size() > 15) last.pop_front();
  }
  for (const auto& line : last) digest.tail += line + "\n";
  return digest;
}

}  // namespace

std::vector<double> read_calculix_eigenvalues(std::istream& dat, const std::string& source) {
  std::string line;
  while (std::getline(dat, line) && line.find("E I G E N V A L U E   O U T P U T") == std::string::npos) {
  }
  if (!dat) throw std::runtime_error(source + ": no eigenvalue table (E I G E N V A L U E   O U T P U T)");
  // Headings, then one line per mode: number, eigenvalue, then the frequency in rad and cycles
  // per time and the imaginary part; a blank line ends the table.
  std::vector<double> eigenvalues;
  int line_number = 0;
  while (std::getline(dat, line)) {
    ++line_number;
    std::istringstream fields(line);
    int mode = 0;
    double lambda = 0;
    if (!(fields >> mode)) {
      if (!eigenvalues.empty()) break;
      continue;  // a heading
    }
    if (!(fields >> lambda) || mode != static_cast<int>(eigenvalues.size()) + 1)
      throw std::runtime_error(source + ": line " + std::to_string(line_number) +
                               " of the eigenvalue table does not read as mode " +
                               std::to_string(eigenvalues.size() + 1) + ": '" + line + "'");
    eigenvalues.push_back(lambda);
  }
  if (eigenvalues.empty()) throw std::runtime_error(source + ": the eigenvalue table lists no mode");
  return eigenvalues;
}

CalculixRun run_calculix(const fs::path& deck, int threads, double time_limit_s) {
  if (!on_path("ccx")) throw std::runtime_error("ccx is not on PATH (Debian: apt-get install calculix-ccx)");
  if (deck.extension() != ".inp") throw std::runtime_error(deck.string() + ": a CalculiX deck is a .inp file");
  const fs::path folder = fs::absolute(deck).parent_path();
  const std::string job = deck.stem().string();
  const fs::path log = folder / (job + ".log");
  const std::string n = std::to_string(threads);
  const std::string command = "cd " + shell_quoted(folder.string()) + " && OMP_NUM_THREADS=" + n +
                              " NUMBER_OF_CPUS=" + n + " CCX_NPROC_EQUATION_SOLVER=" + n + " timeout -k 10 " +
                              std::to_string(static_cast<long long>(std::ceil(time_limit_s))) + " ccx -i " +
                              shell_quoted(job) + " >" + shell_quoted(log.string()) + " 2>&1";
  fs::remove(folder / (job + ".dat"));
  const Stopwatch clock;
  const int status = std::system(command.c_str());
  CalculixRun run;
  run.wall_s = clock.seconds();
  const LogDigest digest = digest_log(log);
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (code == 124 || code == 137)
    throw std::runtime_error("ccx on " + deck.string() + " passed its time limit of " + std::to_string(time_limit_s) +
                             " s and was stopped");
  if (code != 0 || !digest.errors.empty())
    throw std::runtime_error("ccx on " + deck.string() + " failed (exit " + std::to_string(code) + ")" +
                             (digest.errors.empty() ? "" : ":\n" + digest.errors) + "\nlast lines of " +
                             log.string() + ":\n" + digest.tail);
  std::ifstream dat(folder / (job + ".dat"));
  run.eigenvalues = read_calculix_eigenvalues(dat, (folder / (job + ".dat")).string());
  for (const double lambda : run.eigenvalues)
    run.frequencies_hz.push_back(std::sqrt(std::max(lambda, 0.0)) / (2 * std::numbers::pi));
  run.reported_s = digest.reported_s;
  return run;
}

}  // namespace fem::bench
