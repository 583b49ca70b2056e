#include "bench/calculix/calculix_benchmark.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <sstream>

#include "bench/benchmark_command.hpp"
#include "bench/calculix/calculix_deck.hpp"
#include "fem/output/result_sink.hpp"
#include "fem/output/scratch_directory.hpp"
#include "fem/pipeline/host_executor.hpp"
#include "fem/pipeline/make_mesh.hpp"
#include "fem/pipeline/modal_run.hpp"
#include "fem/pipeline/node_ordering.hpp"
#include "fem/pipeline/number_format.hpp"
#include "fem/resources/case_fit.hpp"
#include "fem/resources/memory_estimate.hpp"
#include "support/atomic_output.hpp"
#include "support/host_memory.hpp"
#include "support/stopwatch.hpp"

namespace fem::bench {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

std::string describe_cells(const Mesh& mesh) {
  std::map<std::string, long long> count;
  for (const auto t : mesh.cells.type) ++count[std::string(element_info(t).name)];
  std::string text;
  for (const auto& [name, n] : count) text += (text.empty() ? "" : " + ") + with_commas(n) + " " + name;
  return text;
}

std::string row_name(const std::string& method) {
  return method == "lobpcg" ? "lobpcg-amg" : "lanczos-" + method;
}

// One of fem's rows on the shared mesh and problem: the stages of `fem run` after the mesh.
FemModalRow run_fem_method(const Case& base, const Mesh& mesh, const Problem& problem, const std::string& method,
                           int modes, const fs::path& output, std::ostream& log) {
  FemModalRow row;
  row.method = row_name(method);
  Case c = base;
  c.analysis.modes = modes;
  c.analysis.method = method == "lobpcg" ? EigenMethod::Lobpcg : EigenMethod::Lanczos;
  // LOBPCG uses no linear solver; cg stands in for the numbering and the memory check.
  c.solver.method = method == "lobpcg" ? SolverMethodId::Cg : parse_choice<SolverMethodId>(method).value();
  c.solver.device = Device::Cpu;
  c.solver.renumber = "auto";  // each method its own goal, as `fem run --renumber auto`
  c.output.directory = output / row.method;
  try {
    PhaseLog phases(log);
    renumber::NodeGraph graph;
    NodeOrdering ordering;
    phases.run("renumber", [&] {
      graph = renumber::node_graph_from_elements(mesh.cells.offset, mesh.cells.node, static_cast<int>(mesh.num_nodes()));
      ordering = order_nodes(graph, c.solver.renumber, c.solver.method, 3);
      return ordering.method;
    });
    resources::require_system_fits(c, resources::system_size(graph, ordering.after, 3, 3), host_available_memory());
    SolverOptions options = c.solver;
    auto solver = make_solver(options);
    HostExecutor executor;
    SummaryOnlySink sink("fem-bench-calculix writes no fields");
    const RunOverrides overrides;
    const json summary = run_modal({c, overrides, mesh, problem, graph, ordering, options, *solver}, executor, sink,
                                   phases, log);
    const json& t = summary["time_s"];
    row.renumber_s = t.value("renumber", 0.0);
    row.assemble_s = t.value("assemble", 0.0);
    row.solve_s = t.value("solve", 0.0);
    row.time_s = row.renumber_s + row.assemble_s + row.solve_s;
    row.frequencies_hz = summary["frequencies_hz"].get<std::vector<double>>();
    row.max_residual = summary["residual"].get<double>();
    row.eigen_solver = summary["eigen_solver"];
  } catch (const resources::ResourceError& e) {
    row.status = std::string("skipped: ") + e.what();
  } catch (const SolverUnavailable& e) {
    row.status = std::string("unavailable: ") + e.what();
  } catch (const std::exception& e) {
    row.status = std::string("failed: ") + e.what();
  }
  return row;
}

std::string load_average() {
  std::ifstream in("/proc/loadavg");
  double one = 0, five = 0, fifteen = 0;
  if (!(in >> one >> five >> fifteen)) return "unknown";
  char text[64];
  std::snprintf(text, sizeof text, "%.2f %.2f %.2f", one, five, fifteen);
  return text;
}

std::string list_text(const std::vector<double>& values) {
  std::string text;
  char one[32];
  for (const double v : values) {
    std::snprintf(one, sizeof one, "%.10g", v);
    text += (text.empty() ? "" : " ") + std::string(one);
  }
  return text;
}

void print_comparison(const CalculixComparison& r) {
  std::printf("\n%s: %s\nmesh: %s nodes, %s; %s dofs (%s fixed), %d modes\n\n", r.case_file.c_str(), r.title.c_str(),
              with_commas(r.nodes).c_str(), r.elements.c_str(), with_commas(r.dofs).c_str(),
              with_commas(r.fixed_dofs).c_str(), r.modes);
  const bool have_ccx = r.calculix_status == "ok";
  std::printf("  %-24s %10s %10s %14s  %s\n", "code", "time [s]", "ccx/this", "max |df|/f", "status");
  if (r.calculix_status != "not run")
    std::printf("  %-24s %10.3f %10s %14s  %s\n", "ccx spooles+arpack", r.calculix.wall_s, have_ccx ? "1.00" : "",
                "", r.calculix_status.c_str());
  for (const auto& row : r.fem) {
    if (row.status != "ok") {
      std::printf("  %-24s %10s %10s %14s  %s\n", ("fem " + row.method).c_str(), "", "", "", row.status.c_str());
      continue;
    }
    char ratio[32] = "", diff[32] = "";
    if (have_ccx) {
      std::snprintf(ratio, sizeof ratio, "%.2f", r.calculix.wall_s / row.time_s);
      std::snprintf(diff, sizeof diff, "%.2e", max_relative_difference(row.frequencies_hz, r.calculix.frequencies_hz));
    }
    std::printf("  %-24s %10.3f %10s %14s  ok (renumber %.2f + assemble %.2f + solve %.2f s)\n",
                ("fem " + row.method).c_str(), row.time_s, ratio, diff, row.renumber_s, row.assemble_s, row.solve_s);
  }
  std::printf("\n  %4s", "mode");
  if (have_ccx) std::printf(" %16s", "ccx [Hz]");
  for (const auto& row : r.fem)
    if (row.status == "ok") std::printf(" %22s", row.method.c_str());
  std::printf("\n");
  for (int i = 0; i < r.modes; ++i) {
    std::printf("  %4d", i + 1);
    if (have_ccx) std::printf(" %16.8g", i < static_cast<int>(r.calculix.frequencies_hz.size()) ? r.calculix.frequencies_hz[i] : NAN);
    for (const auto& row : r.fem)
      if (row.status == "ok")
        std::printf(" %22.10g", i < static_cast<int>(row.frequencies_hz.size()) ? row.frequencies_hz[i] : NAN);
    std::printf("\n");
  }
}

CsvTable comparison_rows(const CalculixComparison& r) {
  CsvTable rows({"case", "nodes", "dofs", "elements", "modes", "code", "status", "time_s", "renumber_s", "assemble_s",
                 "solve_s", "ccx_time_over_this", "max_rel_diff_to_ccx", "frequencies_hz"});
  const bool have_ccx = r.calculix_status == "ok";
  if (r.calculix_status != "not run")
    rows.add({r.case_file, r.nodes, r.dofs, r.elements, r.modes, "ccx-spooles-arpack", r.calculix_status,
              r.calculix.wall_s, 0.0, 0.0, 0.0, 1.0, 0.0, list_text(r.calculix.frequencies_hz)});
  for (const auto& row : r.fem) {
    const bool ok = row.status == "ok";
    rows.add({r.case_file, r.nodes, r.dofs, r.elements, r.modes, "fem-" + row.method, row.status, row.time_s,
              row.renumber_s, row.assemble_s, row.solve_s, have_ccx && ok ? r.calculix.wall_s / row.time_s : 0.0,
              have_ccx && ok ? max_relative_difference(row.frequencies_hz, r.calculix.frequencies_hz) : 0.0,
              list_text(row.frequencies_hz)});
  }
  return rows;
}

struct Options {
  fs::path case_file;
  std::vector<std::string> settings;
  CalculixComparisonSettings comparison;
  std::string write_inp;
  std::string csv = "calculix_benchmark.csv";
  std::string json_file = "calculix_benchmark.json";
  bool no_ccx = false;
};

void add_options(CLI::App& app, Options& o) {
  app.description(
      "The lowest modes of a modal case (3D elasticity; tet4, tet10, hex8, hex20) by CalculiX's *FREQUENCY (ccx, "
      "SPOOLES + ARPACK) and by fem's eigen methods, side by side on the mesh `fem run` makes: wall times (ccx: the "
      "whole process; fem: renumber + assemble + eigen solve), their ratio, the frequencies and their relative "
      "differences. Prints a table, writes CSV and JSON.");
  app.add_option("case", o.case_file, "the modal case file")->required()->check(CLI::ExistingFile);
  app.add_option("--set", o.settings, "key.path=value: replaces a key of the case, as fem run --set does");
  add_checked_option(app, "--modes", o.comparison.modes, "how many of the lowest modes", positive_number());
  add_list_option(app, "--methods", o.comparison.methods, "fem's rows (lobpcg: LOBPCG with AMG; the others: "
                  "shift-invert Lanczos on that factorisation)", CLI::IsMember(kFemModalMethods));
  o.comparison.threads = omp_get_max_threads();
  add_checked_option(app, "--threads", o.comparison.threads, "ccx's threads (OMP_NUM_THREADS)", positive_number());
  add_checked_option(app, "--ccx-time-limit", o.comparison.ccx_time_limit_s, "seconds before ccx is stopped",
                     positive_number());
  app.add_flag("--no-ccx", o.no_ccx, "fem's rows alone");
  app.add_flag("--verbose", o.comparison.verbose, "fem's phase lines and mode tables");
  app.add_option("--write-inp", o.write_inp, "only write the CalculiX deck here (a .inp) and stop");
  app.add_option("--csv", o.csv, "where the rows go")->capture_default_str();
  app.add_option("--json", o.json_file, "where the whole comparison goes")->capture_default_str();
}

void run(const Options& o) {
  const Case c = load_case(o.case_file, o.settings);
  if (!o.write_inp.empty()) {
    write_calculix_deck_file(c, o.comparison.modes, o.write_inp);
    std::printf("CalculiX deck: %s (run: ccx -i %s)\n", o.write_inp.c_str(), fs::path(o.write_inp).stem().c_str());
    return;
  }
  CalculixComparisonSettings settings = o.comparison;
  settings.calculix = !o.no_ccx;
  const std::string load_before = load_average();
  // The files after each code, the load so far with them.
  const auto write = [&](const CalculixComparison& so_far) {
    json all = comparison_json(so_far);
    all["threads"] = settings.threads;
    all["fem_threads"] = omp_get_max_threads();
    all["load_average_before"] = load_before;
    all["load_average_after"] = load_average();
    comparison_rows(so_far).write(o.csv);
    write_file_atomically(o.json_file, all.dump(2) + "\n");
    return all;
  };
  const CalculixComparison r = compare_with_calculix(c, settings, write);
  print_comparison(r);
  const json all = write(r);
  std::printf("\nload average before %s, after %s; ccx threads %d, fem threads %d\nCSV: %s\nJSON: %s\n",
              load_before.c_str(), all["load_average_after"].get<std::string>().c_str(), settings.threads,
              omp_get_max_threads(), o.csv.c_str(), o.json_file.c_str());
}

}  // namespace

