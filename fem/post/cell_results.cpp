#include "fem/post/cell_results.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <mutex>
#include <vector>

#include <omp.h>

#include "fem/assembly/element_coloring.hpp"
#include "fem/elements/quadrature.hpp"
#include "fem/elements/reference_element.hpp"
#include "fem/elements/shape_table.hpp"
#include "fem/physics/element_matrices.hpp"
#include "fem/physics/material_law.hpp"
#include "fem/physics/thermal_strain.hpp"

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
  std::span<const double> matrix() const { return matrix_; }

 private:
  std::vector<double> matrix_;
  int points_ = 0;
};

// What every cell of one type shares at its stiffness rule's points: the shape functions and
// their reference derivatives (assembly's table) and the extrapolation to the nodes. With these a
// cell's gradients come from its own nodes alone: no shape function is evaluated per cell.
struct CellRule {
  explicit CellRule(ElementType type) : shapes(stiffness_shape_table(type)), extrapolation(type) {}
  const ShapeTable& shapes;
  Extrapolation extrapolation;
};

const CellRule& cell_rule_for(ElementType type) {
  static std::mutex lock;
  static std::map<ElementType, CellRule> cache;
  std::lock_guard<std::mutex> guard(lock);
  auto it = cache.find(type);
  if (it == cache.end()) it = cache.emplace(type, CellRule(type)).first;
  return it->second;
}

// A thread's view of the shared cache: it takes the lock once per element type, not per cell.
class CellRuleLookup {
 public:
  const CellRule& operator()(ElementType type) {
    const CellRule*& slot = seen_[static_cast<std::size_t>(type)];
    if (!slot) slot = &cell_rule_for(type);
    return *slot;
  }

 private:
  std::array<const CellRule*, kElementTypeCount> seen_{};
};

// One integration point of a cell: the gradient of each solution component, the point and, for
// the thermal strain and the hoop strain, the shape functions there.
struct PointGradient {
  double H[3][3] = {};  // H[i][j] = du_i/dx_j; zero at a flat point (as map_volume_point's dNdx)
  double x[3] = {0, 0, 0};
  const double* N = nullptr;
  double det = 0;       // det(dx/dxi); zero at a flat point (as map_volume_point's detJ)
};

// A determinant this small against the tangents' lengths is the roundoff of a flat element
// (the test of map_volume_point).
constexpr double kDegenerateRatio = 1e-12;

// du/dx = du/dxi (dx/dxi)^-1 at point g, from the cell's node coordinates (3 per node) and its
// solution `ue` (d per node): two small products over the nodes and one 3x3 inverse.
PointGradient point_gradient(const CellRule& r, int g, const double* coords, const double* ue, int d) {
  const int dim = r.shapes.dimension, n = r.shapes.nodes;
  const double* dN = &r.shapes.dN[static_cast<std::size_t>(g) * n * dim];
  PointGradient p;
  p.N = &r.shapes.N[static_cast<std::size_t>(g) * n];
  double t[3][3] = {};  // t[j][a] = dx_a/dxi_j; in 2D the third is z, to invert as in 3D
  if (dim == 2) t[2][2] = 1;
  double G[3][3] = {};  // G[j][i] = du_i/dxi_j
  for (int a = 0; a < n; ++a)
    for (int j = 0; j < dim; ++j) {
      const double w = dN[a * dim + j];
      for (int k = 0; k < 3; ++k) t[j][k] += w * coords[3 * a + k];
      for (int i = 0; i < d; ++i) G[j][i] += w * ue[a * d + i];
    }
  for (int a = 0; a < n; ++a)
    for (int k = 0; k < 3; ++k) p.x[k] += p.N[a] * coords[3 * a + k];
  double scale = 1;
  for (int j = 0; j < dim; ++j) scale *= std::sqrt(t[j][0] * t[j][0] + t[j][1] * t[j][1] + t[j][2] * t[j][2]);
  // det times dxi_j/dx_k: row j is the cross product of the other two columns of J.
  double inv[3][3];
  inv[0][0] = t[1][1] * t[2][2] - t[1][2] * t[2][1], inv[1][0] = t[2][1] * t[0][2] - t[2][2] * t[0][1];
  inv[2][0] = t[0][1] * t[1][2] - t[0][2] * t[1][1], inv[0][1] = t[1][2] * t[2][0] - t[1][0] * t[2][2];
  inv[1][1] = t[2][2] * t[0][0] - t[2][0] * t[0][2], inv[2][1] = t[0][2] * t[1][0] - t[0][0] * t[1][2];
  inv[0][2] = t[1][0] * t[2][1] - t[1][1] * t[2][0], inv[1][2] = t[2][0] * t[0][1] - t[2][1] * t[0][0];
  inv[2][2] = t[0][0] * t[1][1] - t[0][1] * t[1][0];
  const double det = t[0][0] * inv[0][0] + t[0][1] * inv[0][1] + t[0][2] * inv[0][2];
  if (std::abs(det) <= kDegenerateRatio * scale) return p;
  p.det = det;
  for (int i = 0; i < d; ++i)
    for (int k = 0; k < dim; ++k) {
      double h = 0;
      for (int j = 0; j < dim; ++j) h += G[j][i] * inv[j][k];
      p.H[i][k] = h / det;  // inv was left undivided
    }
  return p;
}

