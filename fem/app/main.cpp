// The `fem` command line: one CLI11 subcommand per command, each with its own --help; the
// choices come from the lists the case file is checked against.
#include <CLI/CLI.hpp>

#include <filesystem>
#include <fstream>
#include <exception>
#include <iostream>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "bench/assembly/assembly_benchmark.hpp"
#include "bench/band/band_benchmark.hpp"
#include "bench/dense/dense_benchmark.hpp"
#include "bench/frontal/frontal_benchmark.hpp"
#include "bench/pipeline/pipeline_benchmark.hpp"
#include "bench/renumber/renumber_benchmark.hpp"
#include "bench/spmv/spmv_benchmark.hpp"
#include "fem/app/check_command.hpp"
#include "fem/app/render_command.hpp"
#include "fem/app/renumber_command.hpp"
#include "fem/app/solvers_command.hpp"
#include "fem/app/run_command.hpp"
#include "fem/case/case_settings.hpp"
#include "fem/config.hpp"
#include "fem/parallel/mpi_launch.hpp"
#include "fem/study/combination.hpp"
#include "fem/study/compare_case.hpp"
#include "fem/study/study_file.hpp"
#include "fem/study/study_writer.hpp"
#include "fem/study/sweep.hpp"
#include "solvers/eigen_table.hpp"
#include "solvers/iterative/preconditioner.hpp"
#include "solvers/linear_solver.hpp"
#include "solvers/solver_table.hpp"
#include "support/command_line.hpp"
#include "support/signal_cleanup.hpp"