double max_relative_difference(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.empty() || b.empty()) return std::numeric_limits<double>::infinity();
  double worst = 0;
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) worst = std::max(worst, std::abs(a[i] - b[i]) / std::abs(b[i]));
  return worst;
}

void write_calculix_deck_file(const Case& c, int modes, const fs::path& path) {
  require_calculix_modal_case(c);
  const Mesh mesh = make_mesh(c.mesh);
  const Problem problem = build_problem(c, mesh);
  std::ostringstream deck;
  write_calculix_deck(deck, c, problem, modes);
  write_file_atomically(path, deck.str());
}

CalculixComparison compare_with_calculix(const Case& c, const CalculixComparisonSettings& settings,
                                         const std::function<void(const CalculixComparison&)>& measured) {
  const auto report = [&](const CalculixComparison& so_far) {
    if (measured) measured(so_far);
  };
  require_calculix_modal_case(c);
  CalculixComparison r;
  r.case_file = c.file.string();
  r.title = c.title;
  r.modes = settings.modes;
  const Mesh mesh = make_mesh(c.mesh);
  const Problem problem = build_problem(c, mesh);
  r.nodes = static_cast<long long>(mesh.num_nodes());
  r.dofs = 3 * r.nodes;
  r.elements = describe_cells(mesh);
  std::vector<char> fixed(mesh.num_nodes() * 3, 0);
  for (const auto& condition : problem.dirichlet)
    for (const int n : condition.nodes)
      for (int k = 0; k < 3; ++k)
        if (condition.component[k]) fixed[3 * n + k] = 1;
  r.fixed_dofs = std::count(fixed.begin(), fixed.end(), 1);

  const ScratchDirectory scratch("fem-bench-calculix");
  if (settings.calculix) {
    const fs::path deck = scratch.path() / "modal.inp";
    try {
      const Stopwatch writing;
      {
        std::ofstream out(deck);
        write_calculix_deck(out, c, problem, settings.modes);
        if (!out) throw std::runtime_error("could not write " + deck.string());
      }
      r.deck_s = writing.seconds();
      r.calculix = run_calculix(deck, settings.threads, settings.ccx_time_limit_s);
    } catch (const DeckError&) {
      throw;  // the case cannot be compared at all
    } catch (const std::exception& e) {
      r.calculix_status = std::string("failed: ") + e.what();
    }
    std::error_code ignored;
    fs::remove(deck, ignored);  // a large deck need not wait for the fem rows to end
  } else {
    r.calculix_status = "not run";
  }
  report(r);
  std::ostream silent(nullptr);
  for (const auto& method : settings.methods) {
    r.fem.push_back(run_fem_method(c, mesh, problem, method, settings.modes, scratch.path(),
                                   settings.verbose ? std::cout : silent));
    report(r);
  }
  return r;
}

