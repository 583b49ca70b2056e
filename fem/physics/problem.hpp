#pragma once
// The problem to discretise: the mesh, the physics, a material per cell, loads and Dirichlet
// conditions resolved onto cells, facets and nodes. Built from a case (build_problem) or
// directly by tests, which may give loads and prescribed values as functions of position.
#include <array>
#include <functional>
#include <numbers>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fem/case/case.hpp"
#include "fem/mesh/mesh.hpp"
#include "fem/physics/material_law.hpp"

namespace fem {

// value(x, out): a field given by a formula, out has dofs_per_node entries.
using PointFunction = std::function<void(const double* x, double* out)>;

struct PhysicsModel {
  PhysicsType type = PhysicsType::Elasticity;
  ElasticModel model = ElasticModel::Solid3D;
  double thickness = 1.0;
  int space_dim = 3;
  int dofs_per_node() const { return type == PhysicsType::Heat ? 1 : space_dim; }
  bool axisymmetric() const { return model == ElasticModel::Axisymmetric; }
  // The factor a 2D integral carries at point x: the thickness, or 2 pi r for an axisymmetric
  // model (x[0] = r), whose integrals are over the full ring; 1 in 3D.
  double out_of_plane(const double* x) const {
    if (axisymmetric()) return 2 * std::numbers::pi * x[0];
    return space_dim == 2 ? thickness : 1.0;
  }
};

struct BoundaryLoad {
  using Kind = BoundarySpec::Kind;    // Traction, Pressure, Flux or Convection
  Kind kind = Kind::Traction;
  std::string group;
  std::vector<std::size_t> facets;    // indices into mesh.boundary
  std::vector<double> outward;        // per facet: +1 or -1 so that the facet normal points out of the body
  std::array<double, 3> vector{};     // traction
  double value = 0;                   // pressure or flux
  double h = 0, T_inf = 0;            // convection
  PointFunction function;             // when set: traction vector or flux as a function of position
  std::optional<TimeTable> table{};   // transient heat: flux (value) or convection's T_inf over time
};

struct DirichletCondition {
  std::string group;
  std::vector<int> nodes;
  std::array<bool, 3> component{};    // which components (heat: component 0 = temperature)
  std::array<double, 3> value{};
  PointFunction function;             // when set: the prescribed values as a function of position
  std::optional<TimeTable> table{};   // transient heat: the prescribed temperature (value[0]) over time
};

// The group of the condition u_r = 0 that build_problem puts on the axis nodes (r = 0) of an
// axisymmetric elasticity model.
inline constexpr std::string_view kAxisGroup = "axis (r = 0)";

struct Problem {
  const Mesh* mesh = nullptr;
  PhysicsModel physics;
  std::vector<IsotropicMaterial> materials;
  std::vector<std::string> material_names;
  std::vector<int> cell_material;     // per cell: index into materials
  std::array<double, 3> gravity{};    // elasticity: body force = density * gravity
  double source = 0;                  // heat: volume source
  std::optional<TimeTable> source_table;  // transient heat: `source` over time
  PointFunction body;                 // when set: body force / source per unit volume as a function of position
  std::vector<double> temperature;    // elasticity: per node, the temperature of the thermal strain; empty: none
  std::vector<BoundaryLoad> loads;
  std::vector<DirichletCondition> dirichlet;
};

// Resolves the case's groups against the mesh. Throws CaseError naming the case file line
// and the group for a group the mesh lacks, a region with no material, no Dirichlet condition,
// or a Dirichlet condition on a region group without 'whole_region: true'.
// `solved_temperature` (per node) is the field of loads.temperature.from, solved beforehand;
// a case with such a field and none given is a CaseError.
Problem build_problem(const Case& c, const Mesh& mesh, std::vector<double> solved_temperature = {});

// A load case's own loads on the mesh: `common`'s mesh, physics and materials with only the load
// case's gravity or source and boundary loads, and no Dirichlet condition (a load case holds
// none). Throws CaseError as build_problem does for a group the mesh lacks.
Problem load_case_loads(const Case& c, const LoadCaseSpec& load_case, const Problem& common);

// `common` with `own`'s loads added (gravity and source summed, boundary loads appended): the
// problem a load case solves, whose residual, fields and reactions are its own.
Problem with_loads(const Problem& common, const Problem& own);

// +1 or -1 per facet so that its normal (as map_facet_point gives it) points out of the cell
// it bounds; throws if a facet bounds no cell.
std::vector<double> outward_signs(const Mesh& mesh, const std::vector<std::size_t>& facets);

}  // namespace fem
