#include "fem/app/run_case.hpp"

#include <sys/resource.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <omp.h>
#include <ostream>
#include <sstream>

#include "fem/assembly/assembler.hpp"
#include "fem/assembly/dirichlet.hpp"
#include "fem/assembly/element_system.hpp"
#include "fem/assembly/residual.hpp"
#include "fem/config.hpp"
#include "fem/output/atomic_output.hpp"
#include "fem/physics/element_matrices.hpp"
#include "fem/post/nodal_results.hpp"
#include "fem/renumber/element_order.hpp"
#include "fem/renumber/renumber.hpp"
#include "solvers/iterative/cpu_vector_ops.hpp"
#include "solvers/linear_solver.hpp"
#if FEM_WITH_GMSH
#include "fem/mesh/gmsh_mesh.hpp"
#endif
#if FEM_WITH_VTK
#include "fem/output/vtu_writer.hpp"
#endif

namespace fem {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using nlohmann::json;

std::size_t peak_memory_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<std::size_t>(usage.ru_maxrss) * 1024;  // Linux reports kilobytes
}

std::string with_commas(long long v) {
  std::string s = std::to_string(v);
  for (int i = static_cast<int>(s.size()) - 3; i > (v < 0 ? 1 : 0); i -= 3) s.insert(i, ",");
  return s;
}

// Times one phase and prints "fem: <phase>  <what it did> (<seconds> s)" when it ends; long
// phases report progress on lines of their own in between.
class Phases {
 public:
  explicit Phases(std::ostream& log) : log_(log) {}
  template <class F>
  double run(const char* name, F&& body) {
    current_ = name;
    const auto t0 = Clock::now();
    const std::string detail = body();
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    times_[name] = s;
    log_ << "fem: " << std::left << std::setw(9) << name << detail << " (" << std::fixed << std::setprecision(2) << s
         << " s)" << std::defaultfloat << "\n" << std::flush;
    return s;
  }
  void progress(const std::string& line) {
    log_ << "fem: " << std::left << std::setw(9) << current_ << "... " << line << "\n" << std::flush;
  }
  void set_time(const char* name, double seconds) { times_[name] = seconds; }
  const json& times() const { return times_; }

 private:
  std::ostream& log_;
  std::string current_;
  json times_ = json::object();
};

std::string choose_override(const std::string& key, const std::string& value, const std::vector<const char*>& allowed) {
  std::string list;
  for (const char* a : allowed) {
    if (value == a) return value;
    list += std::string(list.empty() ? "" : ", ") + a;
  }
  throw CaseError("--" + key + " " + value + ": expected one of " + list);
}

std::string element_summary(const ElementSet& cells) {
  std::map<std::string, std::size_t> count;
  for (auto t : cells.type) ++count[std::string(element_info(t).name)];
  std::string s;
  for (const auto& [name, n] : count) s += (s.empty() ? "" : " + ") + with_commas(static_cast<long long>(n)) + " " + name;
  return s;
}

// The node numbering the case asks for, with the matrix measures before and after.
struct NodeOrdering {
  std::string method;
  renumber::Permutation permutation;
  renumber::OrderingMetrics before, after;
};

NodeOrdering order_nodes(const renumber::NodeGraph& graph, const std::string& name, const std::string& solver, int d) {
  using namespace renumber;
  NodeOrdering o;
  o.before = ordering_metrics(graph, Permutation::identity(graph.num_nodes()), d);
  const RenumberMethod method = parse_renumber_method(name);
  if (method == RenumberMethod::Auto) {
    // Band Cholesky pays for bandwidth, the frontal method for the front, SpMV for locality.
    const RenumberGoal goal = solver == "band-cholesky" ? RenumberGoal::Bandwidth
                              : solver == "frontal"     ? RenumberGoal::Front
                                                        : RenumberGoal::Locality;
    auto choice = renumber_auto(graph, goal, d);
    o.method = "auto/" + std::string(method_name(choice.method));
    o.permutation = std::move(choice.permutation);
    o.after = choice.metrics;
    return o;
  }
  o.method = std::string(method_name(method));
  o.permutation = renumber::renumber(graph, method);
  o.after = ordering_metrics(graph, o.permutation, d);
  return o;
}

}  // namespace

