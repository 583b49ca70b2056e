// solver.method: auto: a direct factorisation for small, 2D and many-right-hand-side problems, CG
// with AMG for large 3D parts, never a factor that does not fit; fem run and fem check say what
// they chose and why.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "fem/app/check_command.hpp"
#include "fem/app/run_command.hpp"
#include "fem/config.hpp"
#include "fem/resources/method_choice.hpp"
#include "solvers/solver_table.hpp"
#include "tests/app/app_test_support.hpp"

using namespace fem;
using namespace fem::resources;
using fem::test::TempDir;

namespace {

// A fixed machine, so that the choices below do not depend on the one running the test.
constexpr MachineRates kMachine{50e9, 12e9, 5e-6, "of the test"};
constexpr std::size_t kGiB = std::size_t{1} << 30;

// An elasticity system of `dofs` unknowns on a hex8 (3D) or quad4 (2D) mesh.
SystemSize elasticity(std::int64_t dofs, int dimension) {
  SystemSize s;
  s.dimension = dimension;
  s.dofs_per_node = dimension;
  s.dofs = dofs;
  s.nnz = dofs * (dimension == 3 ? 81 : 18);
  s.bandwidth = static_cast<std::int64_t>(dimension == 3 ? 3 * std::pow(dofs / 3.0, 2.0 / 3) : 2 * std::sqrt(dofs / 2.0));
  return s;
}

SolverMethodId direct_method() {
  return solver_unavailable_reason(SolverMethodId::Multifrontal, Device::Cpu).empty() ? SolverMethodId::Multifrontal
                                                                                      : SolverMethodId::BandCholesky;
}

}  // namespace

TEST_CASE("auto factorises small and 2D systems and iterates on large 3D ones") {
  const SolveWork once{Preconditioner::Auto, 1e-8, 1};
  const MethodChoice small = choose_method(elasticity(6000, 3), Device::Cpu, once, false, 16 * kGiB, kMachine);
  CHECK(small.method == direct_method());
  CHECK(small.reason.find("direct factorisation is") != std::string::npos);
  const MethodChoice large = choose_method(elasticity(800000, 3), Device::Cpu, once, false, 16 * kGiB, kMachine);
  CHECK(large.method == SolverMethodId::Cg);
  CHECK(large.reason.find("GFLOP/s") != std::string::npos);  // the rates it assumed are named
  if (direct_method() == SolverMethodId::Multifrontal)  // nested dissection in 2D: n^1.5 flops
    CHECK(choose_method(elasticity(200000, 2), Device::Cpu, once, false, 16 * kGiB, kMachine).method == SolverMethodId::Multifrontal);
}

TEST_CASE("auto counts every right-hand side: many favour the factorisation") {
  // A 2D size where one solve is CG's but two thousand time steps are the factor's.
  if (direct_method() != SolverMethodId::Multifrontal) return;  // a band factor of this size is not
  const SystemSize system = elasticity(400000, 2);
  const MethodChoice one = choose_method(system, Device::Cpu, {Preconditioner::Auto, 1e-8, 1}, false, 16 * kGiB, kMachine);
  const MethodChoice many = choose_method(system, Device::Cpu, {Preconditioner::Auto, 1e-8, 2000}, false, 16 * kGiB, kMachine);
  CHECK(one.method == SolverMethodId::Cg);
  CHECK(many.method == direct_method());
  CHECK(many.reason.find("2000 right-hand sides") != std::string::npos);
}

TEST_CASE("auto never chooses a factor that does not fit in half the memory") {
  const SolveWork once{Preconditioner::Auto, 1e-8, 1};
  const MethodChoice tight = choose_method(elasticity(6000, 3), Device::Cpu, once, true, 4 << 20, kMachine);
  CHECK(tight.method == SolverMethodId::Cg);
  CHECK(tight.reason.find("would not fit") != std::string::npos);
  // Shift-invert wants the factorisation even where one CG solve would be faster, when it fits.
  CHECK(choose_method(elasticity(800000, 3), Device::Cpu, once, true, 512 * kGiB, kMachine).method == direct_method());
  // No factorisation on OpenCL: CG there.
  CHECK(choose_method(elasticity(6000, 3), Device::OpenCl, once, false, 16 * kGiB, kMachine).method == SolverMethodId::Cg);
}

TEST_CASE("fem run and fem check say what auto chose, and the summary records why") {
  TempDir dir;
  const auto file = dir.write("beam.yaml", fem::test::cantilever_case("auto", "{size: [4, 1, 1], divisions: [8, 2, 2]}", "-1e5",
                                                                      "  renumber: auto\n"));
  std::ostringstream check_log;
  CHECK(check_case(file, {}, check_log) == 0);
  CAPTURE(check_log.str());
  CHECK(check_log.str().find("fem: auto     solver " + std::string(name_of(direct_method())) + ":") != std::string::npos);
  CHECK(check_log.str().find("measured now") != std::string::npos);

  std::ostringstream run_log;
  RunOverrides quiet;
  quiet.quiet = true;
  const nlohmann::json summary = run_case(file, quiet, run_log);
  CAPTURE(run_log.str());
  CHECK(summary["solver"] == name_of(direct_method()));
  CHECK(summary["solver_chosen_by"] == "auto");
  CHECK(summary["solver_chosen_because"].get<std::string>().find("direct factorisation is") != std::string::npos);
  CHECK(summary["residual"].get<double>() < 1e-10);
  CHECK(run_log.str().find("fem: auto     solver") != std::string::npos);

  // A named method is kept and no choice is recorded.
  RunOverrides named = quiet;
  named.method = "cg";
  const nlohmann::json cg = run_case(file, named, run_log);
  CHECK(cg["solver"] == "cg");
  CHECK_FALSE(cg.contains("solver_chosen_by"));
}
