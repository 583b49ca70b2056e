#include "fem/post/nodal_results.hpp"

#include <omp.h>

#include <cmath>
#include <mutex>
#include <numeric>

#include "fem/assembly/element_system.hpp"
#include "fem/elements/isoparametric.hpp"
#include "fem/elements/quadrature.hpp"
#include "fem/elements/reference_element.hpp"
#include "fem/physics/element_matrices.hpp"

namespace fem {
namespace {

// Maps values at the integration points to the element's nodes: a least-squares fit with
// the corner-node (linear) shape functions, evaluated at every node. Exact for fields the
// linear element represents; the usual recovery of stresses to nodes.
class Extrapolation {
 public:
  explicit Extrapolation(ElementType type) {
    const auto& info = element_info(type);
    const ElementType linear = element_type_for(info.shape, 1);
    const int nv = info.num_vertices, nn = info.num_nodes, dim = info.dimension;
    const auto& rule = quadrature_rule(info.shape, stiffness_quadrature_degree(type));
    const int ng = static_cast<int>(rule.size());
    std::vector<double> G(ng * nv), N(nv);
    for (int g = 0; g < ng; ++g) {
      shape_functions(linear, rule[g].xi.data(), N.data());
      for (int v = 0; v < nv; ++v) G[g * nv + v] = N[v];
    }
    // (G^T G)^-1 G^T by Gauss-Jordan on the small normal equations.
    std::vector<double> A(nv * nv, 0.0), P(nv * ng, 0.0);
    for (int i = 0; i < nv; ++i)
      for (int j = 0; j < nv; ++j)
        for (int g = 0; g < ng; ++g) A[i * nv + j] += G[g * nv + i] * G[g * nv + j];
    for (int i = 0; i < nv; ++i)
      for (int g = 0; g < ng; ++g) P[i * ng + g] = G[g * nv + i];
    for (int col = 0; col < nv; ++col) {
      const double pivot = A[col * nv + col];
      for (int j = 0; j < nv; ++j) A[col * nv + j] /= pivot;
      for (int g = 0; g < ng; ++g) P[col * ng + g] /= pivot;
      for (int r = 0; r < nv; ++r) {
        if (r == col) continue;
        const double f = A[r * nv + col];
        for (int j = 0; j < nv; ++j) A[r * nv + j] -= f * A[col * nv + j];
        for (int g = 0; g < ng; ++g) P[r * ng + g] -= f * P[col * ng + g];
      }
    }
    const auto ref = reference_nodes(type);
    matrix_.assign(nn * ng, 0.0);
    for (int i = 0; i < nn; ++i) {
      shape_functions(linear, &ref[i * dim], N.data());
      for (int g = 0; g < ng; ++g)
        for (int v = 0; v < nv; ++v) matrix_[i * ng + g] += N[v] * P[v * ng + g];
    }
    points_ = ng;
  }
  int points() const { return points_; }
  double weight(int node, int point) const { return matrix_[node * points_ + point]; }

