#include "bench/pipeline/single_run.hpp"

#include <iostream>
#include <memory>

#include "fem/output/result_sink.hpp"
#include "fem/pipeline/host_executor.hpp"
#include "fem/pipeline/run_pipeline.hpp"
#include "solvers/linear_solver.hpp"
#include "solvers/solver_table.hpp"
#include "support/atomic_output.hpp"

namespace fem::bench {
namespace {

// --write none: the pipeline without its field files, to see the rest alone.
std::unique_ptr<ResultSink> make_sink(const std::string& write, const Case& c) {
  if (write == "none") return std::make_unique<SummaryOnlySink>("no field files: --write none");
  return make_field_sink(c.output.compression);
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
