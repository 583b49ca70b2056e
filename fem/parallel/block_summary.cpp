#include "fem/parallel/block_summary.hpp"

#include <cmath>

#include "fem/parallel/rank_reductions.hpp"
#include "fem/pipeline/run_summary.hpp"
#include "fem/post/load_balance.hpp"

namespace fem {
namespace {

using nlohmann::json;

// Sizes and the numbering's measures over the whole box.
json block_head(const BlockRecord& r) {
  const RowFigures mine = r.system.row_figures();
  NodeOrdering ordering;
  ordering.method = "box in " + block_grid_name(r.part) + ", nodes block by block";
  ordering.before.bandwidth = max_over_ranks(mine.bandwidth);
  ordering.before.profile = sum_over_ranks(mine.profile);
  ordering.after = ordering.before;
  const std::int64_t dofs = r.part.box_nodes * r.problem.physics.dofs_per_node();
  json summary = summary_head(r.run_case, r.part.mesh, r.problem, ordering, dofs, sum_over_ranks(mine.nnz));
  summary["nodes"] = r.part.box_nodes;
  summary["elements"] = r.part.box_cells;
  summary.erase("max_wavefront");  // a measure of one process's whole matrix
  summary.erase("rms_wavefront");
  summary["mesh_distribution"] = "box blocks: each rank made its own block of cells and one ghost layer";
  return summary;
}

// Each rank's owned nodes only: the values at its ghosts are counted by their owners.
std::vector<double> owned_only(const BoxPart& part, std::span<const double> field) {
  std::vector<double> owned(field.begin(), field.end());
  const std::size_t width = part.owned.empty() ? 0 : field.size() / part.owned.size();
  for (std::size_t n = 0; n < part.owned.size(); ++n)
    if (!part.owned[n]) std::fill_n(owned.begin() + n * width, width, 0.0);
  return owned;
}

// A resultant summed over the ranks.
Resultant summed(const Resultant& x) {
  std::vector<double> v{x.force[0], x.force[1], x.force[2], x.moment[0], x.moment[1], x.moment[2]};
  sum_over_ranks(v);
  return {{v[0], v[1], v[2]}, {v[3], v[4], v[5]}};
}

json as_json(const Resultant& x) { return json{{"force", x.force}, {"moment", x.moment}}; }

void add_reactions(json& summary, const BlockRecord& r) {
  const std::vector<double> reaction = owned_only(r.part, r.results.reaction);
  auto groups = group_reactions(r.problem, reaction);
  for (auto& [name, force] : groups) {
    std::vector<double> total(force.begin(), force.end());
    sum_over_ranks(total);
    std::copy(total.begin(), total.end(), force.begin());
  }
  summary["reactions"] = group_reactions_summary(groups, r.problem.physics.dofs_per_node());
  if (r.problem.physics.type != PhysicsType::Elasticity) {
    double total = 0;
    for (const auto& [name, flow] : groups) total += flow[0];
    summary["reaction_total"] = total;
    return;
  }
  const std::array<double, 3> about = r.run_case.output.moments_about;
  const LoadBalance mine = load_balance(r.problem, reaction, about);  // its reactions; its applied counts the ghosts too
  json resultants = json::object();
  std::map<std::string, Resultant> group_totals;
  for (const auto& [group, x] : mine.groups) resultants[group] = as_json(group_totals[group] = summed(x));
  const Resultant reactions = summed(mine.reactions);
  // The applied loads' moments about the origin, moved to `about`: M - about x F.
  Resultant applied = summed(r.system.applied_share());
  const auto& F = applied.force;
  applied.moment[0] -= about[1] * F[2] - about[2] * F[1];
  applied.moment[1] -= about[2] * F[0] - about[0] * F[2];
  applied.moment[2] -= about[0] * F[1] - about[1] * F[0];
  const auto& size = r.run_case.mesh.box.size;
  const double diagonal = std::hypot(size[0], size[1], size.size() > 2 ? size[2] : 0.0);
  summary["moments_about"] = about;
  summary["group_resultants"] = resultants;
  summary["applied_total"] = as_json(applied);
  summary["reaction_total"] = as_json(reactions);
  summary["balance"] = balance_measure(applied, reactions, group_totals, diagonal);
}

void add_extremes(json& summary, const BlockRecord& r) {
  const NodalResults& results = r.results;
  const BoxPart& part = r.part;
  const auto extreme = [&](const char* key, double sign, auto value_at) {
    NodeExtreme mine{-sign * HUGE_VAL, 0, {}};
    bool found = false;
    for (std::size_t n = 0; n < part.owned.size(); ++n) {
      if (!part.owned[n]) continue;
      const double v = value_at(n);
      if (found && !(sign * v > sign * mine.value) &&
          !(sign * v == sign * mine.value && part.global_node[n] < mine.node))
        continue;
      found = true;
      mine = {v, part.global_node[n], {part.mesh.coords[3 * n], part.mesh.coords[3 * n + 1], part.mesh.coords[3 * n + 2]}};
    }
    const NodeExtreme best = extreme_over_ranks(mine, sign);
    summary[key] = best.value;
    summary[std::string(key) + "_at"] = {{"node", best.node}, {"x", best.x}};
  };
  if (r.problem.physics.type == PhysicsType::Elasticity) {
    const auto& u = results.displacement;
    extreme("max_displacement", 1, [&](std::size_t n) { return std::hypot(u[3 * n], u[3 * n + 1], u[3 * n + 2]); });
    extreme("max_von_mises", 1, [&](std::size_t n) { return results.von_mises[n]; });
    extreme("max_tresca", 1, [&](std::size_t n) { return results.tresca[n]; });
    extreme("max_principal_stress", 1, [&](std::size_t n) { return results.principal_stress[3 * n]; });
    extreme("min_principal_stress", -1, [&](std::size_t n) { return results.principal_stress[3 * n + 2]; });
    return;
  }
  json range = json::array();
  for (double sign : {-1.0, 1.0}) {
    extreme("temperature_extreme", sign, [&](std::size_t n) { return results.temperature[n]; });
    range.push_back(summary["temperature_extreme"]);
  }
  summary.erase("temperature_extreme");
  summary.erase("temperature_extreme_at");
  summary["temperature_range"] = range;
}

}  // namespace

json block_summary(const BlockRecord& r) {
  json summary = block_head(r);
  add_solve_summary(summary, r.solve);
  add_reactions(summary, r);
  add_extremes(summary, r);
  return summary;
}

}  // namespace fem
