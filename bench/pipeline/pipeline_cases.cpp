#include "bench/pipeline/pipeline_cases.hpp"

#include <algorithm>
#include <stdexcept>

#include "support/atomic_output.hpp"

namespace fem::bench {
namespace {

// Groups as the built-in box names them, so that every case shares its boundary conditions.
const char* kBoxGeo = R"(// Unit cube for fem bench pipeline; size = element size (fem sets it from mesh.size).
SetFactory("OpenCASCADE");
DefineConstant[ size = {0.05, Name "Parameters/size"} ];
Box(1) = {0, 0, 0, 1, 1, 1};
Mesh.MeshSizeMax = size;
Mesh.MeshSizeMin = size;
e = 1e-6;
Physical Volume("box") = {1};
Physical Surface("xmin") = {Surface In BoundingBox{-e, -e, -e, e, 1 + e, 1 + e}};
Physical Surface("xmax") = {Surface In BoundingBox{1 - e, -e, -e, 1 + e, 1 + e, 1 + e}};
)";

std::string box_mesh(int n) {
  const std::string d = std::to_string(n);
  return "mesh:\n  box: {size: [1, 1, 1], divisions: [" + d + ", " + d + ", " + d + "]}\n  element: hex\n  order: 1\n";
}

const char* kElasticity = R"(physics:
  type: elasticity
  model: 3d
materials:
  - {group: box, E: 210e9, nu: 0.3, density: 7850}
boundary:
  - {group: xmin, fix: [x, y, z]}
  - {group: xmax, traction: [0, 0, -1e6]}
)";

const char* kHeat = R"(physics:
  type: heat
materials:
  - {group: box, k: 45}
boundary:
  - {group: xmin, temperature: 100}
  - {group: xmax, convection: {h: 50, T_inf: 20}}
loads:
  source: 1e4
)";

}  // namespace

std::int64_t PipelineCase::estimated_dofs(int n) const {
  const std::int64_t corners = static_cast<std::int64_t>(n + 1) * (n + 1) * (n + 1);
  if (name == "hex8-heat") return corners;
  if (name == "hex8-elasticity") return 3 * corners;
  // Tet10 at size 1/n: about 8 nodes per n^3 (corners and edge midpoints of ~6 tets per cube).
  return 3 * 8 * static_cast<std::int64_t>(n) * n * n;
}

const std::vector<PipelineCase>& pipeline_cases() {
  static const std::vector<PipelineCase> cases = {
      {"hex8-elasticity", false, 8, 3, 16}, {"hex8-heat", false, 8, 1, 4}, {"tet10-elasticity", true, 10, 3, 16}};
  return cases;
}

std::vector<std::string> pipeline_case_names() {
  std::vector<std::string> names;
  for (const auto& c : pipeline_cases()) names.push_back(c.name);
  return names;
}

const PipelineCase& find_pipeline_case(const std::string& name) {
  const auto& cases = pipeline_cases();
  const auto it = std::find_if(cases.begin(), cases.end(), [&](const PipelineCase& c) { return c.name == name; });
  if (it == cases.end()) throw std::invalid_argument("no pipeline case '" + name + "'");
  return *it;
}

std::filesystem::path write_pipeline_case(const PipelineCase& kind, int n, const std::string& device,
                                          const std::filesystem::path& dir) {
  std::string text = "title: " + kind.name + " n=" + std::to_string(n) + " (fem bench pipeline)\n";
  if (kind.needs_gmsh) {
    write_file_atomically(dir / "box.geo", kBoxGeo);
    text += "mesh:\n  geo: box.geo\n  element: tet\n  order: 2\n  size: " + std::to_string(1.0 / n) + "\n";
  } else {
    text += box_mesh(n);
  }
  text += kind.name == "hex8-heat" ? kHeat : kElasticity;
  text += "solver:\n  method: cg\n  device: " + device +
          "\n  preconditioner: amg\n  renumber: auto\n  tolerance: 1e-8\noutput:\n  directory: results\n";
  const auto file = dir / (kind.name + "-" + std::to_string(n) + ".yaml");
  write_file_atomically(file, text);
  return file;
}

}  // namespace fem::bench