// The elasticity matrix D of each material (voigt_size squared, row-major), worked out once
// rather than at every integration point.
std::vector<std::array<double, 36>> elasticity_matrices(const Problem& problem) {
  std::vector<std::array<double, 36>> D(problem.materials.size());
  if (problem.physics.type == PhysicsType::Elasticity)
    for (std::size_t k = 0; k < D.size(); ++k) elasticity_matrix(problem.physics.model, problem.materials[k], D[k].data());
  return D;
}

// The gradient quantity (gradient_width values) at one integration point of a cell. `ue`: the
// cell's solution, node by node (dofs_per_node values each); `D`: its material's elasticity matrix.
void gradient_at_point(const Problem& problem, const IsotropicMaterial& m, const double* D, const PointGradient& pg,
                       std::span<const int> nodes, const double* ue, double* out) {
  const int dim = problem.physics.space_dim;
  const int num_nodes = static_cast<int>(nodes.size());
  const auto& H = pg.H;
  if (problem.physics.type != PhysicsType::Elasticity) {
    for (int k = 0; k < 3; ++k) out[k] = k < dim ? -m.k * H[0][k] : 0.0;
    return;
  }
  const int d = problem.physics.dofs_per_node();
  double voigt_strain[6], voigt_stress[6] = {};
  const int nv = voigt_size(problem.physics.model);
  if (problem.physics.axisymmetric()) {
    double u_r = 0;
    for (int a = 0; a < num_nodes; ++a) u_r += pg.N[a] * ue[a * d];
    voigt_strain[0] = H[0][0], voigt_strain[1] = H[1][1], voigt_strain[2] = u_r / pg.x[0], voigt_strain[3] = H[0][1] + H[1][0];
  } else if (dim == 2) {
    voigt_strain[0] = H[0][0], voigt_strain[1] = H[1][1], voigt_strain[2] = H[0][1] + H[1][0];
  } else {
    voigt_strain[0] = H[0][0], voigt_strain[1] = H[1][1], voigt_strain[2] = H[2][2];
    voigt_strain[3] = H[0][1] + H[1][0], voigt_strain[4] = H[1][2] + H[2][1], voigt_strain[5] = H[0][2] + H[2][0];
  }
  // The stress comes from the strain net of the thermal strain; the strain written is the total.
  const double delta_t = temperature_rise(problem, nodes, pg.N, m);
  const auto thermal = thermal_strain(problem.physics.model, m, delta_t);
  for (int i = 0; i < nv; ++i)
    for (int j = 0; j < nv; ++j) voigt_stress[i] += D[i * nv + j] * (voigt_strain[j] - thermal[j]);
  const auto stress = full_stress(problem.physics.model, m, voigt_stress, delta_t);
  std::array<double, 6> strain{};
  if (problem.physics.axisymmetric()) {
    strain = {voigt_strain[0], voigt_strain[1], voigt_strain[2], voigt_strain[3], 0, 0};  // zz: the hoop strain
  } else if (dim == 2) {
    // plane stress: sigma_zz = 0 gives eps_zz = alpha dT - nu (sigma_xx + sigma_yy) / E; plane strain: 0
    const double ezz = problem.physics.model == ElasticModel::PlaneStress
                           ? m.alpha * delta_t - m.nu / m.E * (voigt_stress[0] + voigt_stress[1])
                           : 0.0;
    strain = {voigt_strain[0], voigt_strain[1], ezz, voigt_strain[2], 0, 0};
  } else {
    std::copy(voigt_strain, voigt_strain + 6, strain.begin());
  }
  std::copy(strain.begin(), strain.end(), out);
  std::copy(stress.begin(), stress.end(), out + 6);
}

// Adds a cell's point values, extrapolated to each of its nodes, to the node sums. Each node's
// share is summed over the points first: one pass over the node's row of `sum`.
void add_at_nodes(const Extrapolation& x, std::span<const int> nodes, const double* at_points, int width,
                  NodalArray& sum, kernels::UninitializedVector<int>& count) {
  constexpr int kMaxWidth = 12;
  for (std::size_t a = 0; a < nodes.size(); ++a) {
    double share[kMaxWidth] = {};
    for (int g = 0; g < x.points(); ++g) {
      const double w = x.weight(static_cast<int>(a), g);
      for (int k = 0; k < width; ++k) share[k] += w * at_points[g * width + k];
    }
    double* dst = &sum[static_cast<std::size_t>(nodes[a]) * width];
    for (int k = 0; k < width; ++k) dst[k] += share[k];
    ++count[nodes[a]];
  }
}

