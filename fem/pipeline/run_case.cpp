#include "fem/pipeline/run_case.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <map>
#include <omp.h>
#include <optional>
#include <ostream>
#include <sstream>

#include "fem/pipeline/discrete_system.hpp"
#include "fem/pipeline/memory_watermark.hpp"
#include "fem/pipeline/node_ordering.hpp"
#include "fem/pipeline/number_format.hpp"
#include "fem/pipeline/phase_log.hpp"
#include "fem/config.hpp"
#include "support/atomic_output.hpp"
#include "fem/output/matrix_market.hpp"
#include "fem/parallel/mpi_launch.hpp"
#include "fem/post/nodal_results.hpp"
#include "fem/renumber/ordering_metrics.hpp"
#include "fem/resources/case_fit.hpp"
#include "solvers/direct/available_memory.hpp"
#include "solvers/linear_solver.hpp"
#include "solvers/progress_meter.hpp"
#include "solvers/solver_table.hpp"
#include "support/stopwatch.hpp"
#if FEM_WITH_PETSC
#include "fem/parallel/collective.hpp"
#include "fem/parallel/distributed_system.hpp"
#include "solvers/petsc/petsc_session.hpp"
#endif
#if FEM_WITH_GMSH
#include "fem/mesh/gmsh_mesh.hpp"
#endif
#if FEM_WITH_VTK
#include "fem/output/paraview_script.hpp"
#include "fem/output/pvtu_writer.hpp"
#include "fem/output/vtu_writer.hpp"
#endif

