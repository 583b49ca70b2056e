#pragma once
// Test support: solve a Problem in memory (no files) with the production stages, and measure
// errors against exact solutions.
#include <functional>
#include <vector>

#include "fem/assembly/assembler.hpp"
#include "fem/assembly/dirichlet.hpp"
#include "fem/post/nodal_results.hpp"

namespace fem::testing {

struct Solution {
  DofMap dofs;
  Constraints constraints;
  std::vector<double> u;  // equation order
  double residual = 0;
  int iterations = 0;
  double value(int node, int component) const { return u[dofs.dof(node, component)]; }
};

Solution solve(const Problem& problem, double tolerance = 1e-13);

// The same with a direct solver (band Cholesky): the answer to rounding.
Solution solve_direct(const Problem& problem);

// sqrt( integral over the cells of |u_h - u_exact|^2 ), with a quadrature a degree above the element's.
double l2_error(const Problem& problem, const Solution& s, const PointFunction& exact);

// The node closest to a point.
int nearest_node(const Mesh& mesh, double x, double y, double z = 0);

// Every node of the given boundary groups.
std::vector<int> nodes_of_groups(const Mesh& mesh, const std::vector<std::string>& groups);

// A boundary load of `kind` on every facet of `group` (its value left for the caller to set).
BoundaryLoad load_on(const Mesh& mesh, const char* group, BoundaryLoad::Kind kind);

}  // namespace fem::testing
