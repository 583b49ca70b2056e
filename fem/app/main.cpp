// The `fem` command line.
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <exception>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "bench/assembly/assembly_benchmark.hpp"
#include "bench/band/band_benchmark.hpp"
#include "bench/dense/dense_benchmark.hpp"
#include "bench/frontal/frontal_benchmark.hpp"
#include "bench/spmv/spmv_benchmark.hpp"
#include "fem/app/render_command.hpp"
#include "fem/app/renumber_command.hpp"
#include "fem/app/run_case.hpp"
#include "fem/config.hpp"
#include "fem/parallel/mpi_launch.hpp"
#include "fem/study/combination.hpp"
#include "fem/study/compare_case.hpp"
#include "fem/study/study_file.hpp"
#include "fem/study/study_writer.hpp"
#include "fem/study/sweep.hpp"
#include "solvers/linear_solver.hpp"

namespace {

const char* kUsage = R"(fem: finite elements with embedded direct, frontal and iterative solvers

usage:
  fem run CASE.yaml [options]   mesh, assemble, solve and write results for a case
  fem renumber CASE.yaml [--plot] [--renumber METHOD] [--output DIR]
                                bandwidth, profile, wavefront and front of every renumbering
                                method on the case's mesh; --plot draws the pattern before and
                                after METHOD (default: the case's, or rcm) as a PNG
  fem compare CASE.yaml --solvers METHOD:DEVICE,... [options]
                                solve the case's system with every solver in one process (meshed
                                and assembled once per renumbering): times, memory, factor size,
                                iterations, residual and agreement with the first solver; writes
                                compare.csv, compare.json, report.md and PNG plots to one folder
  fem sweep STUDY.yaml [--repeat N] [--time-budget S] [--output DIR]
                                a study file (cases/README.md): the case at each mesh size, small
                                to large, every solver until it passes the budget; adds log-log
                                growth fits of time and memory against dofs
  fem report DIR                redraw report.md and the plots of a study folder from its
                                compare.json (e.g. one run on a machine without matplotlib)
  fem render CASE.yaml [--output DIR] [--png FILE]
                                draw the results `fem run` left (the <case>-view.py beside them) to
                                a PNG offscreen with ParaView's pvbatch (default DIR/<case>.png)
  fem bench NAME [options]      run a benchmark: assembly | band | dense | frontal | spmv
                                (fem bench NAME --help lists its options)
  fem --version                 print the version and what this build includes
  fem --help                    this text

options of 'fem run':
  --solver METHOD        band-cholesky | frontal | cg | bicgstab | band-gauss | band-ldlt | petsc | mumps
                                                               (case: solver.method)
  --device DEVICE        cpu | cuda | opencl                   (case: solver.device)
  --renumber METHOD      none | rcm | gps | sloan | auto       (case: solver.renumber)
  --preconditioner NAME  none | jacobi | block-jacobi | ssor   (case: solver.preconditioner)
  --precision P          double | mixed: direct solvers factor in FP32 and refine (case: solver.precision)
  --tolerance TOL        relative residual of iterative solvers (case: solver.tolerance)
  --output DIR           results directory                     (case: output.directory)

options of 'fem compare':
  --solvers LIST         method:device pairs, comma-separated; the first is the reference,
                         e.g. band-cholesky:cpu,frontal:cpu,frontal:opencl,cg:cpu,cg:cuda
  --renumber LIST        none,rcm,gps,sloan,auto: every solver under each (default: the case's)
  --repeat N             timed solves per row, each with a fresh solver; tables give the median
                         and the min-max (default 1)
  --tolerance T          agreement threshold: a row agrees when the largest nodal difference from
                         the reference, relative to the reference's largest value, is <= T (1e-6)
  --solver-tolerance T   relative residual of the iterative solvers (case: solver.tolerance)
  --preconditioner NAME, --precision P   as for 'fem run'
  --output DIR           the study folder (default: <results directory>/<case>-compare)
A solver that is not in this build, has no device here or fails on the system is a row with
its status (unavailable, failed), and the study goes on.

A run writes DIR/<case>.vtu (open it in ParaView), DIR/<case>.json (the run summary) and, with
VTK, DIR/<case>-view.py (a ParaView script: paraview --script=DIR/<case>-view.py, or fem render).
The case-file keys are described in cases/README.md.
)";

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

double number_option(const std::string& option, const std::string& text) {
  try {
    std::size_t used = 0;
    const double v = std::stod(text, &used);
    if (used == text.size()) return v;
  } catch (const std::exception&) {
  }
  throw UsageError(option + " " + text + ": not a number");
}

int count_option(const std::string& option, const std::string& text) {
  const double v = number_option(option, text);
  if (v < 1 || v != static_cast<int>(v)) throw UsageError(option + " " + text + ": expected a positive integer");
  return static_cast<int>(v);
}

std::vector<std::string> comma_list(const std::string& text) {
  std::vector<std::string> out;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const auto end = std::min(text.find(',', begin), text.size());
    out.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  return out;
}

// "fem compare case.yaml --solvers ...": how the report says to rerun it.
std::string command_line(const std::vector<std::string>& args) {
  std::string line = "fem";
  for (const auto& a : args) line += " " + a;
  return line;
}

// The options shared by `fem run` and `fem renumber`; returns the case file.
std::string parse_case_options(const std::vector<std::string>& args, fem::RunOverrides& overrides, bool* plot) {
  std::string case_file;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> const std::string& {
      if (i + 1 >= args.size()) throw UsageError(a + " needs a value");
      return args[++i];
    };
    if (a == "--solver") overrides.method = value();
    else if (a == "--device") overrides.device = value();
    else if (a == "--renumber") overrides.renumber = value();
    else if (a == "--preconditioner") overrides.preconditioner = value();
    else if (a == "--precision") overrides.precision = value();
    else if (a == "--output") overrides.output_directory = value();
    else if (a == "--plot" && plot) *plot = true;
    else if (a == "--tolerance") overrides.tolerance = number_option(a, value());
    else if (!a.empty() && a[0] == '-') throw UsageError("unknown option " + a);
    else if (case_file.empty()) case_file = a;
    else throw UsageError("more than one case file: " + case_file + " and " + a);
  }
  if (case_file.empty()) throw UsageError("a case file is needed");
  return case_file;
}

