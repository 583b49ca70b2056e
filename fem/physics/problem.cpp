#include "fem/physics/problem.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "fem/elements/isoparametric.hpp"
#include "fem/elements/reference_element.hpp"
#include "fem/physics/resultant_load.hpp"

namespace fem {
namespace {

[[noreturn]] void fail(const Case& c, int line, const std::string& message) {
  throw CaseError(c.file.string() + ":" + std::to_string(line) + ": " + message);
}

std::string group_list(const Mesh& mesh, int dimension) {
  std::string list;
  for (const auto& g : mesh.groups)
    if (dimension < 0 || g.dimension == dimension) list += (list.empty() ? "" : ", ") + g.name;
  return list.empty() ? "none" : list;
}

const PhysicalGroup& find_group(const Case& c, const Mesh& mesh, const std::string& name, int line) {
  const PhysicalGroup* g = mesh.find_group(name);
  if (!g) fail(c, line, "group '" + name + "' is not in the mesh " + mesh.source + " (its groups: " + group_list(mesh, -1) + ")");
  return *g;
}

std::vector<int> group_nodes(const Mesh& mesh, const PhysicalGroup& g) {
  const ElementSet& set = g.dimension == mesh.dimension ? mesh.cells : mesh.boundary;
  std::vector<int> nodes;
  for (auto e : g.elements)
    for (int n : set.nodes_of(e)) nodes.push_back(n);
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  return nodes;
}

std::string number_text(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", x);
  return text;
}

// Nodes closer to the axis than this are on it: a mesher leaves roundoff in r there.
double axis_tolerance(const Mesh& mesh) {
  double extent = 0;
  for (std::size_t n = 0; n < mesh.num_nodes(); ++n) extent = std::max(extent, std::abs(mesh.coords[3 * n]));
  return 1e-12 * extent;
}

PhysicsModel physics_model(const Case& c, const Mesh& mesh) {
  PhysicsModel p{c.physics.type, c.physics.model, c.physics.thickness, mesh.dimension};
  if (p.axisymmetric()) {
    if (mesh.dimension != 2) fail(c, 1, "physics.model axisymmetric needs a 2D mesh (x = r, y = the axis); this one is 3D");
    const double tolerance = axis_tolerance(mesh);
    for (std::size_t n = 0; n < mesh.num_nodes(); ++n)
      if (mesh.coords[3 * n] < -tolerance)
        throw CaseError(c.file.string() + ": physics.model axisymmetric takes x as the radius, but node " + std::to_string(n) +
                        " of " + mesh.source + " has x = " + number_text(mesh.coords[3 * n]) +
                        " < 0: mesh the section at x >= 0, the axis at x = 0");
  }
  if (p.type == PhysicsType::Elasticity) {
    if (mesh.dimension == 2 && p.model == ElasticModel::Solid3D)
      fail(c, 1, "the mesh is 2D: set physics.model to plane_stress, plane_strain or axisymmetric");
    if (mesh.dimension == 3 && p.model != ElasticModel::Solid3D)
      fail(c, 1, "the mesh is 3D: physics.model must be 3d");
  }
  return p;
}

// Axisymmetric elasticity: a node on the axis cannot move radially (u_r there would open a hole
// or overlap the material), so its u_r is held without the user saying so.
void hold_axis(const Mesh& mesh, Problem& p) {
  if (!p.physics.axisymmetric() || p.physics.type != PhysicsType::Elasticity) return;
  const double tolerance = axis_tolerance(mesh);
  DirichletCondition axis{std::string(kAxisGroup), {}, {true, false, false}, {}, {}};
  for (std::size_t n = 0; n < mesh.num_nodes(); ++n)
    if (std::abs(mesh.coords[3 * n]) <= tolerance) axis.nodes.push_back(static_cast<int>(n));
  if (!axis.nodes.empty()) p.dirichlet.push_back(std::move(axis));
}

void assign_materials(const Case& c, const Mesh& mesh, Problem& p) {
  const std::size_t unassigned = static_cast<std::size_t>(-1);
  std::vector<std::size_t> owner(mesh.cells.size(), unassigned);
  // Named groups first, then an entry without a group takes every cell left over.
  for (int pass = 0; pass < 2; ++pass) {
    for (const auto& m : c.materials) {
      if (m.group.empty() != (pass == 1)) continue;
      const auto index = p.materials.size();
      p.materials.push_back({m.E, m.nu, m.density, m.k, m.alpha.value_or(0.0), m.reference_temperature, m.specific_heat});
      p.material_names.push_back(m.group.empty() ? "default" : m.group);
      if (pass == 1) {
        for (auto& o : owner)
          if (o == unassigned) o = index;
        continue;
      }
      const auto& g = find_group(c, mesh, m.group, m.line);
      if (g.dimension != mesh.dimension)
        fail(c, m.line, "material group '" + m.group + "' is " + std::to_string(g.dimension) +
                            "-dimensional; materials need a region of the mesh's dimension (regions: " +
                            group_list(mesh, mesh.dimension) + ")");
      for (auto e : g.elements) owner[e] = index;
    }
  }
  for (std::size_t e = 0; e < owner.size(); ++e) {
    if (owner[e] != unassigned) continue;
    std::string region = "no named region";
    for (const auto& g : mesh.groups)
      if (g.dimension == mesh.dimension && std::find(g.elements.begin(), g.elements.end(), e) != g.elements.end())
        region = "region '" + g.name + "'";
    throw CaseError(c.file.string() + ": no material for " + region + " (element " + std::to_string(e) +
                    "): add a 'materials' entry for it, or one without a group for everything else");
  }
  p.cell_material.assign(owner.begin(), owner.end());
}

// `entries`: the case's common boundary or a load case's.
void resolve_boundary(const Case& c, const std::vector<BoundarySpec>& entries, const Mesh& mesh, Problem& p) {
  using K = BoundarySpec::Kind;
  for (const auto& b : entries) {
    const auto& g = find_group(c, mesh, b.group, b.line);
    if (b.kind == K::Fix || b.kind == K::Displacement || b.kind == K::Temperature) {
      // A region's nodes are all held, inside too: almost always a boundary group was meant.
      if (g.dimension == mesh.dimension && !b.whole_region)
        fail(c, b.line, "group '" + b.group + "' is a region (" + std::to_string(g.dimension) +
                            "D, as the mesh): a condition there holds every node inside it, not just its surface; name a "
                            "boundary group (" + group_list(mesh, mesh.dimension - 1) +
                            "), or add 'whole_region: true' to the entry if the whole region is meant");
      DirichletCondition d{b.group, group_nodes(mesh, g), b.component, b.vector, {}};
      if (b.kind == K::Temperature) {
        d.component = {true, false, false};
        d.value = {b.value, 0, 0};
        d.table = b.table;
      }
      if (mesh.dimension == 2 && d.component[2] && p.physics.type == PhysicsType::Elasticity)
        fail(c, b.line, "group '" + b.group + "': a 2D model has no z component to fix");
      p.dirichlet.push_back(std::move(d));
      continue;
    }
    if (g.dimension != mesh.dimension - 1)
      fail(c, b.line, "group '" + b.group + "' is " + std::to_string(g.dimension) + "-dimensional; loads act on " +
                          std::to_string(mesh.dimension - 1) + "-dimensional boundary groups (" +
                          group_list(mesh, mesh.dimension - 1) + ")");
    BoundaryLoad load;
    load.kind = b.kind;
    load.group = b.group;
    load.facets = g.elements;
    load.vector = b.vector;
    load.value = b.value;
    load.h = b.h;
    load.T_inf = b.T_inf;
    load.table = b.table;
    if (b.kind == K::Pressure) load.outward = outward_signs(mesh, load.facets);
    if (b.kind == K::Force || b.kind == K::Moment) {
      try {
        spread_resultant(p, load);
      } catch (const std::invalid_argument& e) {
        fail(c, b.line, "group '" + b.group + "': " + e.what());
      }
    }
    p.loads.push_back(std::move(load));
  }
}

void require_held(const Case& c, const Problem& p) {
  using K = BoundarySpec::Kind;
  const bool held = std::any_of(c.boundary.begin(), c.boundary.end(), [](const BoundarySpec& b) {
    return b.kind == K::Fix || b.kind == K::Displacement || b.kind == K::Temperature || b.kind == K::Convection;
  });
  // A free body has rigid-body modes, which a modal analysis reports; a static one cannot solve.
  // A transient one can: C/dt keeps its matrix definite.
  if (!held && c.analysis.type == AnalysisType::Static)
    throw CaseError(c.file.string() + ": no boundary condition holds the body (" +
                    (p.physics.type == PhysicsType::Heat ? "add a 'temperature' or 'convection' entry"
                                                         : "add a 'fix' or 'displacement' entry") +
                    "): without one the system is singular (rigid-body motion)");
}

}  // namespace

std::vector<double> outward_signs(const Mesh& mesh, const std::vector<std::size_t>& facets) {
  // Cells incident to each node, built only for the nodes these facets touch.
  std::vector<std::vector<std::size_t>> cells_of(mesh.num_nodes());
  std::vector<char> wanted(mesh.num_nodes(), 0);
  for (auto f : facets) wanted[mesh.boundary.nodes_of(f)[0]] = 1;
  for (std::size_t e = 0; e < mesh.cells.size(); ++e)
    for (int n : mesh.cells.nodes_of(e))
      if (wanted[n]) cells_of[n].push_back(e);

  auto centroid = [&](std::span<const int> nodes, int vertices, double* x) {
    x[0] = x[1] = x[2] = 0;
    for (int i = 0; i < vertices; ++i)
      for (int k = 0; k < 3; ++k) x[k] += mesh.coords[3 * nodes[i] + k] / vertices;
  };
  std::vector<double> signs;
  std::vector<double> coords;
  for (auto f : facets) {
    const auto nodes = mesh.boundary.nodes_of(f);
    const auto type = mesh.boundary.type[f];
    const int vertices = element_info(type).num_vertices;
    std::size_t cell = static_cast<std::size_t>(-1);
    for (auto e : cells_of[nodes[0]]) {
      const auto cn = mesh.cells.nodes_of(e);
      if (std::all_of(nodes.begin(), nodes.begin() + vertices,
                      [&](int n) { return std::find(cn.begin(), cn.end(), n) != cn.end(); })) {
        cell = e;
        break;
      }
    }
    if (cell == static_cast<std::size_t>(-1))
      throw std::runtime_error("boundary element " + std::to_string(f) + " lies on no cell of the mesh");
    coords.clear();
    for (int n : nodes) coords.insert(coords.end(), &mesh.coords[3 * n], &mesh.coords[3 * n] + 3);
    const auto ref = reference_nodes(type);
    const int fdim = element_info(type).dimension;
    double xi[3] = {0, 0, 0};
    for (int i = 0; i < vertices; ++i)
      for (int k = 0; k < fdim; ++k) xi[k] += ref[i * fdim + k] / vertices;
    const FacetPoint fp = map_facet_point(type, coords, xi);
    double fc[3], cc[3];
    centroid(nodes, vertices, fc);
    centroid(mesh.cells.nodes_of(cell), element_info(mesh.cells.type[cell]).num_vertices, cc);
    double dot = 0;
    for (int k = 0; k < 3; ++k) dot += fp.normal[k] * (fc[k] - cc[k]);
    signs.push_back(dot >= 0 ? 1.0 : -1.0);
  }
  return signs;
}

Problem build_problem(const Case& c, const Mesh& mesh, std::vector<double> solved_temperature) {
  Problem p;
  p.mesh = &mesh;
  p.physics = physics_model(c, mesh);
  assign_materials(c, mesh, p);
  if (c.gravity) p.gravity = *c.gravity;
  p.source = c.source;
  p.source_table = c.source_table;
  if (c.temperature) {
    if (!c.temperature->from.empty() && solved_temperature.size() != mesh.num_nodes())
      fail(c, c.temperature->line, "'loads.temperature.from' (" + c.temperature->from.filename().string() +
                                       ") is solved first by 'fem run' only; this command takes a uniform temperature");
    p.temperature = c.temperature->from.empty() ? std::vector<double>(mesh.num_nodes(), c.temperature->uniform)
                                                : std::move(solved_temperature);
  }
  resolve_boundary(c, c.boundary, mesh, p);
  hold_axis(mesh, p);
  require_held(c, p);
  return p;
}

Problem load_case_loads(const Case& c, const LoadCaseSpec& load_case, const Problem& common) {
  Problem p;
  p.mesh = common.mesh;
  p.physics = common.physics;
  p.materials = common.materials;
  p.material_names = common.material_names;
  p.cell_material = common.cell_material;
  if (load_case.gravity) p.gravity = *load_case.gravity;
  p.source = load_case.source;
  resolve_boundary(c, load_case.boundary, *common.mesh, p);
  return p;
}

Problem with_loads(const Problem& common, const Problem& own) {
  Problem p = common;
  for (int k = 0; k < 3; ++k) p.gravity[k] += own.gravity[k];
  p.source += own.source;
  p.loads.insert(p.loads.end(), own.loads.begin(), own.loads.end());
  return p;
}

}  // namespace fem