namespace fem {
namespace {

// What a direct solve must reach on the system it was given (they reach 1e-12 and better when it is
// well posed).
constexpr double kDirectResidualLimit = 1e-6;

namespace fs = std::filesystem;
using nlohmann::json;

// Where a GPU's SpMV setting came from (kernels/cpu/spmv_autotune.hpp): the tuning cache, timing or the model alone.
std::string spmv_tuning_source(const std::map<std::string, double>& figures) {
  if (figures.count("spmv_tuning_cached") && figures.at("spmv_tuning_cached") > 0) return "cache";
  return figures.count("spmv_tuning_timed") && figures.at("spmv_tuning_timed") > 0 ? "timed" : "model";
}

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

#if FEM_WITH_VTK
// What the ParaView script left beside the results shows first: the deformed shape coloured by
// von Mises stress, or the temperature.
ParaviewView first_view(const Case& c, const Mesh& mesh, const Problem& problem, double max_displacement) {
  ParaviewView view;
  view.script_name = c.name + "-view.py";
  view.vtu_name = c.name + ".vtu";
  view.title = c.title;
  view.dimension = mesh.dimension;
  if (problem.physics.type == PhysicsType::Heat) {
    view.color_field = "temperature";
    view.color_label = "temperature [°C]";
    return view;
  }
  view.color_field = "von_mises";
  view.color_label = "von Mises stress [Pa]";
  view.warp = true;
  view.warp_scale = deformation_scale(mesh.coords, max_displacement);
  return view;
}
#endif

}  // namespace

void apply_overrides(Case& c, const RunOverrides& o) {
  if (o.method) c.solver.method = choose_override("solver", *o.method, solver_methods());
  if (o.device) c.solver.device = choose_override("device", *o.device, solver_devices());
  if (o.renumber) c.solver.renumber = choose_override("renumber", *o.renumber, kRenumberMethods);
  if (o.preconditioner) c.solver.preconditioner = *o.preconditioner;
  if (o.precision) c.solver.precision = choose_override("precision", *o.precision, {"double", "mixed"});
  if (o.tolerance) {
    if (!(*o.tolerance > 0)) throw CaseError("--tolerance must be positive");
    if (*o.tolerance < kSmallestTolerance) throw CaseError("--tolerance: " + tolerance_too_small(*o.tolerance));
    c.solver.tolerance = *o.tolerance;
  }
  if (o.output_directory) c.output.directory = fs::absolute(*o.output_directory);
}

Case load_case_with(const fs::path& case_file, const RunOverrides& overrides) {
  Case c = load_case(case_file, overrides.settings);
  apply_overrides(c, overrides);
  return c;
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
  options.check_estimate = [&spec](const GeoMeshEstimate& e) { resources::require_geo_mesh_fits(spec, e, band::host_available_memory()); };
  return mesh_from_geo(spec.file, options);
#else
  throw CaseError(spec.file.string() + ": this build of fem has no Gmsh (FEM_WITH_GMSH=OFF): use a 'box' mesh");
#endif
}

json run_case(const fs::path& case_file, const RunOverrides& overrides, std::ostream& console) {
  Case c = load_case_with(case_file, overrides);
  // A solver this build lacks is said before the mesh is made.
  require_available_solver(c.solver.method, c.solver.device);
  resources::require_mesh_fits(c, band::host_available_memory());
  // Under mpirun every rank runs this pipeline on its part of the mesh; rank 0 alone speaks and
  // writes the summary.
  const int ranks = launched_ranks();
  require_solver_for_ranks(c.solver.method, ranks);
  if (overrides.export_matrix && ranks > 1)
    throw std::runtime_error("--export-matrix writes the system of one process: run it without mpirun");
  int rank = 0;
#if FEM_WITH_PETSC
  std::optional<DistributedSystem> distributed;
  if (ranks > 1) {
    petsc::ensure_initialized();
    MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  }
#endif
  std::ostream silent(nullptr);
  std::ostream& log = rank == 0 ? console : silent;
  log << "fem: case     " << c.file.string() << ": " << c.title << "\n";
  PhaseLog phases(log);
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
#if FEM_WITH_PETSC
    if (ranks > 1) {  // the nodes grouped by rank, in the case's order within each
      distributed.emplace(problem, graph, order.permutation);
      order.method += " within " + std::to_string(ranks) + " METIS parts";
      order.permutation = distributed->permutation();
      order.after = renumber::ordering_metrics(graph, order.permutation, d);
    }
#endif
    std::ostringstream s;
    s << order.method << ": bandwidth " << with_commas(order.before.bandwidth) << " -> " << with_commas(order.after.bandwidth)
      << ", profile " << with_commas(order.before.profile) << " -> " << with_commas(order.after.profile);
    return s.str();
  });
  resources::require_system_fits(c, resources::system_size(graph, order.after, mesh.dimension, d), band::host_available_memory());

  SolverOptions options = c.solver;
  if (!overrides.quiet) options.progress = [&](const std::string& line) { phases.progress(line); };
  options.progress_interval_s = overrides.progress_interval_s;
  auto solver = make_solver(options);  // before assembly: an unavailable solver fails fast
  const bool by_elements = solver->uses_element_matrices();

  std::optional<DiscreteSystem> system;
  phases.run("assemble", [&] {
    system.emplace(problem, graph, order);
    ProgressMeter progress(options);
#if FEM_WITH_PETSC
    if (distributed) distributed->assemble(system->dofs(), system->constraints());
    else
#endif
      system->prepare(by_elements, &progress);
    return with_commas(system->dofs().num_dofs()) + " equations, " + with_commas(system->nnz()) + " nonzeros, " +
           with_commas(system->constraints().count) + " prescribed" + (by_elements ? ", element by element" : "");
  });
  const DofMap& dofs = system->dofs();
  const Constraints& constraints = system->constraints();
  const std::int64_t nnz = system->nnz();

  std::vector<double> u(dofs.num_dofs(), 0.0);
  SolveReport report;
  double residual = 0;
  phases.run("solve", [&] {
#if FEM_WITH_PETSC
    if (distributed) {
      report = distributed->solve(c.solver.method == "mumps" ? petsc::Method::Mumps : petsc::Method::Krylov, options, u, residual);
    } else
#endif
    {
      report = system->solve(*solver, u);
      residual = system->relative_residual(by_elements, u);
      // A direct solver on a singular system can meet only tiny positive pivots and return an
      // answer that solves nothing; the recomputed residual tells.
      if (report.iterations == 0 && !(residual <= kDirectResidualLimit))
        throw SolveFailure(c.solver.method + " returned a solution whose relative residual is " +
                           std::to_string(residual) +
                           ": the system is singular or nearly so (is the body held against every rigid motion, "
                           "rotations included?)");
    }
    std::ostringstream s;
    s << c.solver.method << " on " << c.solver.device;
    if (report.figures.count("amg_levels"))
      s << ", amg " << report.figures.at("amg_levels") << " levels (operator complexity " << std::fixed << std::setprecision(2)
        << report.figures.at("amg_operator_complexity") << std::defaultfloat << ")";
    s << ", setup " << std::fixed << std::setprecision(2) << report.time_setup_s << " s + solve " << report.time_solve_s
      << " s" << std::defaultfloat;
    if (report.iterations > 0) s << ", " << report.iterations << " iterations";
    if (report.figures.count("spmv_tuning_s"))
      s << ", SpMV tuning " << std::fixed << std::setprecision(2) << report.figures.at("spmv_tuning_s") << " s ("
        << spmv_tuning_source(report.figures) << ")" << std::defaultfloat;
    s << ", residual " << std::scientific << std::setprecision(2) << residual;
    return s.str();
  });

  NodalResults results;
  phases.run("post", [&] {
#if FEM_WITH_PETSC
    if (distributed) {  // each rank its own nodes, then put together
      results = recover_results(problem, dofs, constraints, u, distributed->post_cells());
      distributed->combine(results);
    } else
#endif
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
  summary["solver_time_s"] = {{"setup", report.time_setup_s}, {"solve", report.time_solve_s}};
  if (report.figures.count("spmv_tuning_s")) {  // of the setup: choosing the GPU's SpMV format
    summary["spmv_tuning_s"] = report.figures.at("spmv_tuning_s");
    summary["spmv_tuning_source"] = spmv_tuning_source(report.figures);
  }
#if FEM_WITH_PETSC
  if (is_distributed_method(c.solver.method)) {
    summary["ranks"] = ranks;
    summary["equations_per_rank"] = distributed ? distributed->equations_per_rank() : std::vector<std::int64_t>{dofs.num_dofs()};
    summary["petsc_options"] = c.solver.petsc_options;
    summary["converged_reason"] = petsc::converged_reason_name(static_cast<int>(report.figures["converged_reason"]));
    summary["time_pcsetup_s"] = report.figures["pc_setup_s"];
    summary["time_kspsolve_s"] = report.figures["ksp_solve_s"];
  }
#endif
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
    const auto stage = [&] {
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
      const Stopwatch writing;
      ParaviewView view = first_view(c, mesh, problem, summary.value("max_displacement", 0.0));
#if FEM_WITH_PETSC
      if (distributed) {  // a piece per rank (its own cells) and the .pvtu index that joins them
        std::vector<char> owned(mesh.num_nodes());
        for (std::size_t n = 0; n < owned.size(); ++n) owned[n] = distributed->owns_node(static_cast<int>(n));
        std::vector<std::string> pieces;
        for (int r = 0; r < ranks; ++r) pieces.push_back(c.name + "_" + std::to_string(r) + ".vtu");
        write_vtu_piece(output.stage(pieces[rank]), mesh, distributed->own_cells(), points, {material}, owned);
        if (rank == 0) write_pvtu(output.stage(c.name + ".pvtu"), pieces, points, {material});
        view.vtu_name = c.name + ".pvtu";
      } else
#endif
        write_vtu(output.stage(c.name + ".vtu"), mesh, points, {material});
      if (rank == 0) write_paraview_script(output.stage(c.name + "-view.py"), view);
      phases.set_time("write", writing.seconds());
#else
      (void)wanted;
      log << "(no .vtu: this build has no VTK) ";
#endif
      if (overrides.export_matrix) {
        system->prepare(false);  // the frontal method solved without assembling: assemble for the export
        const std::string what = c.name + ": " + with_commas(dofs.num_dofs()) + " equations in fem's " + order.method +
                                 " numbering, Dirichlet conditions applied";
        write_matrix_market(output.stage(c.name + "-K.mtx"), system->assembled().matrix, "K of " + what);
        write_matrix_market(output.stage(c.name + "-f.mtx"), system->assembled().rhs, "f of " + what);
      }
      summary["time_s"] = phases.times();  // "write": the .vtu; the small JSON itself comes last
      summary["peak_memory_bytes"] = peak_memory_bytes();
      if (rank == 0)
        output.stage_text(c.name + ".json", summary.dump(2, ' ', false, json::error_handler_t::replace) + "\n");
    };
#if FEM_WITH_PETSC
    if (distributed) collectively(PETSC_COMM_WORLD, stage);  // every rank's files, or none
    else
#endif
      stage();
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
