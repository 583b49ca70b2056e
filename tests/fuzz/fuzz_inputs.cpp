// A deterministic mutation fuzzer for fem's input readers: the case file (YAML), the .msh path
// (our check, then Gmsh, then the mesh checks), the Matrix Market reader, the check a .geo file
// passes before Gmsh reads it (Gmsh itself is not fuzzed: a mutated .geo can mesh for as long as
// it likes) and the check of solver.petsc_options text. Each input of the corpus is mutated
// (fixed seed) and handed to its reader in a child process; a reader may refuse it with an
// exception, but a signal (crash), a hang or an exception that is not a std::exception is a
// failure. Crashing inputs are kept for reproduction.
//
//   fuzz_inputs CORPUS_DIR [--seconds S] [--iterations N] [--seed K] [--crashes DIR] [--corpus-only] [--reader NAME]
//
// CORPUS_DIR holds case/, mtx/, msh/, geo/ and petsc/; S (default 20) and N bound each target.
// --corpus-only runs the corpus files unmutated (the sanitizer build does this, then mutates);
// --reader runs one target (a longer run of one reader).
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "bench/spmv/matrix_market_reader.hpp"
#include "fem/case/case.hpp"
#include "fem/case/petsc_options_check.hpp"
#include "fem/config.hpp"
#include "fem/mesh/geo_file_check.hpp"
#include "fem/resources/case_fit.hpp"
#include "support/host_memory.hpp"
#include "support/stopwatch.hpp"
#if FEM_WITH_GMSH
#include "fem/mesh/gmsh_mesh.hpp"
#endif

namespace fs = std::filesystem;

namespace {

struct Target {
  std::string name;       // corpus subfolder
  std::string extension;  // the file name the reader sees
  std::function<void(const fs::path&)> read;
};

// Values that break readers that trust their input.
const std::vector<std::string> kInteresting = {
    "-1", "0", "2147483647", "2147483648", "-2147483649", "4294967297", "18446744073709551617", "nan", "inf",
    "-inf", "1e999", ".nan", ".inf", "1e-300", "abc", "", "999999999", "3.5", "[", "{", "\xff\xfe", "$EndNodes",
    "$Elements", "'", "&a", "*a", "!!binary", "\t"};

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class Mutator {
 public:
  explicit Mutator(std::uint64_t seed) : rng_(seed) {}

  std::string mutate(std::string text) {
    const int count = 1 + pick(4);
    for (int m = 0; m < count; ++m) {
      if (text.empty()) text = "x";
      switch (pick(7)) {
        case 0:  // a byte changed
          text[pick(text.size())] = static_cast<char>(pick(256));
          break;
        case 1: {  // a span deleted
          const auto at = pick(text.size());
          text.erase(at, 1 + pick(std::min<std::size_t>(32, text.size() - at)));
          break;
        }
        case 2:  // a number replaced by an interesting value
          replace_token(text, kInteresting[pick(kInteresting.size())]);
          break;
        case 3: {  // a line repeated elsewhere
          const auto lines = split_lines(text);
          const auto& line = lines[pick(lines.size())];
          text.insert(line_start(text, pick(lines.size())), line + "\n");
          break;
        }
        case 4:  // truncated
          text.resize(pick(text.size() + 1));
          break;
        case 5:  // a number changed by one, or negated
          replace_token(text, "");
          break;
        default: {  // random bytes inserted
          std::string junk(1 + pick(8), ' ');
          for (char& c : junk) c = static_cast<char>(pick(256));
          text.insert(pick(text.size() + 1), junk);
        }
      }
    }
    return text;
  }

 private:
  std::size_t pick(std::size_t n) { return n == 0 ? 0 : std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_); }

  static std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t begin = 0;
    while (begin <= text.size()) {
      const auto end = std::min(text.find('\n', begin), text.size());
      lines.push_back(text.substr(begin, end - begin));
      begin = end + 1;
    }
    return lines;
  }
  static std::size_t line_start(const std::string& text, std::size_t line) {
    std::size_t at = 0;
    for (std::size_t l = 0; l < line && at < text.size(); ++l) at = std::min(text.find('\n', at), text.size()) + 1;
    return std::min(at, text.size());
  }

  // Replaces one run of digits (with its sign) by `value`, or when empty by a neighbour value.
  void replace_token(std::string& text, const std::string& value) {
    std::vector<std::size_t> starts;
    for (std::size_t i = 0; i < text.size(); ++i)
      if (std::isdigit(static_cast<unsigned char>(text[i])) && (i == 0 || !std::isdigit(static_cast<unsigned char>(text[i - 1]))))
        starts.push_back(i);
    if (starts.empty()) return;
    const auto begin = starts[pick(starts.size())];
    auto end = begin;
    while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
    std::string replacement = value;
    if (replacement.empty()) {
      const long long v = std::atoll(text.substr(begin, std::min<std::size_t>(end - begin, 18)).c_str());
      replacement = std::to_string(pick(2) ? v + 1 : -v);
    }
    text.replace(begin, end - begin, replacement);
  }

  std::mt19937_64 rng_;
};

