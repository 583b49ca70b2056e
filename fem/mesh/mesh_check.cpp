#include "fem/mesh/mesh_check.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "fem/elements/isoparametric.hpp"
#include "fem/elements/quadrature.hpp"
#include "fem/elements/reference_element.hpp"
#include "fem/mesh/mesh_messages.hpp"
#include "fem/mesh/overlap_check.hpp"

namespace fem {
namespace {

std::vector<double> corner_coords(const Mesh& mesh, const ElementSet& set, std::size_t e) {
  std::vector<double> xyz;
  for (int node : set.nodes_of(e))
    for (int k = 0; k < 3; ++k) xyz.push_back(mesh.coords[3 * static_cast<std::size_t>(node) + k]);
  return xyz;
}

// The sign of the cell's Jacobian (+1 or -1), or a failure when it vanishes or changes sign.
double orientation(const Mesh& mesh, std::size_t e) {
  const ElementType type = mesh.cells.type[e];
  const auto xyz = corner_coords(mesh, mesh.cells, e);
  double sign = 0;
  for (const auto& q : quadrature_rule(element_info(type).shape, stiffness_quadrature_degree(type))) {
    const double det = map_volume_point(type, xyz, mesh.dimension, q.xi.data()).detJ;
    const double s = det > 0 ? 1.0 : -1.0;
    if (sign == 0) sign = s;
    if (det == 0 || s != sign || (mesh.dimension == 3 && s < 0))
      fail_mesh(mesh, describe_element(mesh, mesh.cells, e) + " is inverted or degenerate: its Jacobian determinant is " +
                     std::to_string(det) + " at a quadrature point");
  }
  return sign;
}

// Which side of the line p->q the point x is on: +1 left, -1 right (2D, z ignored).
double side(const double* p, const double* q, const double* x) {
  const double cross = (q[0] - p[0]) * (x[1] - p[1]) - (q[1] - p[1]) * (x[0] - p[0]);
  return cross > 0 ? 1.0 : (cross < 0 ? -1.0 : 0.0);
}

// Two 2D cells that share an edge must lie on opposite sides of it.
void check_folds(const Mesh& mesh, const std::vector<double>& sign) {
  const auto& cells = mesh.cells;
  double majority = 0;
  for (double s : sign) majority += s;
  struct EdgeUse {
    std::size_t cell;
    double side;
  };
  std::unordered_map<std::uint64_t, EdgeUse> first_use;
  for (std::size_t e = 0; e < cells.size(); ++e) {
    const auto nodes = cells.nodes_of(e);
    const int nv = element_info(cells.type[e]).num_vertices;
    double centroid[3] = {0, 0, 0};
    for (int i = 0; i < nv; ++i)
      for (int k = 0; k < 3; ++k) centroid[k] += mesh.coords[3 * static_cast<std::size_t>(nodes[i]) + k] / nv;
    for (int i = 0; i < nv; ++i) {
      const int a = nodes[i], b = nodes[(i + 1) % nv];
      const int lo = std::min(a, b), hi = std::max(a, b);
      const std::uint64_t key = (static_cast<std::uint64_t>(lo) << 32) | static_cast<std::uint32_t>(hi);
      const double s = side(&mesh.coords[3 * static_cast<std::size_t>(lo)], &mesh.coords[3 * static_cast<std::size_t>(hi)], centroid);
      const auto [it, inserted] = first_use.try_emplace(key, EdgeUse{e, s});
      if (inserted || it->second.side != s) continue;
      // Same side: one of the two is folded; it is the one wound against the rest of the mesh.
      const std::size_t other = it->second.cell;
      const std::size_t folded = (sign[e] * majority < 0 || sign[other] * majority >= 0) ? e : other;
      fail_mesh(mesh, describe_element(mesh, cells, folded) + " is folded: it overlaps " + describe_element(mesh, cells, folded == e ? other : e) +
                     " across their shared edge (a node moved across the opposite side?)");
    }
  }
}

// Every element of a boundary group must lie on a cell: its corner nodes all in one cell.
void check_boundary_on_cells(const Mesh& mesh) {
  std::vector<std::vector<std::size_t>> cells_of(mesh.num_nodes());
  for (std::size_t e = 0; e < mesh.cells.size(); ++e)
    for (int n : mesh.cells.nodes_of(e)) cells_of[static_cast<std::size_t>(n)].push_back(e);
  for (std::size_t f = 0; f < mesh.boundary.size(); ++f) {
    const auto nodes = mesh.boundary.nodes_of(f);
    const int nv = element_info(mesh.boundary.type[f]).num_vertices;
    const bool on_a_cell = std::any_of(cells_of[nodes[0]].begin(), cells_of[nodes[0]].end(), [&](std::size_t e) {
      const auto cn = mesh.cells.nodes_of(e);
      return std::all_of(nodes.begin(), nodes.begin() + nv, [&](int n) { return std::find(cn.begin(), cn.end(), n) != cn.end(); });
    });
    if (!on_a_cell)
      fail_mesh(mesh, describe_element(mesh, mesh.boundary, f) + " is not on any " + std::to_string(mesh.dimension) +
                     "D element: the mesh mixes parts of different dimensions (fem solves on the " +
                     std::to_string(mesh.dimension) + "D elements only)");
  }
}

// Coordinates beyond this are no geometry: the squares of their differences, which the checks
// and the assembly compute, would overflow (and every cell's box would hold every point).
constexpr double kLargestCoordinate = 1e100;

// Two cells that share a face (an edge in 2D) and are as far apart in size as this are taken
// for an element that points at a node far from the rest of it; graded meshes stay far below.
constexpr double kFarNodeRatio = 100;

// A face by its corner nodes, sorted; -1 where a face has fewer than four.
using FaceKey = std::array<int, 4>;
struct FaceKeyHash {
  std::size_t operator()(const FaceKey& k) const {
    std::uint64_t h = 1469598103934665603ull;  // FNV-1a over the four ints
    for (int v : k) h = (h ^ static_cast<std::uint32_t>(v)) * 1099511628211ull;
    return static_cast<std::size_t>(h);
  }
};
struct FaceUse {
  std::size_t cell;
  int facet;
  int count;
};

const double* at(const Mesh& mesh, int node) { return &mesh.coords[3 * static_cast<std::size_t>(node)]; }

double longest_edge(const Mesh& mesh, std::size_t e) {
  const auto nodes = mesh.cells.nodes_of(e);
  const int nv = element_info(mesh.cells.type[e]).num_vertices;
  double longest = 0;  // squared until the end: this runs for both cells of every face
  for (int i = 0; i < nv; ++i)
    for (int j = i + 1; j < nv; ++j) {
      const double* a = at(mesh, nodes[i]);
      const double* b = at(mesh, nodes[j]);
      longest = std::max(longest, (a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
    }
  return std::sqrt(longest);
}

// The nodes of facet f of cell e beyond its corners (midside, face centre), sorted.
std::vector<int> inner_facet_nodes(const Mesh& mesh, std::size_t e, int f) {
  const ElementType type = mesh.cells.type[e];
  const auto local = facet_nodes(type, f);
  const int nv = element_info(facet_type_of(type)).num_vertices;
  std::vector<int> inner;
  for (std::size_t i = static_cast<std::size_t>(nv); i < local.size(); ++i) inner.push_back(mesh.cells.nodes_of(e)[local[i]]);
  std::sort(inner.begin(), inner.end());
  return inner;
}

// Cells b (facet fb) and a (facet fa) have the same corners on a face: they must have the same
// nodes inside it and be of comparable size.
void check_shared_face(const Mesh& mesh, std::size_t a, int fa, std::size_t b, int fb) {
  const auto& cells = mesh.cells;
  const std::string face = mesh.dimension == 2 ? "edge" : "face";
  const auto inner_a = inner_facet_nodes(mesh, a, fa), inner_b = inner_facet_nodes(mesh, b, fb);
  if (inner_a.size() != inner_b.size()) {
    const std::size_t quadratic = inner_a.size() > inner_b.size() ? a : b;
    fail_mesh(mesh, describe_element(mesh, cells, quadratic) + " has nodes inside the " + face + " it shares with " +
                   describe_element(mesh, cells, quadratic == a ? b : a) +
                   ", which has none there: a hanging midside node (cells that share a " + face + " need the same order)");
  }
  if (inner_a != inner_b)
    fail_mesh(mesh, describe_element(mesh, cells, b) + " and " + describe_element(mesh, cells, a) + " share the corners of a " + face +
                   " but not the nodes inside it: the mesh is not conforming there");
  const double la = longest_edge(mesh, a), lb = longest_edge(mesh, b);
  if (std::max(la, lb) > kFarNodeRatio * std::min(la, lb)) {
    const std::size_t big = la > lb ? a : b;
    fail_mesh(mesh, describe_element(mesh, cells, big) + " is " + std::to_string(static_cast<long long>(std::max(la, lb) / std::min(la, lb))) +
                   " times the size of " + describe_element(mesh, cells, big == a ? b : a) + ", with which it shares a " + face +
                   ": does it point at a node far from the rest of it?");
  }
}

std::array<double, 3> corner_centroid(const Mesh& mesh, std::size_t e) {
  const auto nodes = mesh.cells.nodes_of(e);
  const int nv = element_info(mesh.cells.type[e]).num_vertices;
  std::array<double, 3> c{0, 0, 0};
  for (int i = 0; i < nv; ++i)
    for (int k = 0; k < 3; ++k) c[static_cast<std::size_t>(k)] += at(mesh, nodes[i])[k] / nv;
  return c;
}

// Two 3D cells that share a face must lie on opposite sides of it (2D: check_folds): on the same
// side they overlap, which no check of nodes and faces shows.
void check_opposite_sides(const Mesh& mesh, std::size_t a, std::size_t b, const FaceKey& face) {
  const double* p = at(mesh, face[1]);  // three corners of the face (a triangle's are 1..3)
  const double* q = at(mesh, face[2]);
  const double* r = at(mesh, face[3]);
  const double u[3] = {q[0] - p[0], q[1] - p[1], q[2] - p[2]}, v[3] = {r[0] - p[0], r[1] - p[1], r[2] - p[2]};
  const double n[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
  const auto height = [&](std::size_t e) {
    const auto c = corner_centroid(mesh, e);
    return n[0] * (c[0] - p[0]) + n[1] * (c[1] - p[1]) + n[2] * (c[2] - p[2]);
  };
  if (height(a) * height(b) > 0)
    fail_mesh(mesh, describe_element(mesh, mesh.cells, b) + " overlaps " + describe_element(mesh, mesh.cells, a) +
                   ": both lie on the same side of the face they share");
}

// Every face (edge) of a cell is shared by at most two cells, which agree on it
// (check_shared_face) and lie on either side of it. One pass over the cells with a hash of each
// face's sorted corners.
void check_conformity(const Mesh& mesh) {
  const auto& cells = mesh.cells;
  std::unordered_map<FaceKey, FaceUse, FaceKeyHash> faces;
  faces.reserve(cells.size() * 3);
  for (std::size_t e = 0; e < cells.size(); ++e) {
    const ElementType type = cells.type[e];
    const auto nodes = cells.nodes_of(e);
    const int nv = element_info(facet_type_of(type)).num_vertices;
    for (int f = 0; f < num_facets(type); ++f) {
      const auto local = facet_nodes(type, f);
      FaceKey key{-1, -1, -1, -1};
      for (int i = 0; i < nv; ++i) key[static_cast<std::size_t>(i)] = nodes[local[i]];
      std::sort(key.begin(), key.end());  // the unused -1 first
      const auto [it, inserted] = faces.try_emplace(key, FaceUse{e, f, 1});
      if (inserted) continue;
      if (++it->second.count > 2)
        fail_mesh(mesh, describe_element(mesh, cells, e) + " is a third element on a " + (mesh.dimension == 2 ? "edge" : "face") +
                       " of " + describe_element(mesh, cells, it->second.cell) + ": elements overlap or are repeated");
      check_shared_face(mesh, it->second.cell, it->second.facet, e, f);
      if (mesh.dimension == 3) check_opposite_sides(mesh, it->second.cell, e, key);
    }
  }
}

}  // namespace

void check_mesh(const Mesh& mesh, const MeshCheckOptions& options) {
  for (std::size_t i = 0; i < mesh.coords.size(); ++i) {
    if (!std::isfinite(mesh.coords[i]))
      fail_mesh(mesh, "node " + std::to_string(i / 3 + 1) + " has a non-finite coordinate (" + std::to_string(mesh.coords[i]) + ")");
    if (std::abs(mesh.coords[i]) > kLargestCoordinate) {
      char value[32];
      std::snprintf(value, sizeof value, "%.3g", mesh.coords[i]);
      fail_mesh(mesh, "node " + std::to_string(i / 3 + 1) + " has a coordinate of " + value + ", beyond the 1e+100 fem computes with");
    }
  }
  std::vector<double> sign(mesh.cells.size());
  for (std::size_t e = 0; e < mesh.cells.size(); ++e) sign[e] = orientation(mesh, e);
  if (mesh.dimension == 2) check_folds(mesh, sign);
  check_conformity(mesh);
  check_overlaps(mesh, options.allow_unmerged_nodes);
  check_boundary_on_cells(mesh);
}

}  // namespace fem