// `fem bench NAME ...`: each benchmark parses its own options (argv[0] is its name).
int bench_command(const std::vector<std::string>& args) {
  using Benchmark = int (*)(int, char**);
  const std::vector<std::pair<std::string, Benchmark>> benchmarks = {
      {"assembly", fem::bench::run_assembly_benchmark},
      {"band", fem::bench::run_band_benchmark},
      {"dense", fem::bench::run_dense_benchmark},
      {"frontal", fem::bench::run_frontal_benchmark},
      {"spmv", fem::bench::run_spmv_benchmark},
  };
  std::string names;
  for (const auto& [name, run] : benchmarks) names += (names.empty() ? "" : ", ") + name;
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    std::cout << "fem bench NAME [options], NAME one of: " << names << " (fem bench NAME --help lists its options)\n";
    return args.empty() ? 2 : 0;
  }
  for (const auto& [name, run] : benchmarks) {
    if (args[0] != name) continue;
    std::vector<std::string> storage(args);
    std::vector<char*> argv;
    for (auto& a : storage) argv.push_back(a.data());
    argv.push_back(nullptr);
    return run(static_cast<int>(storage.size()), argv.data());
  }
  throw UsageError("unknown benchmark '" + args[0] + "' (available: " + names + ")");
}

// `fem compare CASE --solvers ...`.
int compare_command(const std::vector<std::string>& args) {
  fem::RunOverrides overrides;
  fem::study::CompareSettings settings;
  std::string case_file;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> const std::string& {
      if (i + 1 >= args.size()) throw UsageError(a + " needs a value");
      return args[++i];
    };
    if (a == "--solvers") {
      try {
        settings.combinations = fem::study::parse_combinations(value());
      } catch (const std::invalid_argument& e) {
        throw UsageError(std::string("--solvers: ") + e.what());
      }
    } else if (a == "--renumber") {
      for (const auto& r : comma_list(value())) {
        if (std::none_of(fem::kRenumberMethods.begin(), fem::kRenumberMethods.end(), [&](const char* m) { return r == m; }))
          throw UsageError("--renumber: '" + r + "' is not one of none, rcm, gps, sloan, auto");
        settings.renumberings.push_back(r);
      }
    } else if (a == "--repeat") settings.repeat = count_option(a, value());
    else if (a == "--tolerance") {
      settings.tolerance = number_option(a, value());
      if (!(settings.tolerance >= 0)) throw UsageError("--tolerance must not be negative");
    } else if (a == "--solver-tolerance") overrides.tolerance = number_option(a, value());
    else if (a == "--preconditioner") overrides.preconditioner = value();
    else if (a == "--precision") overrides.precision = value();
    else if (a == "--output") overrides.output_directory = value();
    else if (!a.empty() && a[0] == '-') throw UsageError("unknown option " + a + " of 'fem compare'");
    else if (case_file.empty()) case_file = a;
    else throw UsageError("more than one case file: " + case_file + " and " + a);
  }
  if (case_file.empty()) throw UsageError("fem compare needs a case file");
  if (settings.combinations.empty()) throw UsageError("fem compare needs --solvers, e.g. --solvers band-cholesky:cpu,cg:cpu");
  // The results directory of the case, unless --output names the study folder itself.
  const auto output = overrides.output_directory;
  overrides.output_directory.reset();
  const auto result = fem::study::compare_case(case_file, overrides, settings, command_line(args), std::cout);
  const std::filesystem::path case_dir = fem::load_case(case_file).output.directory;
  fem::study::write_study(result, output ? std::filesystem::absolute(*output)
                                         : case_dir / (std::filesystem::path(case_file).stem().string() + "-compare"),
                          std::cout);
  return 0;
}

