#include "bench/pipeline/single_run.hpp"

#include <iostream>
#include <memory>

#include "fem/config.hpp"
#include "fem/output/result_sink.hpp"
#include "fem/pipeline/host_executor.hpp"
#include "fem/pipeline/run_pipeline.hpp"
#include "solvers/linear_solver.hpp"
#include "solvers/solver_table.hpp"
#include "support/atomic_output.hpp"
#if FEM_WITH_VTK
#include "fem/output/vtk_result_sink.hpp"
#endif

namespace fem::bench {
namespace {

// --write none: the pipeline without its field files, to see the rest alone.
std::unique_ptr<ResultSink> make_sink(const std::string& write, const Case& c) {
  if (write == "none") return std::make_unique<SummaryOnlySink>("no field files: --write none");
#if FEM_WITH_VTK
  return std::make_unique<VtkResultSink>(c.output.compression);
#else
  (void)c;
  return std::make_unique<SummaryOnlySink>();
#endif
}

}  // namespace

void run_single_case(const std::filesystem::path& case_file, const std::string& write) {
  RunOverrides overrides;
  overrides.quiet = true;
  const Case c = load_case_with(case_file, overrides);
  try {
    require_available_solver(c.solver.method, c.solver.device);
    HostExecutor executor;
    const auto sink = make_sink(write, c);
    run_pipeline(c, overrides, executor, *sink, std::cout);
  } catch (const SolverUnavailable& e) {
    write_file_atomically(case_file.parent_path() / "unavailable.txt", std::string(e.what()) + "\n");
    throw;
  }
}

}  // namespace fem::bench
