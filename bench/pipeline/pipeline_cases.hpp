#pragma once
// The cases `fem bench pipeline` runs at size n: a unit cube of n^3 trilinear hexahedra from the
// built-in box (elasticity, or heat), or quadratic tetrahedra (tet10) that Gmsh meshes from a box
// .geo at element size 1/n. Each is solved by CG + AMG to 1e-8 on the device asked.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace fem::bench {

struct PipelineCase {
  std::string name;  // hex8-elasticity, hex8-heat, tet10-elasticity
  bool needs_gmsh;
  int nodes_per_element, dofs_per_node;
  int post_components;  // doubles per node post-processing writes (phase_traffic.hpp)
  // About how many unknowns size n gives (exact for the boxes): what the budget predicts from.
  std::int64_t estimated_dofs(int n) const;
};

// Every case, in the order the tables show them.
const std::vector<PipelineCase>& pipeline_cases();
std::vector<std::string> pipeline_case_names();
const PipelineCase& find_pipeline_case(const std::string& name);

// Writes `dir`/<name>-<n>.yaml (and the .geo it meshes) for `device`, its results going to
// `dir`/results; returns the case file.
std::filesystem::path write_pipeline_case(const PipelineCase& kind, int n, const std::string& device,
                                          const std::filesystem::path& dir);

}  // namespace fem::bench
