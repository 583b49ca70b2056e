#pragma once
// The renumbering stage by name, as the case file's solver.renumber selects it:
// none | rcm | gps | sloan | auto.
#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "fem/renumber/node_graph.hpp"
#include "fem/renumber/ordering_metrics.hpp"
#include "fem/renumber/permutation.hpp"
#include "support/core_cache.hpp"

namespace fem::renumber {

enum class RenumberMethod { None, Rcm, Gps, Sloan, Auto };

// What `auto` minimises, after what the solver pays for: Bandwidth (band Cholesky; ties by
// profile), Front (frontal solver: RMS wavefront, ties by profile), Locality (SpMV and iterative
// solvers: profile, i.e. the mean distance from a row to its first column, ties by bandwidth).
enum class RenumberGoal { Bandwidth, Front, Locality };

// "none", "rcm", "gps", "sloan", "auto"; throws std::invalid_argument naming the accepted ones.
RenumberMethod parse_renumber_method(std::string_view name);
std::string_view method_name(RenumberMethod method);

// The numbering a method gives; None is the identity. Auto is not a method here (it needs a
// goal): it throws std::invalid_argument, use renumber_auto.
Permutation renumber(const NodeGraph& graph, RenumberMethod method);

struct MethodTrial {
  RenumberMethod method;
  OrderingMetrics metrics;  // with the dofs per node given to renumber_auto
  double seconds;           // for the numbering alone
};

struct AutoChoice {
  RenumberMethod method;            // the winner, never Auto
  Permutation permutation;
  OrderingMetrics metrics;
  std::vector<MethodTrial> trials;  // every method run, the original numbering (None) first
  std::optional<OrderingMetrics> sweep;  // the breadth_first_sweep, when the Locality goal measured it
};

// For the Locality goal (iterative solvers, whose cost hardly changes with the profile once rows
// are local) the original numbering is kept when its profile is at most this many times a
// breadth_first_sweep's: no method would bring the rows' columns much nearer.
inline constexpr double kLocalityKeptWithin = 2.0;

// The bytes of the solution vector a product with the matrix keeps in use under `metrics`: row i
// reaches columns i - bandwidth .. i + bandwidth, and an entry is read again a bandwidth later.
std::size_t row_window_bytes(const OrderingMetrics& metrics);

// Measures the original numbering first. For the Locality goal it keeps the original numbering,
// running no method, when its row window fits in `cache_bytes` (the products then read the
// vector from the core's cache whatever the order; 0: never), or else when a
// breadth_first_sweep's profile is not kLocalityKeptWithin times smaller. Otherwise, and always for Bandwidth and Front (direct
// solvers, whose cost grows with the square of the measure, so that even a small gain pays for
// the methods), it runs RCM, then GPS and Sloan (most promising for the goal first), each only
// while its expected time fits in what is left of `budget_seconds`, and keeps the best for the
// goal. RCM always runs then.
AutoChoice renumber_auto(const NodeGraph& graph, RenumberGoal goal, int dofs_per_node = 1,
                         double budget_seconds = 2.0, std::size_t cache_bytes = core_cache_bytes());

}  // namespace fem::renumber