// `fem sweep STUDY [--repeat N] [--time-budget S] [--output DIR]`.
int sweep_command(const std::vector<std::string>& args) {
  std::string file;
  std::optional<int> repeat;
  std::optional<double> time_budget;
  std::optional<std::filesystem::path> output;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> const std::string& {
      if (i + 1 >= args.size()) throw UsageError(a + " needs a value");
      return args[++i];
    };
    if (a == "--repeat") repeat = count_option(a, value());
    else if (a == "--time-budget") {
      time_budget = number_option(a, value());
      if (!(*time_budget > 0)) throw UsageError("--time-budget must be positive (seconds)");
    } else if (a == "--output") output = std::filesystem::absolute(value());
    else if (!a.empty() && a[0] == '-') throw UsageError("unknown option " + a + " of 'fem sweep'");
    else if (file.empty()) file = a;
    else throw UsageError("more than one study file: " + file + " and " + a);
  }
  if (file.empty()) throw UsageError("fem sweep needs a study file");
  auto study = fem::study::load_study(file);
  if (repeat) study.settings.repeat = *repeat;
  if (time_budget) study.settings.budget.time_s = *time_budget;
  if (output) study.output = *output;
  const auto result = fem::study::run_sweep(study, command_line(args), std::cout, [&](const fem::study::StudyResult& so_far) {
    fem::study::write_study_checkpoint(so_far, study.output);
  });
  fem::study::write_study(result, study.output, std::cout);
  return 0;
}