// Runs `read` on `file` in a child; returns "" when it returned or threw a std::exception,
// else what went wrong.
std::string run_isolated(const Target& target, const fs::path& file) {
  std::fflush(stdout);
  const pid_t child = ::fork();
  if (child == 0) {
    ::alarm(30);  // a hang ends as SIGALRM
    // The readers' own output is not ours to judge.
    for (FILE* stream : {stdout, stderr})
      if (!std::freopen("/dev/null", "w", stream)) std::_Exit(4);
    try {
      target.read(file);
    } catch (const std::exception&) {
    } catch (...) {
      std::_Exit(3);
    }
    std::_Exit(0);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  if (WIFSIGNALED(status)) return "signal " + std::to_string(WTERMSIG(status));
  if (WEXITSTATUS(status) == 3) return "an exception that is not a std::exception";
  if (WEXITSTATUS(status) == 4) return "no /dev/null to silence the reader";
  if (WEXITSTATUS(status) != 0) return "exit status " + std::to_string(WEXITSTATUS(status));
  return {};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: fuzz_inputs CORPUS_DIR [--seconds S] [--iterations N] [--seed K] [--crashes DIR] [--corpus-only] [--reader NAME]\n");
    return 2;
  }
  const fs::path corpus = argv[1];
  double seconds = 20;
  long long max_iterations = 1LL << 40;
  std::uint64_t seed = 20261123;
  fs::path crashes = "fuzz-crashes";
  bool corpus_only = false;
  std::string only;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    const auto value = [&] { return i + 1 < argc ? std::string(argv[++i]) : std::string(); };
    if (a == "--seconds") seconds = std::atof(value().c_str());
    else if (a == "--iterations") max_iterations = std::atoll(value().c_str());
    else if (a == "--seed") seed = std::strtoull(value().c_str(), nullptr, 10);
    else if (a == "--crashes") crashes = value();
    else if (a == "--corpus-only") corpus_only = true;
    else if (a == "--reader") only = value();
    else {
      std::fprintf(stderr, "fuzz_inputs: unknown option %s\n", a.c_str());
      return 2;
    }
  }

  std::vector<Target> targets = {
      {"case", "case.yaml",
       [](const fs::path& f) {
         const fem::Case c = fem::load_case(f);
         fem::resources::require_mesh_fits(c, fem::host_available_memory());
       }},
      {"mtx", "matrix.mtx", [](const fs::path& f) { fem::bench::read_matrix_market(f.string()); }},
      {"geo", "part.geo", [](const fs::path& f) { fem::check_geo_file(f); }},
      {"petsc", "options.txt", [](const fs::path& f) { fem::petsc_options_problem(read_file(f)); }},
  };
#if FEM_WITH_GMSH
  targets.push_back({"msh", "mesh.msh", [](const fs::path& f) { fem::mesh_from_msh(f); }});
#endif

  if (!only.empty() && std::none_of(targets.begin(), targets.end(), [&](const Target& t) { return t.name == only; })) {
    std::fprintf(stderr, "fuzz_inputs: no reader '%s' (case, mtx, geo, petsc, msh)\n", only.c_str());
    return 2;
  }
  const fs::path work = fs::temp_directory_path() / ("fem-fuzz-" + std::to_string(::getpid()));
  fs::create_directories(work);
  Mutator mutator(seed);
  long long total = 0, failures = 0;
  for (const auto& target : targets) {
    if (!only.empty() && target.name != only) continue;
    std::vector<std::string> inputs;
    for (const auto& entry : fs::directory_iterator(corpus / target.name)) inputs.push_back(read_file(entry.path()));
    if (inputs.empty()) {
      std::fprintf(stderr, "fuzz_inputs: no corpus in %s\n", (corpus / target.name).c_str());
      return 2;
    }
    const fem::Stopwatch fuzzing;
    long long iterations = 0, failed = 0;
    const long long limit = corpus_only ? static_cast<long long>(inputs.size()) : max_iterations;
    while (iterations < limit && (corpus_only || fuzzing.seconds() < seconds)) {
      const std::string& original = inputs[static_cast<std::size_t>(iterations) % inputs.size()];
      const std::string text = corpus_only ? original : mutator.mutate(original);
      const fs::path file = work / target.extension;
      std::ofstream(file, std::ios::binary) << text;
      const std::string problem = run_isolated(target, file);
      ++iterations;
      if (problem.empty()) continue;
      ++failed;
      fs::create_directories(crashes);
      const fs::path kept = crashes / (target.name + "-" + std::to_string(iterations) + "-" + target.extension);
      std::ofstream(kept, std::ios::binary) << text;
      std::printf("  %s: %s on input %lld, kept as %s\n", target.name.c_str(), problem.c_str(), iterations, kept.c_str());
    }
    std::printf("fuzz %-5s %8lld inputs in %6.1f s, %lld failures (seed %llu)\n", target.name.c_str(), iterations, fuzzing.seconds(),
                failed, static_cast<unsigned long long>(seed));
    total += iterations;
    failures += failed;
  }
  fs::remove_all(work);
  std::printf("fuzz total %lld inputs, %lld failures\n", total, failures);
  return failures == 0 ? 0 : 1;
}