void apply_overrides(Case& c, const RunOverrides& o) {
  if (o.method) c.solver.method = choose_override("solver", *o.method, kSolverMethods);
  if (o.device) c.solver.device = choose_override("device", *o.device, kSolverDevices);
  if (o.renumber) c.solver.renumber = choose_override("renumber", *o.renumber, kRenumberMethods);
  if (o.preconditioner) c.solver.preconditioner = *o.preconditioner;
  if (o.precision) c.solver.precision = choose_override("precision", *o.precision, {"double", "mixed"});
  if (o.tolerance) {
    if (!(*o.tolerance > 0)) throw CaseError("--tolerance must be positive");
    c.solver.tolerance = *o.tolerance;
  }
  if (o.output_directory) c.output.directory = fs::absolute(*o.output_directory);
}

Mesh make_mesh(const MeshSpec& spec) {
  if (spec.source == MeshSpec::Source::Box) return make_box_mesh(spec.box);
#if FEM_WITH_GMSH
  if (spec.source == MeshSpec::Source::Msh) return mesh_from_msh(spec.file);
  GmshMeshOptions options;
  options.shape = spec.shape;
  options.order = spec.order;
  options.serendipity = spec.serendipity;
  options.size = spec.size;
  return mesh_from_geo(spec.file, options);
#else
  throw CaseError(spec.file.string() + ": this build of fem has no Gmsh (FEM_WITH_GMSH=OFF): use a 'box' mesh");
#endif
}

