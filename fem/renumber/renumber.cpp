#include "fem/renumber/renumber.hpp"

#include <stdexcept>
#include <string>
#include <tuple>

#include "fem/renumber/breadth_first_sweep.hpp"
#include "fem/renumber/gibbs_poole_stockmeyer.hpp"
#include "fem/renumber/reverse_cuthill_mckee.hpp"
#include "fem/renumber/sloan.hpp"
#include "support/stopwatch.hpp"

namespace fem::renumber {
namespace {

constexpr RenumberMethod all_methods[] = {RenumberMethod::None, RenumberMethod::Rcm, RenumberMethod::Gps,
                                          RenumberMethod::Sloan, RenumberMethod::Auto};

// Time of GPS and Sloan relative to RCM on the same graph, from fem-bench-renumber
// (bench/results/2026-11-22-renumbering.md), rounded up: used to skip
// what would overrun the budget.
double expected_cost_relative_to_rcm(RenumberMethod method) { return method == RenumberMethod::Sloan ? 2.0 : 1.5; }

// Lexicographic key of what the goal minimises; smaller is better.
std::tuple<double, double> goal_key(const OrderingMetrics& m, RenumberGoal goal) {
  switch (goal) {
    case RenumberGoal::Bandwidth: return {double(m.bandwidth), double(m.profile)};
    case RenumberGoal::Front: return {m.rms_wavefront, double(m.profile)};
    case RenumberGoal::Locality: return {double(m.profile), double(m.bandwidth)};
  }
  throw std::invalid_argument("renumber: unknown goal");
}

}  // namespace

RenumberMethod parse_renumber_method(std::string_view name) {
  for (RenumberMethod m : all_methods)
    if (method_name(m) == name) return m;
  throw std::invalid_argument("renumber: unknown method '" + std::string(name) +
                              "' (expected none, rcm, gps, sloan or auto)");
}

std::string_view method_name(RenumberMethod method) {
  switch (method) {
    case RenumberMethod::None: return "none";
    case RenumberMethod::Rcm: return "rcm";
    case RenumberMethod::Gps: return "gps";
    case RenumberMethod::Sloan: return "sloan";
    case RenumberMethod::Auto: return "auto";
  }
  return "?";
}

Permutation renumber(const NodeGraph& graph, RenumberMethod method) {
  switch (method) {
    case RenumberMethod::None: return Permutation::identity(graph.num_nodes());
    case RenumberMethod::Rcm: return reverse_cuthill_mckee(graph);
    case RenumberMethod::Gps: return gibbs_poole_stockmeyer(graph);
    case RenumberMethod::Sloan: return sloan(graph);
    case RenumberMethod::Auto: break;
  }
  throw std::invalid_argument("renumber: 'auto' needs a goal; call renumber_auto");
}

std::size_t row_window_bytes(const OrderingMetrics& metrics) {
  return static_cast<std::size_t>(2 * metrics.bandwidth + 1) * sizeof(double);
}

AutoChoice renumber_auto(const NodeGraph& graph, RenumberGoal goal, int dofs_per_node, double budget_seconds,
                         std::size_t cache_bytes) {
  const Stopwatch choosing;

  AutoChoice best{RenumberMethod::None, {}, {}, {}, {}};
  double rcm_seconds = 0;
  auto consider = [&](RenumberMethod method) {
    const Stopwatch renumbering;
    Permutation p = renumber(graph, method);
    const double seconds = renumbering.seconds();
    const OrderingMetrics m = ordering_metrics(graph, p, dofs_per_node);
    best.trials.push_back({method, m, seconds});
    if (method == RenumberMethod::Rcm) rcm_seconds = seconds;
    if (best.trials.size() == 1 || goal_key(m, goal) < goal_key(best.metrics, goal)) {
      best.method = method;
      best.permutation = std::move(p);
      best.metrics = m;
    }
  };

  consider(RenumberMethod::None);
  if (goal == RenumberGoal::Locality) {
    if (row_window_bytes(best.metrics) <= cache_bytes) return best;
    best.sweep = ordering_metrics(graph, breadth_first_sweep(graph), dofs_per_node);
    if (static_cast<double>(best.metrics.profile) <= kLocalityKeptWithin * static_cast<double>(best.sweep->profile))
      return best;
  }
  consider(RenumberMethod::Rcm);
  const bool sloan_first = goal == RenumberGoal::Front;
  for (RenumberMethod method : {sloan_first ? RenumberMethod::Sloan : RenumberMethod::Gps,
                                sloan_first ? RenumberMethod::Gps : RenumberMethod::Sloan})
    if (choosing.seconds() + expected_cost_relative_to_rcm(method) * rcm_seconds <= budget_seconds) consider(method);
  return best;
}

}  // namespace fem::renumber