namespace {

namespace fs = std::filesystem;

const char* kFooter = R"(
A run writes DIR/<case>.vtu (open it in ParaView), DIR/<case>.json (the run summary) and, with
VTK, DIR/<case>-view.py (a ParaView script: paraview --script=DIR/<case>-view.py, or fem render).
The case-file keys are described in cases/README.md; `fem COMMAND --help` gives a command's options.)";

std::vector<std::string> names(const std::vector<const char*>& list) { return {list.begin(), list.end()}; }

// "fem compare case.yaml --solvers ...": how the report says to rerun it.
std::string command_line(int argc, char** argv) {
  std::string line = "fem";
  for (int i = 1; i < argc; ++i) line += " " + std::string(argv[i]);
  return line;
}

void add_set_and_quiet(CLI::App* command, fem::RunOverrides& overrides) {
  command->add_option("--set", overrides.settings, "a case key, key.path=value (mesh.size=0.01, solver.tolerance=1e-8); "
                                                   "checked as if written in the file; repeatable")
      ->type_name("KEY=VALUE")
      ->check(fem::checked_by([](const std::string& t) { fem::parse_case_setting(t); }, ""));
  command->add_flag("--quiet,-q", overrides.quiet, "no progress lines during long phases");
}

// The options shared by `fem run`, `fem check` and `fem renumber`: the case file and what replaces
// its keys; the help ends with the solvers.
void add_case_options(CLI::App* command, std::string& case_file, fem::RunOverrides& overrides) {
  command->footer(command->get_footer() + "\n\n" + fem::solver_lines());
  command->add_option("case", case_file, "the case file (cases/README.md)")->required()->check(CLI::ExistingFile);
  command->add_option("--solver", overrides.method, "solver method, or auto: chosen from the system's size (case: solver.method)")
      ->check(CLI::IsMember(names(fem::case_solver_methods())));
  command->add_option("--device", overrides.device, "device (case: solver.device)")->check(CLI::IsMember(names(fem::solver_devices())));
  command->add_option("--renumber", overrides.renumber, "node renumbering (case: solver.renumber)")
      ->check(CLI::IsMember(names(fem::kRenumberMethods)));
  command->add_option("--preconditioner", overrides.preconditioner, "preconditioner of iterative solvers (case: solver.preconditioner)")
      ->check(CLI::IsMember(names(fem::choice_names<fem::Preconditioner>())));
  command->add_option("--precision", overrides.precision,
                      "direct solvers: mixed factors in FP32 and refines in FP64 (case: solver.precision)")
      ->check(CLI::IsMember(names(fem::choice_names<fem::Precision>())));
  // Checked with the case (a clear message for a negative value or one below double precision).
  command->add_option("--tolerance", overrides.tolerance, "relative residual of iterative solvers (case: solver.tolerance)");
  command->add_option("--output", overrides.output_directory, "results directory (case: output.directory)");
  add_set_and_quiet(command, overrides);
}

void add_run_command(CLI::App& app) {
  auto* command = app.add_subcommand("run", "mesh, assemble, solve and write results for a case");
  auto case_file = std::make_shared<std::string>();
  auto overrides = std::make_shared<fem::RunOverrides>();
  add_case_options(command, *case_file, *overrides);
  command->add_option("--progress-interval", overrides->progress_interval_s, "seconds between progress lines")
      ->check(fem::non_negative_number())
      ->capture_default_str();
  command->add_flag("--export-matrix", overrides->export_matrix,
                    "also write the assembled system as <case>-K.mtx and <case>-f.mtx (Matrix Market; "
                    "fem bench spmv reads them)");
  command->callback([=] { fem::run_case(*case_file, *overrides, std::cout); });
}

void add_check_command(CLI::App& app) {
  auto* command = app.add_subcommand("check",
                                     "validate, mesh and renumber a case; print its sizes and each solver's estimated "
                                     "memory and time (nothing assembled, solved or written)");
  auto case_file = std::make_shared<std::string>();
  auto overrides = std::make_shared<fem::RunOverrides>();
  add_case_options(command, *case_file, *overrides);
  command->callback([=] {
    if (const int status = fem::check_case(*case_file, *overrides, std::cout); status != 0) throw CLI::RuntimeError(status);
  });
}

void add_renumber_command(CLI::App& app) {
  auto* command = app.add_subcommand("renumber",
                                     "bandwidth, profile, wavefront and front of every renumbering method on the case's "
                                     "mesh, written to <case>-renumber.csv");
  auto case_file = std::make_shared<std::string>();
  auto overrides = std::make_shared<fem::RunOverrides>();
  auto options = std::make_shared<fem::RenumberReportOptions>();
  add_case_options(command, *case_file, *overrides);
  command->add_flag("--plot", options->plot,
                    "also draw the pattern before and after the case's renumbering (--renumber) as <case>-sparsity.png");
  command->callback([=] { fem::renumber_report(*case_file, *overrides, *options, std::cout); });
}

void add_compare_command(CLI::App& app, const std::string& invocation) {
  auto* command = app.add_subcommand("compare",
                                     "solve the case's system with every solver in one process (meshed and assembled once "
                                     "per renumbering): times, memory, factor size, iterations, residual and agreement with "
                                     "the first solver; writes compare.csv, compare.json, report.md and PNG plots");
  command->footer("A solver that is not in this build, has no device here or fails on the system is a row with its status "
                  "(unavailable, failed), and the study goes on.\n\nOn a modal case (analysis: {type: modal}) the rows are "
                  "eigen methods: lanczos:DEVICE:METHOD (shift-invert Lanczos on a direct METHOD's factorisation, e.g. "
                  "lanczos:cpu:multifrontal, lanczos:cuda:band-cholesky), lobpcg:cpu:amg, slepc:cpu; each row gives its "
                  "setup and solve time, memory, the largest mode residual and the frequencies, and max rel diff is the "
                  "largest relative difference of the lowest 10 frequencies from the first row's.\n\n" +
                  fem::solver_lines() + "\n" + fem::eigen_lines());
  auto case_file = std::make_shared<std::string>();
  auto overrides = std::make_shared<fem::RunOverrides>();
  auto settings = std::make_shared<fem::study::CompareSettings>();
  auto solvers = std::make_shared<std::string>();
  command->add_option("case", *case_file, "the case file")->required()->check(CLI::ExistingFile);
  command->add_option("--solvers", *solvers,
                      "method:device pairs (method:device:preconditioner for cg and bicgstab), comma-separated; the "
                      "first is the reference, e.g. band-cholesky:cpu,frontal:cpu,cg:cpu:jacobi,cg:cpu:amg (the solvers "
                      "listed below); on a modal case eigen rows, e.g. lanczos:cpu:multifrontal,lobpcg:cpu:amg,slepc:cpu")
      ->required()
      ->type_name("LIST")
      ->check(fem::checked_by([](const std::string& t) { fem::study::parse_combinations(t); }, ""));
  command->add_option("--renumber", settings->renumberings, "renumberings, comma-separated: every solver under each (default: the case's)")
      ->delimiter(',')
      ->check(CLI::IsMember(names(fem::kRenumberMethods)));
  command->add_option("--repeat", settings->repeat, "timed solves per row, each with a fresh solver; tables give the median and the min-max")
      ->check(CLI::Range(1, fem::study::kMaxRepeat))
      ->capture_default_str();
  command->add_option("--tolerance", settings->tolerance,
                      "agreement threshold: a row agrees when the largest nodal difference from the reference, "
                      "relative to the reference's largest value, is at most this")
      ->check(fem::non_negative_number())
      ->capture_default_str();
  command->add_option("--solver-tolerance", overrides->tolerance, "relative residual of the iterative solvers (case: solver.tolerance)")
      ->check(fem::positive_number());
  command->add_option("--preconditioner", overrides->preconditioner, "as for fem run")->check(CLI::IsMember(names(fem::choice_names<fem::Preconditioner>())));
  command->add_option("--precision", overrides->precision, "as for fem run")->check(CLI::IsMember(names(fem::choice_names<fem::Precision>())));
  auto output = std::make_shared<std::optional<fs::path>>();
  command->add_option("--output", *output, "the study folder (default: <results directory>/<case>-compare)");
  add_set_and_quiet(command, *overrides);
  command->callback([=] {
    settings->combinations = fem::study::parse_combinations(*solvers);
    settings->progress = !overrides->quiet;
    const auto result = fem::study::compare_case(*case_file, *overrides, *settings, invocation, std::cout);
    const fs::path case_dir = fem::load_case_with(*case_file, *overrides).output.directory;
    fem::study::write_study(result, *output ? fs::absolute(**output)
                                            : case_dir / (fs::path(*case_file).stem().string() + "-compare"),
                            std::cout);
  });
}

void add_sweep_command(CLI::App& app, const std::string& invocation) {
  auto* command = app.add_subcommand("sweep",
                                     "a study file (cases/README.md): the case at each mesh size, small to large, every "
                                     "solver until it passes the budget; adds log-log growth fits of time and memory against dofs");
  command->footer("A study of a modal case lists eigen rows in 'solvers' (lanczos:cpu:multifrontal, lobpcg:cpu:amg, "
                  "slepc:cpu: see fem compare --help).");
  auto file = std::make_shared<std::string>();
  auto repeat = std::make_shared<std::optional<int>>();
  auto time_budget = std::make_shared<std::optional<double>>();
  auto output = std::make_shared<std::optional<fs::path>>();
  auto quiet = std::make_shared<bool>(false);
  command->add_option("study", *file, "the study file")->required()->check(CLI::ExistingFile);
  command->add_option("--repeat", *repeat, "timed solves per row (study: repeat)")->check(CLI::Range(1, fem::study::kMaxRepeat));
  command->add_option("--time-budget", *time_budget, "seconds a solve may take (study: budget.time_s)")->check(fem::positive_number());
  command->add_option("--output", *output, "the study folder (study: output)");
  command->add_flag("--quiet,-q", *quiet, "no progress lines during long phases");
  command->callback([=] {
    auto study = fem::study::load_study(*file);
    if (*repeat) study.settings.repeat = **repeat;
    if (*time_budget) study.settings.budget.time_s = **time_budget;
    if (*output) study.output = fs::absolute(**output);
    study.settings.progress = !*quiet;
    const auto result = fem::study::run_sweep(study, invocation, std::cout, [&](const fem::study::StudyResult& so_far) {
      fem::study::write_study_checkpoint(so_far, study.output);
    });
    fem::study::write_study(result, study.output, std::cout);
  });
}

void add_report_command(CLI::App& app) {
  auto* command = app.add_subcommand("report",
                                     "redraw report.md and the plots of a study folder from its compare.json (e.g. one run "
                                     "on a machine without matplotlib)");
  auto folder = std::make_shared<std::string>();
  command->add_option("folder", *folder, "a folder written by fem compare or fem sweep")->required();
  command->callback([=] {
    const fs::path dir = fs::absolute(*folder);
    std::ifstream in(dir / "compare.json");
    if (!in) throw std::runtime_error((dir / "compare.json").string() + ": not found (a folder written by fem compare or fem sweep?)");
    fem::study::StudyResult result;
    try {
      result = fem::study::study_from_json(nlohmann::json::parse(in));
    } catch (const nlohmann::json::exception& e) {
      throw std::runtime_error((dir / "compare.json").string() + ": not a study written by fem: " + e.what());
    }
    fem::study::write_study(result, dir, std::cout);
  });
}

void add_render_command(CLI::App& app) {
  auto* command = app.add_subcommand("render",
                                     "draw the results fem run left (the <case>-view.py beside them) to a PNG offscreen "
                                     "with ParaView's pvbatch");
  auto case_file = std::make_shared<std::string>();
  auto overrides = std::make_shared<fem::RunOverrides>();
  auto png = std::make_shared<fs::path>();
  command->add_option("case", *case_file, "the case file")->required()->check(CLI::ExistingFile);
  command->add_option("--output", overrides->output_directory, "where the results are (case: output.directory)");
  command->add_option("--png", *png, "the picture (default: <output>/<case>.png; with load cases, <stem>-<name>.png each)");
  command->callback([=] { fem::render_case(*case_file, *overrides, *png, std::cout); });
}

// `fem bench NAME ...`: each benchmark parses its own options (argv[0] is its name).
void add_bench_command(CLI::App& app) {
  using Benchmark = int (*)(int, char**);
  static const std::vector<std::pair<std::string, Benchmark>> benchmarks = {
      {"assembly", fem::bench::run_assembly_benchmark},
      {"band", fem::bench::run_band_benchmark},
      {"dense", fem::bench::run_dense_benchmark},
      {"frontal", fem::bench::run_frontal_benchmark},
      {"pipeline", fem::bench::run_pipeline_benchmark},
      {"renumber", fem::bench::run_renumber_benchmark},
      {"spmv", fem::bench::run_spmv_benchmark},
  };
  std::vector<std::string> known;
  for (const auto& [name, run] : benchmarks) known.push_back(name);
  auto* command = app.add_subcommand("bench", "run a benchmark (fem bench NAME --help lists its options)");
  // Everything after NAME, --help included, is the benchmark's own.
  command->prefix_command();
  command->set_help_flag();
  auto name = std::make_shared<std::string>();
  command->add_option("name", *name, "the benchmark")->check(CLI::IsMember(known));
  command->callback([command, name] {
    if (name->empty()) {
      std::cout << command->help("fem");
      if (command->remaining().empty()) throw CLI::RuntimeError(2);
      return;
    }
    std::vector<std::string> storage{*name};
    for (auto& a : command->remaining()) storage.push_back(a);
    std::vector<char*> argv;
    for (auto& a : storage) argv.push_back(a.data());
    argv.push_back(nullptr);
    for (const auto& [bench_name, run] : benchmarks)
      if (bench_name == *name) {
        const int status = run(static_cast<int>(storage.size()), argv.data());
        if (status != 0) throw CLI::RuntimeError(status);
      }
  });
}

std::string version_text() {
  std::string text = std::string("fem ") + FEM_VERSION + "\n  gmsh " + (FEM_WITH_GMSH ? "yes" : "no") + ", vtk " +
                     (FEM_WITH_VTK ? "yes" : "no") + ", cuda " + (FEM_WITH_CUDA ? "yes" : "no") + ", opencl " +
                     (FEM_WITH_OPENCL ? "yes" : "no") + ", metis " + (FEM_WITH_METIS ? "yes" : "no") + ", petsc " +
                     (FEM_WITH_PETSC ? "yes" : "no") + "\n  solvers:";
  for (const auto& s : fem::available_solvers()) text += " " + s;
  std::string unbuilt;
  for (const auto& method : fem::solver_table())
    for (const auto& device : method.devices)
      if (!device.built()) unbuilt += " " + std::string(method.name()) + ":" + device.name();
  if (!unbuilt.empty()) text += "\n  not in this build (fem solvers says how to add them):" + unbuilt;
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  // Under mpirun only `fem run` spreads over the ranks: every rank of another command would redo
  // all of it and write the same files.
  if (fem::launched_ranks() > 1 && argc > 1 && std::string(argv[1]) != "run") {
    std::cerr << "fem: fem " << argv[1]
              << " runs in one process; under mpirun only 'fem run' (--solver petsc or mumps) spreads over the ranks\n";
    return 2;
  }
  fem::install_signal_cleanup();
  CLI::App app("fem: finite elements with embedded direct, frontal and iterative solvers", "fem");
  app.footer(kFooter);
  app.set_version_flag("--version", version_text);
  app.require_subcommand(0, 1);
  const std::string invocation = command_line(argc, argv);
  add_run_command(app);
  add_check_command(app);
  add_renumber_command(app);
  add_compare_command(app, invocation);
  add_sweep_command(app, invocation);
  add_report_command(app);
  add_render_command(app);
  add_bench_command(app);
  app.add_subcommand("solvers", "list the solver methods, their devices and how to configure those this build lacks")
      ->callback([] { fem::list_solvers(std::cout); });
  app.add_subcommand("version", "print the version and what this build includes")->callback([] {
    std::cout << version_text() << "\n";
  });
  try {
    app.parse(argc, argv);
    if (app.get_subcommands().empty()) {
      std::cout << app.help();
      return 2;
    }
    return 0;
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::RuntimeError& e) {
    return e.get_exit_code();  // a benchmark's own status
  } catch (const CLI::ParseError& e) {
    std::cerr << "fem: " << e.what() << "\n(fem --help lists the commands, fem COMMAND --help their options)\n";
    return 2;
  } catch (const std::bad_alloc&) {
    std::cout << std::flush;
    std::cerr << "\nfem: error: out of memory (an allocation failed); `fem check CASE.yaml` estimates what a case needs\n";
    return 1;
  } catch (const std::exception& e) {
    std::cout << std::flush;
    std::cerr << "\nfem: error: " << e.what() << "\n";
    return 1;
  }
}
