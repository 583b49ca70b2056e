// The `fem` command line.
#include <cstring>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "bench/assembly/assembly_benchmark.hpp"
#include "bench/band/band_benchmark.hpp"
#include "bench/dense/dense_benchmark.hpp"
#include "bench/frontal/frontal_benchmark.hpp"
#include "bench/spmv/spmv_benchmark.hpp"
#include "fem/app/renumber_command.hpp"
#include "fem/app/run_case.hpp"
#include "fem/config.hpp"
#include "solvers/linear_solver.hpp"

namespace {

const char* kUsage = R"(fem: finite elements with embedded direct, frontal and iterative solvers

usage:
  fem run CASE.yaml [options]   mesh, assemble, solve and write results for a case
  fem renumber CASE.yaml [--plot] [--renumber METHOD] [--output DIR]
                                bandwidth, profile, wavefront and front of every renumbering
                                method on the case's mesh; --plot draws the pattern before and
                                after METHOD (default: the case's, or rcm) as a PNG
  fem bench NAME [options]      run a benchmark: assembly | band | dense | frontal | spmv
                                (fem bench NAME --help lists its options)
  fem --version                 print the version and what this build includes
  fem --help                    this text

options of 'fem run':
  --solver METHOD        band-cholesky | frontal | cg | bicgstab | band-gauss | band-ldlt
                                                               (case: solver.method)
  --device DEVICE        cpu | cuda | opencl                   (case: solver.device)
  --renumber METHOD      none | rcm | gps | sloan | auto       (case: solver.renumber)
  --preconditioner NAME  none | jacobi | block-jacobi | ssor   (case: solver.preconditioner)
  --precision P          double | mixed: direct solvers factor in FP32 and refine (case: solver.precision)
  --tolerance TOL        relative residual of iterative solvers (case: solver.tolerance)
  --output DIR           results directory                     (case: output.directory)

A run writes DIR/<case>.vtu (open it in ParaView) and DIR/<case>.json (the run summary).
The case-file keys are described in cases/README.md.
)";

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

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
    else if (a == "--tolerance") {
      const std::string& v = value();
      try {
        overrides.tolerance = std::stod(v);
      } catch (const std::exception&) {
        throw UsageError("--tolerance " + v + ": not a number");
      }
    } else if (!a.empty() && a[0] == '-') throw UsageError("unknown option " + a);
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

void print_version() {
  std::cout << "fem " << FEM_VERSION << "\n"
            << "  gmsh " << (FEM_WITH_GMSH ? "yes" : "no") << ", vtk " << (FEM_WITH_VTK ? "yes" : "no") << ", cuda "
            << (FEM_WITH_CUDA ? "yes" : "no") << ", opencl " << (FEM_WITH_OPENCL ? "yes" : "no") << "\n  solvers:";
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