// `fem report DIR`: the report and plots again, from the study's own compare.json.
int report_command(const std::vector<std::string>& args) {
  if (args.size() != 2 || args[1].empty() || args[1][0] == '-') throw UsageError("fem report needs one study folder");
  const std::filesystem::path dir = std::filesystem::absolute(args[1]);
  std::ifstream in(dir / "compare.json");
  if (!in) throw std::runtime_error((dir / "compare.json").string() + ": not found (a folder written by fem compare or fem sweep?)");
  fem::study::StudyResult result;
  try {
    result = fem::study::study_from_json(nlohmann::json::parse(in));
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error((dir / "compare.json").string() + ": not a study written by fem: " + e.what());
  }
  fem::study::write_study(result, dir, std::cout);
  return 0;
}

// `fem render CASE [--output DIR] [--png FILE]`.
int render_command(const std::vector<std::string>& args) {
  fem::RunOverrides overrides;
  std::filesystem::path png;
  std::string case_file;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> const std::string& {
      if (i + 1 >= args.size()) throw UsageError(a + " needs a value");
      return args[++i];
    };
    if (a == "--output") overrides.output_directory = value();
    else if (a == "--png") png = value();
    else if (!a.empty() && a[0] == '-') throw UsageError("unknown option " + a + " of 'fem render'");
    else if (case_file.empty()) case_file = a;
    else throw UsageError("more than one case file: " + case_file + " and " + a);
  }
  if (case_file.empty()) throw UsageError("fem render needs a case file");
  fem::render_case(case_file, overrides, png, std::cout);
  return 0;
}

void print_version() {
  std::cout << "fem " << FEM_VERSION << "\n"
            << "  gmsh " << (FEM_WITH_GMSH ? "yes" : "no") << ", vtk " << (FEM_WITH_VTK ? "yes" : "no") << ", cuda "
            << (FEM_WITH_CUDA ? "yes" : "no") << ", opencl " << (FEM_WITH_OPENCL ? "yes" : "no")
            << ", petsc " << (FEM_WITH_PETSC ? "yes" : "no") << "\n  solvers:";
  for (const auto& s : fem::available_solvers()) std::cout << " " << s;
  std::cout << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  try {
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
      std::cout << kUsage;
      return args.empty() ? 2 : 0;
    }
    if (args[0] == "--version" || args[0] == "version") {
      print_version();
      return 0;
    }
    if (args[0] == "run") {
      if (args.size() > 1 && (args[1] == "--help" || args[1] == "-h")) {
        std::cout << kUsage;
        return 0;
      }
      fem::RunOverrides overrides;
      const auto file = parse_case_options({args.begin() + 1, args.end()}, overrides, nullptr);
      fem::run_case(file, overrides, std::cout);
      return 0;
    }
    if (fem::launched_ranks() > 1)  // every rank would redo the whole study and write the same files
      throw UsageError("fem " + args[0] + " runs in one process; under mpirun only 'fem run' (--solver petsc or mumps) spreads over the ranks");
    const bool help = args.size() > 1 && (args[1] == "--help" || args[1] == "-h");
    if (help && (args[0] == "compare" || args[0] == "sweep" || args[0] == "render" || args[0] == "report")) {
      std::cout << kUsage;
      return 0;
    }
    if (args[0] == "compare") return compare_command(args);
    if (args[0] == "sweep") return sweep_command(args);
    if (args[0] == "render") return render_command(args);
    if (args[0] == "report") return report_command(args);
    if (args[0] == "bench") return bench_command({args.begin() + 1, args.end()});
    if (args[0] == "renumber") {
      fem::RunOverrides overrides;
      fem::RenumberReportOptions options;
      const auto file = parse_case_options({args.begin() + 1, args.end()}, overrides, &options.plot);
      fem::renumber_report(file, overrides, options, std::cout);
      return 0;
    }
    throw UsageError("unknown command '" + args[0] + "'");
  } catch (const UsageError& e) {
    std::cerr << "fem: " << e.what() << "\n(fem --help lists the commands and options)\n";
    return 2;
  } catch (const std::exception& e) {
    std::cout << std::flush;
    std::cerr << "\nfem: error: " << e.what() << "\n";
    return 1;
  }
}
