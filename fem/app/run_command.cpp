#include "fem/app/run_command.hpp"

#include <memory>
#include <stdexcept>

#include "fem/config.hpp"
#include "fem/parallel/mpi_launch.hpp"
#include "fem/pipeline/host_executor.hpp"
#include "fem/pipeline/run_pipeline.hpp"
#include "fem/resources/case_fit.hpp"
#include "support/host_memory.hpp"
#include "solvers/solver_table.hpp"
#if FEM_WITH_PETSC
#include "fem/parallel/petsc_summary.hpp"
#include "fem/parallel/rank_executor.hpp"
#include "fem/parallel/block_run.hpp"
#include "solvers/petsc/petsc_session.hpp"
#endif

namespace fem {
namespace {

std::unique_ptr<Executor> make_executor(const Case& c, int ranks) {
#if FEM_WITH_PETSC
  if (ranks > 1) return std::make_unique<RankExecutor>();
  if (is_distributed_method(c.solver.method))  // petsc and mumps in one process report as under mpirun
    return std::make_unique<HostExecutor>([options = c.solver](nlohmann::json& summary, const SolveReport& report) {
      describe_petsc_solve(summary, report, options, {summary["dofs"].get<std::int64_t>()});
    });
#endif
  (void)c, (void)ranks;  // a build without PETSc refused several ranks before
  return std::make_unique<HostExecutor>();
}

}  // namespace

nlohmann::json run_case(const std::filesystem::path& case_file, const RunOverrides& overrides, std::ostream& log) {
  Case c = load_case_with(case_file, overrides);
  const int ranks = launched_ranks();
  if (c.solver.method == SolverMethodId::Auto && ranks > 1) {
    c.solver.method = SolverMethodId::Petsc;
    c.solver.method_chosen_because = "under mpirun: PETSc's CG with GAMG on the ranks' parts of the matrix";
  }
  // A solver this build lacks is said before the mesh is made.
  require_available_solver(method_to_check(c.solver), c.solver.device);
  resources::require_mesh_fits(c, host_available_memory());
  // A modal analysis by SLEPc runs on the ranks whatever solver.method names: it does not use it.
  if (!(c.analysis.type == AnalysisType::Modal && c.analysis.method == EigenMethod::Slepc))
    require_solver_for_ranks(c.solver.method, ranks);
  if (!c.load_cases.empty() && ranks > 1)
    throw std::runtime_error(c.file.string() + ": 'load_cases' are solved in one process (one preparation of K for "
                             "every case): run it without mpirun (petsc and mumps run in one process too)");
  if (overrides.export_matrix && ranks > 1)
    throw std::runtime_error("--export-matrix writes the system of one process: run it without mpirun");
  const auto sink = make_field_sink(c.output.compression);
#if FEM_WITH_PETSC
  // Under mpirun the built-in box is made per rank; the other cases are whole on every rank.
  const std::string whole_because = ranks > 1 ? why_not_on_blocks(c) : "";
  if (ranks > 1 && whole_because.empty()) {
    petsc::ensure_initialized();
    return run_on_blocks(c, overrides, *sink, log);
  }
#endif
  const auto executor = make_executor(c, ranks);
#if FEM_WITH_PETSC
  if (ranks > 1 && executor->is_root())
    log << "fem: route    " << ranks << " ranks, each building the whole mesh (" << whole_because
        << "; only the built-in box is made in blocks, one per rank)\n";
#endif
  return run_pipeline(c, overrides, *executor, *sink, log);
}

}  // namespace fem
