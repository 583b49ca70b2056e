#include "tests/support/solve.hpp"

#include <algorithm>
#include <cmath>

#include "fem/elements/isoparametric.hpp"
#include "fem/elements/quadrature.hpp"
#include "fem/physics/element_matrices.hpp"
#include "solvers/iterative/conjugate_gradient.hpp"

namespace fem::testing {

namespace {

Solution solve_with(const Problem& problem, LinearSolver& solver) {
  const Mesh& mesh = *problem.mesh;
  const auto graph = renumber::node_graph_from_elements(mesh.cells.offset, mesh.cells.node, static_cast<int>(mesh.num_nodes()));
  Solution s{make_dof_map(mesh.num_nodes(), problem.physics.dofs_per_node()), {}, {}, 0, 0};
  auto system = assemble(problem, s.dofs, graph);
  s.constraints = collect_constraints(problem, s.dofs);
  apply_constraints(system.matrix, system.rhs, s.constraints);
  s.u.assign(s.dofs.num_dofs(), 0.0);
  const auto report = solver.solve(AssembledSystem{system.matrix, system.rhs}, s.u);
  s.iterations = report.iterations;
  s.residual = report.residual;
  return s;
}

}  // namespace

Solution solve(const Problem& problem, double tolerance) {
  SolverOptions options;
  options.tolerance = tolerance;
  return solve_with(problem, *make_conjugate_gradient(options));
}

Solution solve_direct(const Problem& problem) {
  SolverOptions options;
  options.method = SolverMethodId::BandCholesky;
  return solve_with(problem, *make_solver(options));
}

double l2_error(const Problem& problem, const Solution& s, const PointFunction& exact) {
  const Mesh& mesh = *problem.mesh;
  const int d = problem.physics.dofs_per_node();
  double sum = 0;
  std::vector<double> coords;
  for (std::size_t e = 0; e < mesh.cells.size(); ++e) {
    const auto type = mesh.cells.type[e];
    const auto& info = element_info(type);
    const auto nodes = mesh.cells.nodes_of(e);
    gather_coords(mesh, nodes, coords);
    for (const auto& q : quadrature_rule(info.shape, 2 * info.order + 2)) {
      const VolumePoint vp = map_volume_point(type, coords, mesh.dimension, q.xi.data());
      double ue[3] = {0, 0, 0};
      exact(vp.x, ue);
      for (int c = 0; c < d; ++c) {
        double uh = 0;
        for (int a = 0; a < info.num_nodes; ++a) uh += vp.N[a] * s.value(nodes[a], c);
        sum += q.weight * std::abs(vp.detJ) * (uh - ue[c]) * (uh - ue[c]);
      }
    }
  }
  return std::sqrt(sum);
}

int nearest_node(const Mesh& mesh, double x, double y, double z) {
  int best = 0;
  double best_d = 1e300;
  for (std::size_t n = 0; n < mesh.num_nodes(); ++n) {
    const double dx = mesh.coords[3 * n] - x, dy = mesh.coords[3 * n + 1] - y, dz = mesh.coords[3 * n + 2] - z;
    const double dist = dx * dx + dy * dy + dz * dz;
    if (dist < best_d) best_d = dist, best = static_cast<int>(n);
  }
  return best;
}

std::vector<int> nodes_of_groups(const Mesh& mesh, const std::vector<std::string>& groups) {
  std::vector<int> nodes;
  for (const auto& name : groups) {
    const auto* g = mesh.find_group(name);
    if (!g) throw std::runtime_error("no group " + name);
    const ElementSet& set = g->dimension == mesh.dimension ? mesh.cells : mesh.boundary;
    for (auto e : g->elements)
      for (int n : set.nodes_of(e)) nodes.push_back(n);
  }
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  return nodes;
}

BoundaryLoad load_on(const Mesh& mesh, const char* group, BoundaryLoad::Kind kind) {
  BoundaryLoad l;
  l.kind = kind;
  l.group = group;
  l.facets = mesh.find_group(group)->elements;
  l.outward = outward_signs(mesh, l.facets);
  return l;
}

}  // namespace fem::testing
