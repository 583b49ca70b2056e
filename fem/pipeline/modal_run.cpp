#include "fem/pipeline/modal_run.hpp"

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <ostream>
#include <sstream>

#include "fem/analysis/modal_analysis.hpp"
#include "fem/output/matrix_market.hpp"
#include "fem/pipeline/answer_check.hpp"
#include "fem/pipeline/memory_watermark.hpp"
#include "fem/pipeline/number_format.hpp"
#include "fem/pipeline/run_summary.hpp"
#include "solvers/solver_table.hpp"
#include "support/stopwatch.hpp"

namespace fem {
namespace {

using nlohmann::json;

void require_modal_setup(const AnalysisInputs& in, const Executor& executor) {
  const Case& c = in.run_case;
  if (executor.piece() && c.analysis.method != EigenMethod::Slepc)
    throw CaseError(c.file.string() + ":" + std::to_string(c.analysis.line) +
                    ": a modal analysis runs on several processes with analysis.method: slepc only (lanczos and "
                    "lobpcg run in one process: start fem without mpirun)");
  if (c.analysis.method == EigenMethod::Lanczos && in.solver.uses_element_matrices())
    throw CaseError(c.file.string() + ":" + std::to_string(c.analysis.line) +
                    ": a modal analysis with Lanczos factorises K - sigma M, which " + name_of(in.options.method) +
                    " (element by element) cannot; choose band-cholesky or multifrontal, or analysis.method: lobpcg");
}

std::string describe_modes(const ModalSolution& modal, const SolverOptions& options, EigenMethod method) {
  const auto& e = modal.eigen;
  const bool lanczos = method == EigenMethod::Lanczos, lobpcg = method == EigenMethod::Lobpcg;
  std::ostringstream s;
  s << modal.frequencies_hz.size() << " modes, "
    << (lobpcg ? "LOBPCG with AMG on " + std::string(name_of(options.device))
        : lanczos ? "shift-invert Lanczos on " + std::string(name_of(options.method)) + " " + name_of(options.device)
                  : std::string("SLEPc Krylov-Schur, MUMPS shift-invert"))
    << " (shift " << std::setprecision(3) << e.shift << ", block " << e.block_size << ", " << e.restarts
    << (lanczos ? " restarts, " : " iterations, ") << e.solves << (lobpcg ? " V-cycles" : " solves") << "; setup "
    << std::fixed << std::setprecision(2) << e.setup.time_setup_s << " s + " << (lobpcg ? "V-cycles " : "solves ")
    << e.time_solve_s << " s)" << std::defaultfloat;
  if (!e.reuses_preparation) s << "; " << options.method << " repeats its set-up for every solve";
  return s.str();
}

void print_mode_table(std::ostream& log, const ModalSolution& modal) {
  log << "\n  mode   frequency [Hz]   residual\n";
  char line[96];
  for (std::size_t i = 0; i < modal.frequencies_hz.size(); ++i) {
    std::snprintf(line, sizeof line, "  %4zu   %14.6g   %.2e\n", i + 1, modal.frequencies_hz[i], modal.residuals[i]);
    log << line;
  }
}

json modal_summary(const AnalysisInputs& in, const DiscreteSystem& system, const ModalSolution& modal) {
  const Case& c = in.run_case;
  json summary = summary_head(c, in.mesh, in.problem, in.ordering, system.dofs().num_dofs(), system.nnz());
  const auto& e = modal.eigen;
  const int d = in.problem.physics.dofs_per_node();
  const auto directions = [&](const std::array<double, 3>& v) { return std::vector<double>(v.begin(), v.begin() + d); };
  summary["analysis"] = "modal";
  summary["mass"] = c.analysis.mass == MassLumping::Lumped ? "lumped" : "consistent";
  summary["modes"] = c.analysis.modes;
  summary["frequencies_hz"] = modal.frequencies_hz;
  summary["eigenvalues"] = e.eigenvalues;
  summary["mode_residuals"] = modal.residuals;
  summary["residual"] = *std::max_element(modal.residuals.begin(), modal.residuals.end());
  json gamma = json::array(), mass = json::array();
  for (std::size_t i = 0; i < modal.participation.size(); ++i) {
    gamma.push_back(directions(modal.participation[i]));
    mass.push_back(directions(modal.effective_mass[i]));
  }
  summary["participation_factors"] = gamma;
  summary["effective_masses"] = mass;
  summary["total_mass"] = modal.total_mass;
  const EigenMethod method = c.analysis.method;
  const std::string name = method == EigenMethod::Lobpcg  ? "lobpcg-amg"
                           : method == EigenMethod::Slepc ? "slepc-krylov-schur"
                                                          : "shift-invert-lanczos";
  if (method != EigenMethod::Lanczos) summary["solver"] = name;  // solver.method is not used
  summary["eigen_solver"] = {{"method", name},
                             {"shift", e.shift},
                             {"block_size", e.block_size},
                             {"subspace", e.subspace},
                             {method == EigenMethod::Lanczos ? "restarts" : "iterations", e.restarts},
                             {"solves", e.solves},
                             {"reuses_preparation", e.reuses_preparation},
                             {"time_setup_s", e.setup.time_setup_s},
                             {"time_solve_s", e.time_solve_s}};
  summary["solver_figures"] = e.setup.figures;
  return summary;
}

// Point data mode_1 ... mode_N; the ParaView view warps by mode 1 and names its frequency.
ResultFields modal_fields(const AnalysisInputs& in, const ModalSolution& modal) {
  ResultFields fields;
  fields.mesh = &in.mesh;
  for (std::size_t i = 0; i < modal.shapes.size(); ++i)
    fields.points.push_back({"mode_" + std::to_string(i + 1), 3, modal.shapes[i]});
  CellArray material{"material", {}};
  material.values.assign(in.problem.cell_material.begin(), in.problem.cell_material.end());
  fields.cells.push_back(std::move(material));
  ParaviewView& view = fields.view;
  view.title = in.run_case.title;
  view.dimension = in.mesh.dimension;
  std::ostringstream label;
  label << "mode 1, " << std::setprecision(4) << modal.frequencies_hz.front() << " Hz (largest displacement 1)";
  view.color_field = "mode_1";
  view.color_label = label.str();
  view.warp = true;
  view.warp_field = "mode_1";
  view.warp_scale = deformation_scale(in.mesh.coords, 1.0);
  return fields;
}

}  // namespace

json run_modal(const AnalysisInputs& in, Executor& executor, ResultSink& sink, PhaseLog& phases, std::ostream& log) {
  require_modal_setup(in, executor);
  const Case& c = in.run_case;
  DiscreteSystem system(in.problem, in.graph, in.ordering);
  // LOBPCG on cuda: K assembled there too (the mass stays on the host, as the shifted matrix does).
  system.assemble_on_cuda_when_possible(in.options.device == Device::Cuda && c.analysis.method == EigenMethod::Lobpcg);
  CsrMatrix mass;
  double total_mass = 0;
  phases.run("assemble", [&] {
    ProgressMeter progress(in.options);
    system.prepare(false, &progress);
    mass = assemble_mass(in.problem, system.dofs(), in.graph, c.analysis.mass);
    total_mass = translational_mass(mass, system.dofs());
    remove_fixed_mass(mass, system.constraints());
    return with_commas(system.dofs().num_dofs()) + " equations, " + with_commas(system.nnz()) + " nonzeros, " +
           with_commas(system.constraints().count) + " fixed, " +
           (c.analysis.mass == MassLumping::Lumped ? "lumped" : "consistent") + " mass";
  });

  const bool lanczos = c.analysis.method == EigenMethod::Lanczos;
  const SolverMethod* method = find_solver_method(in.options.method);
  if (lanczos && method && method->kind == SolverKind::Iterative)
    log << "fem: note     " << in.options.method << " solves K - sigma M afresh, to its tolerance, in every Lanczos step; "
        << "a direct method (band-cholesky, multifrontal) factorises it once\n";
  ModalSolution modal;
  phases.run("solve", [&] {
    modal = solve_modal(system.dofs(), system.assembled().matrix, mass, total_mass, in.solver, system.nodes(),
                        in.options.amg, in.options.device, c.analysis, in.options.progress);
    return describe_modes(modal, in.options, c.analysis.method);
  });
  // Every method is held to what a direct solve is: an inexact inner solve (cg) costs the modes
  // more than its own tolerance, so that tolerance is no measure for them.
  const double limit = kUsableResidual;
  for (std::size_t i = 0; i < modal.residuals.size(); ++i)
    if (!(modal.residuals[i] <= limit)) {
      char line[320];
      std::snprintf(line, sizeof line,
                    "mode %zu (%.6g Hz) has the relative residual ||Kx - lambda Mx|| / ||Kx|| = %.3e, above %.1e: "
                    "the modes are not written%s",
                    i + 1, modal.frequencies_hz[i], modal.residuals[i], limit,
                    lanczos && method && method->kind == SolverKind::Iterative
                        ? " (tighten solver.tolerance, or use a direct method)"
                        : "");
      throw SolveFailure(line);
    }
  print_mode_table(log, modal);

  json summary = modal_summary(in, system, modal);
  // Under mpirun (SLEPc) every process holds the whole answer: the first writes it.
  if (const auto piece = executor.piece()) summary["ranks"] = piece->ranks;
  if (executor.is_root()) phases.run("write", [&] {
    AtomicOutput output(c.output.directory);
    const Stopwatch writing;
    const StagedFields staged = sink.stage(output, c.name, modal_fields(in, modal), std::nullopt);
    const double field_seconds = writing.seconds();
    if (in.overrides.export_matrix) {
      const std::string what = c.name + ": " + with_commas(system.dofs().num_dofs()) + " equations in fem's " +
                               in.ordering.method + " numbering, fixed equations";
      write_matrix_market(output.stage(c.name + "-K.mtx"), system.assembled().matrix, "K of " + what + " cleared, diagonal kept");
      write_matrix_market(output.stage(c.name + "-M.mtx"), mass, "M of " + what + " cleared");
    }
    phases.set_time("write", field_seconds);
    phases.describe(summary);
    summary["write"] = {{"bytes", staged.bytes}, {"seconds", field_seconds}};
    summary["peak_memory_bytes"] = peak_memory_bytes();
    output.stage_text(c.name + ".json", summary.dump(2, ' ', false, json::error_handler_t::replace) + "\n");
    std::string list;
    for (const auto& p : output.commit()) list += (list.empty() ? "" : ", ") + p.filename().string();
    if (!staged.note.empty()) list += " (" + staged.note + ")";
    return list;
  });
  phases.describe(summary);
  if (executor.is_root()) print_run_summary(log, summary, c.output.directory.string());
  return summary;
}

}  // namespace fem