 private:
  std::vector<double> matrix_;
  int points_ = 0;
};

const Extrapolation& extrapolation_for(ElementType type) {
  static std::mutex lock;
  static std::map<ElementType, Extrapolation> cache;
  std::lock_guard<std::mutex> guard(lock);
  auto it = cache.find(type);
  if (it == cache.end()) it = cache.emplace(type, Extrapolation(type)).first;
  return it->second;
}

}  // namespace

NodalResults recover_results(const Problem& problem, const DofMap& dofs, const Constraints& constraints,
                             std::span<const double> u, std::span<const std::size_t> cells) {
  const Mesh& mesh = *problem.mesh;
  const auto nn = mesh.num_nodes();
  const int dim = problem.physics.space_dim;
  const int d = dofs.dofs_per_node;
  const bool elastic = problem.physics.type == PhysicsType::Elasticity;
  NodalResults r;
  auto value = [&](int node, int c) { return u[dofs.dof(node, c)]; };
  std::vector<std::size_t> every_cell;
  if (cells.empty()) {
    every_cell.resize(mesh.cells.size());
    std::iota(every_cell.begin(), every_cell.end(), std::size_t{0});
    cells = every_cell;
  }

  // The gradient quantity per integration point: strain and stress (6 + 6) or flux (3).
  const int width = elastic ? 12 : 3;
  std::vector<double> sum(nn * width, 0.0);
  std::vector<int> count(nn, 0);
  for (std::size_t e : cells) extrapolation_for(mesh.cells.type[e]);  // fill the cache serially
#pragma omp parallel
  {
    std::vector<double> coords, at_points, local_sum(nn * width, 0.0);
    std::vector<int> local_count(nn, 0);
#pragma omp for schedule(dynamic, 64)
    for (std::size_t i = 0; i < cells.size(); ++i) {
      const std::size_t e = cells[i];
      const ElementType type = mesh.cells.type[e];
      const auto& info = element_info(type);
      const auto nodes = mesh.cells.nodes_of(e);
      gather_coords(mesh, nodes, coords);
      const IsotropicMaterial& m = problem.materials[problem.cell_material[e]];
      const auto& rule = quadrature_rule(info.shape, stiffness_quadrature_degree(type));
      at_points.assign(rule.size() * width, 0.0);
      for (std::size_t g = 0; g < rule.size(); ++g) {
        const VolumePoint vp = map_volume_point(type, coords, dim, rule[g].xi.data());
        double* out = &at_points[g * width];
        if (!elastic) {
          for (int k = 0; k < dim; ++k) {
            double grad = 0;
            for (int a = 0; a < info.num_nodes; ++a) grad += vp.dNdx[3 * a + k] * value(nodes[a], 0);
            out[k] = -m.k * grad;
          }
          continue;
        }
        double H[3][3] = {};  // displacement gradient du_i/dx_j
        for (int a = 0; a < info.num_nodes; ++a)
          for (int i = 0; i < dim; ++i)
            for (int j = 0; j < dim; ++j) H[i][j] += value(nodes[a], i) * vp.dNdx[3 * a + j];
        double voigt_strain[6], voigt_stress[6] = {};
        const int nv = voigt_size(problem.physics.model);
        if (dim == 2) {
          voigt_strain[0] = H[0][0], voigt_strain[1] = H[1][1], voigt_strain[2] = H[0][1] + H[1][0];
        } else {
          voigt_strain[0] = H[0][0], voigt_strain[1] = H[1][1], voigt_strain[2] = H[2][2];
          voigt_strain[3] = H[0][1] + H[1][0], voigt_strain[4] = H[1][2] + H[2][1], voigt_strain[5] = H[0][2] + H[2][0];
        }
        double D[36];
        elasticity_matrix(problem.physics.model, m, D);
        for (int i = 0; i < nv; ++i)
          for (int j = 0; j < nv; ++j) voigt_stress[i] += D[i * nv + j] * voigt_strain[j];
        const auto stress = full_stress(problem.physics.model, m, voigt_stress);
        std::array<double, 6> strain{};
        if (dim == 2) {
          // plane stress: eps_zz = -nu/(1-nu) (eps_xx + eps_yy); plane strain: 0
          const double ezz = problem.physics.model == ElasticModel::PlaneStress
                                 ? -m.nu / (1 - m.nu) * (voigt_strain[0] + voigt_strain[1])
                                 : 0.0;
          strain = {voigt_strain[0], voigt_strain[1], ezz, voigt_strain[2], 0, 0};
        } else {
          std::copy(voigt_strain, voigt_strain + 6, strain.begin());
        }
        std::copy(strain.begin(), strain.end(), out);
        std::copy(stress.begin(), stress.end(), out + 6);
      }
      const Extrapolation& x = extrapolation_for(type);
      for (int a = 0; a < info.num_nodes; ++a) {
        double* dst = &local_sum[static_cast<std::size_t>(nodes[a]) * width];
        for (int g = 0; g < x.points(); ++g)
          for (int k = 0; k < width; ++k) dst[k] += x.weight(a, g) * at_points[g * width + k];
        ++local_count[nodes[a]];
      }
    }
#pragma omp critical(fem_post_sum)
    {
      for (std::size_t i = 0; i < sum.size(); ++i) sum[i] += local_sum[i];
      for (std::size_t i = 0; i < nn; ++i) count[i] += local_count[i];
    }
  }
  for (std::size_t n = 0; n < nn; ++n)
    if (count[n] > 0)
      for (int k = 0; k < width; ++k) sum[n * width + k] /= count[n];

  if (elastic) {
    r.displacement.assign(3 * nn, 0.0);
    r.strain.resize(6 * nn);
    r.stress.resize(6 * nn);
    r.von_mises.resize(nn);
    for (std::size_t n = 0; n < nn; ++n) {
      for (int c = 0; c < dim; ++c) r.displacement[3 * n + c] = value(static_cast<int>(n), c);
      std::array<double, 6> s;
      for (int k = 0; k < 6; ++k) {
        r.strain[6 * n + k] = sum[n * width + k];
        s[k] = r.stress[6 * n + k] = sum[n * width + 6 + k];
      }
      r.von_mises[n] = von_mises(s);
    }
  } else {
    r.temperature.resize(nn);
    r.heat_flux.assign(3 * nn, 0.0);
    for (std::size_t n = 0; n < nn; ++n) {
      r.temperature[n] = value(static_cast<int>(n), 0);
      for (int k = 0; k < dim; ++k) r.heat_flux[3 * n + k] = sum[n * width + k];
    }
  }

  // Reactions K u - f at the constrained equations, from the elements that touch them.
  std::vector<double> residual(dofs.num_dofs(), 0.0);
  std::vector<char> touches(nn, 0);
  for (std::size_t n = 0; n < nn; ++n)
    for (int c = 0; c < d; ++c) touches[n] |= constraints.is_fixed(dofs.dof(static_cast<int>(n), c));
  ElementBuffers buffers;
  auto accumulate = [&](std::span<const int> nodes, bool with_matrix) {
    const int nd = static_cast<int>(nodes.size()) * d;
    for (int i = 0; i < nd; ++i) {
      const auto row = dofs.dof(nodes[i / d], i % d);
      if (!constraints.is_fixed(row)) continue;
      double ku = 0;
      if (with_matrix)
        for (int j = 0; j < nd; ++j) ku += buffers.matrix[static_cast<std::size_t>(i) * nd + j] * value(nodes[j / d], j % d);
      residual[row] += ku - buffers.load[i];
    }
  };
  for (std::size_t e : cells) {
    const auto nodes = mesh.cells.nodes_of(e);
    cell_contribution(problem, e, buffers);
    for (int a = 0; a < static_cast<int>(nodes.size()); ++a)
      for (int c = 0; c < d; ++c) r.applied_load[c] += buffers.load[a * d + c];
    if (std::any_of(nodes.begin(), nodes.end(), [&](int n) { return touches[n]; })) accumulate(nodes, true);
  }
  std::vector<char> in_part(mesh.cells.size(), 0);
  for (std::size_t e : cells) in_part[e] = 1;
  const auto facet_owners = facet_owner_cells(problem);
  std::size_t facet = 0;
  for (const auto& load : problem.loads)
    for (std::size_t k = 0; k < load.facets.size(); ++k) {
      if (!in_part[facet_owners[facet++]]) continue;
      const auto nodes = mesh.boundary.nodes_of(load.facets[k]);
      facet_contribution(problem, load, k, buffers);
      for (int a = 0; a < static_cast<int>(nodes.size()); ++a)
        for (int c = 0; c < d; ++c) r.applied_load[c] += buffers.load[a * d + c];
      if (std::any_of(nodes.begin(), nodes.end(), [&](int n) { return touches[n]; }))
        accumulate(nodes, load.kind == BoundaryLoad::Kind::Convection);
    }
  const int rc = elastic ? 3 : 1;
  r.reaction.assign(rc * nn, 0.0);
  for (std::size_t n = 0; n < nn; ++n)
    for (int c = 0; c < d; ++c) {
      const auto dof = dofs.dof(static_cast<int>(n), c);
      if (constraints.is_fixed(dof)) r.reaction[rc * n + c] = residual[dof];
    }
  r.group_reactions = group_reactions(problem, r.reaction);
  return r;
}

std::map<std::string, std::array<double, 3>> group_reactions(const Problem& problem, const std::vector<double>& reaction) {
  const int d = problem.physics.dofs_per_node();
  const std::size_t rc = problem.physics.type == PhysicsType::Elasticity ? 3 : 1;
  std::map<std::string, std::array<double, 3>> totals;
  for (const auto& condition : problem.dirichlet) {
    auto& total = totals[condition.group];
    for (int n : condition.nodes)
      for (int c = 0; c < d; ++c)
        if (condition.component[c]) total[c] += reaction[rc * static_cast<std::size_t>(n) + c];
  }
  return totals;
}

}  // namespace fem