json comparison_json(const CalculixComparison& r) {
  json fem = json::array();
  for (const auto& row : r.fem) {
    json one = {{"method", row.method},     {"status", row.status},         {"time_s", row.time_s},
                {"renumber_s", row.renumber_s}, {"assemble_s", row.assemble_s}, {"solve_s", row.solve_s},
                {"max_residual", row.max_residual}, {"frequencies_hz", row.frequencies_hz},
                {"eigen_solver", row.eigen_solver}};
    if (r.calculix_status == "ok" && row.status == "ok") {
      one["ccx_time_over_this"] = r.calculix.wall_s / row.time_s;
      one["max_rel_diff_to_ccx"] = max_relative_difference(row.frequencies_hz, r.calculix.frequencies_hz);
    }
    fem.push_back(one);
  }
  std::time_t now = std::time(nullptr);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return {{"case", r.case_file},
          {"title", r.title},
          {"date", date},
          {"nodes", r.nodes},
          {"dofs", r.dofs},
          {"fixed_dofs", r.fixed_dofs},
          {"elements", r.elements},
          {"modes", r.modes},
          {"calculix",
           {{"status", r.calculix_status},
            {"wall_s", r.calculix.wall_s},
            {"reported_s", r.calculix.reported_s},
            {"deck_write_s", r.deck_s},
            {"eigenvalues", r.calculix.eigenvalues},
            {"frequencies_hz", r.calculix.frequencies_hz}}},
          {"fem", fem}};
}

int run_calculix_benchmark(int argc, char** argv) {
  return run_benchmark<Options>("calculix", argc, argv, add_options, [](const Options& o) { run(o); });
}

}  // namespace fem::bench
