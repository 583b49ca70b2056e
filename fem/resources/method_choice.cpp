#include "fem/resources/method_choice.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "fem/renumber/ordering_metrics.hpp"
#include "fem/renumber/reverse_cuthill_mckee.hpp"
#include "fem/resources/case_fit.hpp"
#include "solvers/solver_table.hpp"
#include "support/host_memory.hpp"

namespace fem::resources {
namespace {

bool built_on(SolverMethodId method, Device device) { return solver_unavailable_reason(method, device).empty(); }

// The factorisation auto weighs against CG: multifrontal where this build has it on `device`.
SolverMethodId direct_candidate(Device device) {
  return built_on(SolverMethodId::Multifrontal, device) ? SolverMethodId::Multifrontal : SolverMethodId::BandCholesky;
}

std::string seconds_text(double seconds) {
  std::ostringstream s;
  s << std::setprecision(seconds < 10 ? 2 : 3) << seconds << " s";
  return s.str();
}

// The right-hand sides a shift-invert Lanczos run solves for `modes` modes: a few Krylov blocks
// of the modes' size, restarts included.
int lanczos_solves(int modes) { return 4 * modes + 20; }

// Below this a direct solve is preferred even where CG would be a little faster: its answer is
// exact to rounding, with no tolerance to choose, and the difference is not worth having.
constexpr double kQuickEnough_s = 1.0;
// A machine slower than any fem runs on: what is quick on it is quick anywhere.
constexpr MachineRates kSlowMachine{2e9, 2e9, 1e-3, "(a slow machine's: no need to measure this one)"};

}  // namespace

MethodChoice choose_method(const SystemSize& system, Device device, const SolveWork& work,
                           bool needs_factorisation, std::size_t available, const MachineRates& rates) {
  const SolverMethodId direct = direct_candidate(device);
  const TimeEstimate factor = estimate_time(direct, system, work, rates);
  const TimeEstimate krylov = estimate_time(SolverMethodId::Cg, system, work, rates);
  const double direct_s = factor.seconds(work.right_hand_sides), krylov_s = krylov.seconds(work.right_hand_sides);
  const std::size_t direct_bytes = solve_bytes(direct, system);
  const bool fits = built_on(direct, device) && direct_bytes <= available / 2;

  std::ostringstream because;
  because << name_of(direct) << " about " << seconds_text(direct_s) << " and " << bytes_text(static_cast<double>(direct_bytes))
          << ", CG with " << name_of(effective_preconditioner(work.preconditioner)) << " about " << seconds_text(krylov_s)
          << " (" << krylov.basis << ")";
  if (work.right_hand_sides > 1) because << " for " << work.right_hand_sides << " right-hand sides";
  because << ", at " << std::setprecision(3) << rates.flops_per_second / 1e9 << " GFLOP/s, "
          << rates.bytes_per_second / 1e9 << " GB/s and " << std::setprecision(2) << rates.parallel_region_s * 1e6
          << " us a parallel region " << rates.source;
  if (fits && (needs_factorisation || direct_s <= krylov_s || direct_s <= kQuickEnough_s))
    return {direct,
            std::string(needs_factorisation      ? "shift-invert needs a factorisation and it fits: "
                        : direct_s <= krylov_s ? "the direct factorisation is the faster: "
                                               : "the direct factorisation is quick and exact: ") +
                because.str(),
            direct_s};
  return {SolverMethodId::Cg,
          std::string(fits ? "CG is the faster: "
                           : "the factor would not fit in half the " + bytes_text(static_cast<double>(available)) +
                                 " available: ") +
              because.str(),
          krylov_s};
}

MethodChoice choose_method_for(const Case& c, const renumber::NodeGraph& graph, int dimension, int dofs_per_node,
                               std::size_t available) {
  SolveWork work;
  work.preconditioner = c.solver.preconditioner;
  work.tolerance = c.solver.tolerance;
  work.right_hand_sides = std::max<int>(1, static_cast<int>(c.load_cases.size()));
  const AnalysisSpec& a = c.analysis;
  if (a.type == AnalysisType::Transient && a.time_step > 0)
    work.right_hand_sides = static_cast<int>(std::min(1e6, std::ceil(a.end_time / a.time_step)));
  const bool lanczos = a.type == AnalysisType::Modal && a.method == EigenMethod::Lanczos;
  if (lanczos) work.right_hand_sides = lanczos_solves(a.modes);
  // The band candidate's bandwidth is the one reverse Cuthill-McKee would give it; nested
  // dissection's fill depends on the size alone.
  const bool band = direct_candidate(c.solver.device) == SolverMethodId::BandCholesky;
  const auto ordered = band ? renumber::ordering_metrics(graph, renumber::reverse_cuthill_mckee(graph), dofs_per_node)
                            : renumber::OrderingMetrics{};
  const SystemSize system = system_size(graph, ordered, dimension, dofs_per_node);
  // A system a slow machine factorises in under a second is factorised without measuring this
  // one (the probes' arrays would be most of a small run's memory).
  MethodChoice quick = choose_method(system, c.solver.device, work, lanczos, available, kSlowMachine);
  if (quick.method != SolverMethodId::Cg && quick.seconds <= kQuickEnough_s) return quick;
  return choose_method(system, c.solver.device, work, lanczos, available, machine_rates());
}

void resolve_auto_method(Case& c, const renumber::NodeGraph& graph, int dimension, int dofs_per_node) {
  if (c.solver.method != SolverMethodId::Auto) return;
  MethodChoice choice = choose_method_for(c, graph, dimension, dofs_per_node, host_available_memory());
  c.solver.method = choice.method;
  c.solver.method_chosen_because = std::move(choice.reason);
}

}  // namespace fem::resources
