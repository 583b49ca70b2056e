#include "fem/pipeline/result_fields.hpp"

#include <algorithm>

namespace fem {

ResultFields result_fields(const Case& c, const Problem& problem, const NodalResults& results, const nlohmann::json& summary) {
  const Mesh& mesh = *problem.mesh;
  ResultFields fields;
  fields.mesh = &mesh;
  const auto add = [&](const char* name, int components, std::span<const double> values) {
    const auto& wanted = c.output.fields;
    if (!values.empty() && (wanted.empty() || std::find(wanted.begin(), wanted.end(), name) != wanted.end()))
      fields.points.push_back({name, components, values});
  };
  add("displacement", 3, results.displacement);
  add("strain", 6, results.strain);
  add("stress", 6, results.stress);
  add("von_mises", 1, results.von_mises);
  add("principal_stress", 3, results.principal_stress);
  add("tresca", 1, results.tresca);
  add("principal_directions", 9, results.principal_directions);
  add("temperature", 1, results.temperature);
  add("heat_flux", 3, results.heat_flux);
  add("reaction", problem.physics.type == PhysicsType::Heat ? 1 : 3, results.reaction);
  CellArray material{"material", {}};
  material.values.assign(problem.cell_material.begin(), problem.cell_material.end());
  fields.cells.push_back(std::move(material));

  // What the ParaView script shows first: the deformed shape coloured by von Mises stress, or
  // the temperature.
  ParaviewView& view = fields.view;
  view.title = c.title;
  view.dimension = mesh.dimension;
  if (problem.physics.type == PhysicsType::Heat) {
    view.color_field = "temperature";
    view.color_label = "temperature [°C]";
    view.color_unit = "°C";
  } else {
    view.color_field = "von_mises";
    view.color_label = "von Mises stress [MPa]";
    view.color_scale = 1e-6;  // stresses read in MPa
    view.color_unit = "MPa";
    view.warp = true;
    view.warp_scale = deformation_scale(mesh.coords, summary.value("max_displacement", 0.0));
  }
  return fields;
}

}  // namespace fem