json run_case(const fs::path& case_file, const RunOverrides& overrides, std::ostream& log) {
  Case c = load_case(case_file);
  apply_overrides(c, overrides);
  log << "fem: case     " << c.file.string() << ": " << c.title << "\n";
  Phases phases(log);
  json summary;

  Mesh mesh;
  phases.run("mesh", [&] {
    mesh = make_mesh(c.mesh);
    return with_commas(static_cast<long long>(mesh.num_nodes())) + " nodes, " + element_summary(mesh.cells);
  });
  const Problem problem = build_problem(c, mesh);
  const int d = problem.physics.dofs_per_node();

  // Renumbering: the node graph is built once and serves the sparsity pattern too.
  renumber::NodeGraph graph;
  NodeOrdering order;
  phases.run("renumber", [&] {
    graph = renumber::node_graph_from_elements(mesh.cells.offset, mesh.cells.node, static_cast<int>(mesh.num_nodes()));
    order = order_nodes(graph, c.solver.renumber, c.solver.method, d);
    std::ostringstream s;
    s << order.method << ": bandwidth " << with_commas(order.before.bandwidth) << " -> " << with_commas(order.after.bandwidth)
      << ", profile " << with_commas(order.before.profile) << " -> " << with_commas(order.after.profile);
    return s.str();
  });
  const DofMap dofs = make_dof_map(mesh.num_nodes(), d, order.permutation.new_of_old);

  SolverOptions options;
  options.method = c.solver.method;
  options.device = c.solver.device;
  options.preconditioner = c.solver.preconditioner;
  options.precision = c.solver.precision;
  options.tolerance = c.solver.tolerance;
  options.max_iterations = c.solver.max_iterations;
  options.out_of_core = c.solver.out_of_core;
  options.spmv = c.solver.spmv;
  options.progress = [&](const std::string& line) { phases.progress(line); };
  auto solver = make_solver(options);  // before assembly: an unavailable solver fails fast
  const bool by_elements = solver->uses_element_matrices();

  // The frontal method never assembles: it takes element matrices in an order that keeps the front small.
  AssembledSystemData system;
  ElementSystemData element_system;
  Constraints constraints;
  std::int64_t nnz = 0;
  for (int node = 0; node < graph.num_nodes(); ++node) nnz += static_cast<std::int64_t>(graph.degree(node) + 1) * d * d;
  phases.run("assemble", [&] {
    constraints = collect_constraints(problem, dofs);
    try {
      if (by_elements) {
        const auto cells = renumber::element_order_by_nodes(mesh.cells.offset, mesh.cells.node, order.permutation);
        element_system = make_element_system(problem, dofs, constraints, {cells.begin(), cells.end()});
        // Computing one element checks the mesh the way assembly would (inverted elements).
        ElementContribution probe;
        if (!element_system.order.empty()) element_system.system.element(element_system.order.front(), probe);
      } else {
        system = assemble(problem, dofs, graph);
        apply_constraints(system.matrix, system.rhs, constraints);
      }
    } catch (const InvertedElement& e) {
      throw CaseError(mesh.source + ": " + e.what());
    }
    return with_commas(dofs.num_dofs()) + " equations, " + with_commas(nnz) + " nonzeros, " + with_commas(constraints.count) +
           " prescribed" + (by_elements ? ", element by element" : "");
  });

  std::vector<double> u(dofs.num_dofs(), 0.0);
  SolveReport report;
  double residual = 0;
  phases.run("solve", [&] {
    try {
      report = by_elements ? solver->solve(element_system.system, u) : solver->solve(AssembledSystem{system.matrix, system.rhs}, u);
    } catch (const SolveFailure& e) {
      throw std::runtime_error(std::string(e.what()) + (e.equation() >= 0 ? " [at " + dofs.describe(e.equation()) + "]" : ""));
    } catch (const InvertedElement& e) {
      throw CaseError(mesh.source + ": " + e.what());
    }
    if (by_elements) {
      residual = element_relative_residual(problem, dofs, constraints, u);
    } else {
      std::vector<double> ku(u.size());
      cpu::spmv(system.matrix, u, ku);
      cpu::axpy(-1.0, system.rhs, ku);
      const double norm_f = std::sqrt(cpu::dot(system.rhs, system.rhs));
      residual = norm_f > 0 ? std::sqrt(cpu::dot(ku, ku)) / norm_f : 0.0;
    }
    std::ostringstream s;
    s << c.solver.method << " on " << c.solver.device;
    if (report.iterations > 0) s << ", " << report.iterations << " iterations";
    s << ", residual " << std::scientific << std::setprecision(2) << residual;
    return s.str();
  });

  NodalResults results;
  phases.run("post", [&] {
    results = recover_results(problem, dofs, constraints, u);
    return std::string(problem.physics.type == PhysicsType::Heat ? "heat flux" : "strain, stress, von Mises") + ", reactions";
  });

  summary["fem_version"] = FEM_VERSION;
  summary["case"] = c.file.string();
  summary["title"] = c.title;
  summary["physics"] = problem.physics.type == PhysicsType::Heat ? "heat" : "elasticity";
  summary["nodes"] = mesh.num_nodes();
  summary["elements"] = mesh.cells.size();
  summary["dofs"] = dofs.num_dofs();
  summary["nnz"] = nnz;
  summary["renumber"] = order.method;
  summary["bandwidth"] = {{"before", order.before.bandwidth}, {"after", order.after.bandwidth}};
  summary["profile"] = {{"before", order.before.profile}, {"after", order.after.profile}};
  summary["max_wavefront"] = {{"before", order.before.max_wavefront}, {"after", order.after.max_wavefront}};
  summary["rms_wavefront"] = {{"before", order.before.rms_wavefront}, {"after", order.after.rms_wavefront}};
  summary["solver"] = c.solver.method;
  summary["device"] = c.solver.device;
  summary["preconditioner"] = c.solver.preconditioner;
  summary["precision"] = c.solver.precision;
  summary["threads"] = omp_get_max_threads();
  summary["iterations"] = report.iterations;
  summary["residual"] = residual;
  summary["residual_history"] = report.residual_history;
  summary["solver_figures"] = report.figures;
  json reactions = json::object();
  for (const auto& [group, r] : results.group_reactions)
    reactions[group] = d == 1 ? json(r[0]) : json(std::vector<double>(r.begin(), r.begin() + d));
  summary["reactions"] = reactions;
  if (problem.physics.type == PhysicsType::Elasticity) {
    double umax = 0, vmax = 0;
    for (std::size_t n = 0; n < mesh.num_nodes(); ++n) {
      umax = std::max(umax, std::hypot(results.displacement[3 * n], results.displacement[3 * n + 1], results.displacement[3 * n + 2]));
      vmax = std::max(vmax, results.von_mises[n]);
    }
    summary["max_displacement"] = umax;
    summary["max_von_mises"] = vmax;
  } else {
    const auto [lo, hi] = std::minmax_element(results.temperature.begin(), results.temperature.end());
    summary["temperature_range"] = {*lo, *hi};
  }

  std::vector<fs::path> written;
  phases.run("write", [&] {
    phases.set_time("write", 0.0);
    AtomicOutput output(c.output.directory);
    const auto wanted = [&](const char* field) {
      return c.output.fields.empty() || std::find(c.output.fields.begin(), c.output.fields.end(), field) != c.output.fields.end();
    };
#if FEM_WITH_VTK
    std::vector<PointArray> points;
    const auto add = [&](const char* name, int components, const std::vector<double>& values) {
      if (!values.empty() && wanted(name)) points.push_back({name, components, &values});
    };
    add("displacement", 3, results.displacement);
    add("strain", 6, results.strain);
    add("stress", 6, results.stress);
    add("von_mises", 1, results.von_mises);
    add("temperature", 1, results.temperature);
    add("heat_flux", 3, results.heat_flux);
    add("reaction", problem.physics.type == PhysicsType::Heat ? 1 : 3, results.reaction);
    CellArray material{"material", {}};
    for (int m : problem.cell_material) material.values.push_back(m);
    const auto t_vtu = Clock::now();
    write_vtu(output.stage(c.name + ".vtu"), mesh, points, {material});
    phases.set_time("write", std::chrono::duration<double>(Clock::now() - t_vtu).count());
#else
    (void)wanted;
    log << "(no .vtu: this build has no VTK) ";
#endif
    summary["time_s"] = phases.times();  // "write": the .vtu; the small JSON itself comes last
    summary["peak_memory_bytes"] = peak_memory_bytes();
    {
      std::ofstream json_file(output.stage(c.name + ".json"));
      json_file << summary.dump(2) << "\n";
      if (!json_file) throw std::runtime_error(c.output.directory.string() + ": cannot write the JSON summary");
    }
    written = output.commit();
    std::string list;
    for (const auto& p : written) list += (list.empty() ? "" : ", ") + p.filename().string();
    return list;
  });
  summary["time_s"] = phases.times();

  log << "\n  " << std::left << std::setw(22) << "equations" << with_commas(dofs.num_dofs()) << "\n  " << std::setw(22)
      << "nonzeros" << with_commas(nnz) << "\n  " << std::setw(22) << "bandwidth"
      << with_commas(order.before.bandwidth) << " -> " << with_commas(order.after.bandwidth) << " (" << order.method << ")\n  "
      << std::setw(22) << "solver" << c.solver.method << " on " << c.solver.device << "\n  " << std::setw(22) << "residual"
      << std::scientific << std::setprecision(2) << residual << std::defaultfloat << "\n";
  if (summary.contains("max_displacement"))
    log << "  " << std::setw(22) << "max |displacement|" << summary["max_displacement"].get<double>() << "\n  " << std::setw(22)
        << "max von Mises" << summary["max_von_mises"].get<double>() << "\n";
  else
    log << "  " << std::setw(22) << "temperature" << summary["temperature_range"][0].get<double>() << " .. "
        << summary["temperature_range"][1].get<double>() << "\n";
  double total = 0;
  for (const auto& [k, v] : phases.times().items()) total += v.get<double>();
  log << "  " << std::setw(22) << "time" << std::fixed << std::setprecision(2) << total << " s\n  " << std::setw(22)
      << "peak memory" << std::setprecision(1) << peak_memory_bytes() / 1048576.0 << " MiB" << std::defaultfloat << "\n  "
      << std::setw(22) << "results" << c.output.directory.string() << "\n";
  return summary;
}

}  // namespace fem