// Adds point g's share of cell e's body load, summed over its nodes, to `total` (per component;
// d dofs a node), from the point the sweep mapped (no second mapping of the cell's points).
void add_point_body_load(const Problem& problem, std::size_t e, const CellRule& rule, int g, const PointGradient& pg,
                         int d, std::vector<double>& load, double* total) {
  VolumePoint vp;
  const int n = rule.shapes.nodes;
  std::copy(pg.N, pg.N + n, vp.N);
  std::copy(pg.x, pg.x + 3, vp.x);
  vp.detJ = pg.det;
  load.assign(static_cast<std::size_t>(n) * d, 0.0);
  add_cell_body_load(problem, e, vp, rule.shapes.weight[g], load);
  for (std::size_t j = 0; j < load.size(); ++j) total[j % d] += load[j];
}

// Adds cell e's body load, summed over its nodes, to `total` (per component; d dofs a node).
void add_cell_body_load(const Problem& problem, std::size_t e, int d, ElementBuffers& body, double* total) {
  if (!cell_body_load(problem, e, body)) return;
  for (std::size_t j = 0; j < body.load.size(); ++j) total[j % d] += body.load[j];
}

}  // namespace

std::span<const double> nodal_extrapolation(ElementType type) { return cell_rule_for(type).extrapolation.matrix(); }

std::array<double, 3> body_load_total(const Problem& problem, int dofs_per_node) {
  // Each thread sums a fixed block of cells and the blocks are added in order: the total does not
  // depend on the threads' timing.
  const auto cells = static_cast<std::int64_t>(problem.mesh->cells.size());
  std::vector<std::array<double, 3>> partial(static_cast<std::size_t>(omp_get_max_threads()), {0, 0, 0});
#pragma omp parallel
  {
    ElementBuffers body;
    double* total = partial[static_cast<std::size_t>(omp_get_thread_num())].data();
#pragma omp for schedule(static)
    for (std::int64_t e = 0; e < cells; ++e) add_cell_body_load(problem, static_cast<std::size_t>(e), dofs_per_node, body, total);
  }
  std::array<double, 3> sum{0, 0, 0};
  for (const auto& block : partial)
    for (int k = 0; k < 3; ++k) sum[k] += block[k];
  return sum;
}

int gradient_width(const Problem& problem) { return problem.physics.type == PhysicsType::Elasticity ? 12 : 3; }

CellResults sweep_cells(const Problem& problem, const DofMap& dofs, std::span<const double> u,
                        std::span<const std::size_t> cells) {
  const Mesh& mesh = *problem.mesh;
  const std::size_t nn = mesh.num_nodes();
  const int width = gradient_width(problem);
  const int d = dofs.dofs_per_node;
  CellResults out;
  NodalArray& sum = out.gradients;
  sum.resize(nn * width);
  kernels::UninitializedVector<int> count(nn);
#pragma omp parallel for schedule(static)
  for (std::size_t n = 0; n < nn; ++n) {
    std::fill_n(&sum[n * width], width, 0.0);
    count[n] = 0;
  }
  // Blocks of one colour share no node: each adds straight into the node sums.
  const auto blocks = color_element_blocks(mesh.cells, cells, nn);
  const auto D = elasticity_matrices(problem);
  const bool body_loads = has_body_load(problem);
  double lx = 0, ly = 0, lz = 0;
#pragma omp parallel reduction(+ : lx, ly, lz)
  {
    CellRuleLookup rules;
    std::vector<double> coords, ue, at_points, load;
    for (const auto& group : blocks.colors) {
#pragma omp for schedule(dynamic, 1)
      for (std::size_t i = 0; i < group.size(); ++i)
        for (const std::size_t e : blocks.block(group[i])) {
          const CellRule& rule = rules(mesh.cells.type[e]);
          const auto nodes = mesh.cells.nodes_of(e);
          gather_coords(mesh, nodes, coords);
          ue.resize(nodes.size() * d);
          for (std::size_t a = 0; a < nodes.size(); ++a)
            for (int c = 0; c < d; ++c) ue[a * d + c] = u[dofs.dof(nodes[a], c)];
          const int material = problem.cell_material[e];
          at_points.resize(static_cast<std::size_t>(rule.shapes.points) * width);
          double cell_load[3] = {0, 0, 0};
          for (int g = 0; g < rule.shapes.points; ++g) {
            const PointGradient pg = point_gradient(rule, g, coords.data(), ue.data(), d);
            gradient_at_point(problem, problem.materials[material], D[material].data(), pg, nodes, ue.data(),
                              &at_points[g * width]);
            if (body_loads) add_point_body_load(problem, e, rule, g, pg, d, load, cell_load);
          }
          add_at_nodes(rule.extrapolation, nodes, at_points.data(), width, sum, count);
          lx += cell_load[0], ly += cell_load[1], lz += cell_load[2];
        }
    }
  }
  out.body_load = {lx, ly, lz};
#pragma omp parallel for schedule(static)
  for (std::size_t n = 0; n < nn; ++n)
    if (count[n] > 0)
      for (int k = 0; k < width; ++k) sum[n * width + k] /= count[n];
  return out;
}

}  // namespace fem
