#include "fem/mesh/gmsh_mesh.hpp"

#include <gmsh.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "fem/mesh/child_meshing.hpp"
#include "fem/mesh/geo_file_check.hpp"
#include "fem/mesh/mesh_check.hpp"
#include "fem/mesh/msh_file_check.hpp"
#include "support/host_memory.hpp"

namespace fem {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void fail(const fs::path& file, const std::string& what) {
  throw std::runtime_error(file.string() + ": " + what);
}

void require_file(const fs::path& file) {
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) fail(file, "no such file");
}

// The "Error: ..." lines Gmsh logged in this session.
std::vector<std::string> logged_errors() {
  std::vector<std::string> log, errors;
  gmsh::logger::get(log);
  for (auto& line : log)
    if (line.rfind("Error", 0) == 0) errors.push_back(std::move(line));
  return errors;
}

// Runs Gmsh calls and fails, naming the file and the step, when they logged an error (Gmsh
// goes on after one: see GmshSession) or threw (Gmsh 4.8 throws plain strings).
template <class Calls>
void gmsh_step(const fs::path& file, const char* step, Calls&& calls) {
  const std::size_t errors_before = logged_errors().size();
  std::string reason;
  try {
    calls();
  } catch (const std::string& thrown) {
    reason = thrown;
  }
  const auto errors = logged_errors();
  std::string said;
  for (std::size_t i = errors_before; i < errors.size(); ++i)
    if (reason.empty() || errors[i].find(reason) == std::string::npos) said += "\n  " + errors[i];
  if (!reason.empty() || !said.empty()) fail(file, std::string(step) + " failed" + (reason.empty() ? ":" : ": " + reason) + said);
}

// One Gmsh session, finalized on every path out. `size` > 0 is handed to the .geo as the
// ONELAB parameter "Parameters/size", which `DefineConstant[ size = {..., Name "Parameters/size"} ]`
// takes over its default. ONELAB parameters outlive gmsh::finalize, hence the clear.
class GmshSession {
 public:
  GmshSession(bool verbose, double size) {
    gmsh::initialize(0, nullptr, /*readConfigFiles=*/false);
    try {
      gmsh::option::setNumber("General.Terminal", verbose ? 1 : 0);
      // The API's default (2) throws from inside Gmsh's OpenMP loops, where a throw ends the
      // process (a degenerate surface aborted fem); errors are logged and gmsh_step fails on them.
      gmsh::option::setNumber("General.AbortOnError", 0);
      gmsh::option::setNumber("General.Verbosity", verbose ? 5 : 2);  // quiet: errors and warnings
      gmsh::logger::start();                                          // keeps the error text for our messages
      gmsh::onelab::clear();
      if (size > 0) gmsh::onelab::setNumber("Parameters/size", {size});
    } catch (...) {
      gmsh::finalize();
      throw;
    }
  }
  ~GmshSession() {
    try {
      gmsh::logger::stop();
      gmsh::finalize();
    } catch (...) {  // nothing sensible to do while unwinding
    }
  }
  GmshSession(const GmshSession&) = delete;
  GmshSession& operator=(const GmshSession&) = delete;
};

double get_option(const char* name) {
  double value = 0;
  gmsh::option::getNumber(name, value);
  return value;
}

int shape_dimension(ElementShape shape) { return element_info(element_type_for(shape, 1)).dimension; }

const char* shape_name(ElementShape shape) {
  switch (shape) {
    case ElementShape::Triangle:
      return "triangle";
    case ElementShape::Quadrilateral:
      return "quadrilateral";
    case ElementShape::Tetrahedron:
      return "tetrahedron";
    case ElementShape::Hexahedron:
      return "hexahedron";
    default:
      return "non-cell shape";
  }
}

// True when the mesh has elements of dimension `dim` and all of them have `shape`.
bool all_elements_are(int dim, ElementShape shape) {
  std::vector<int> types;
  gmsh::model::mesh::getElementTypes(types, dim);
  for (int gmsh_type : types) {
    ElementType type;
    if (!element_type_from_gmsh(gmsh_type, type) || element_info(type).shape != shape) return false;
  }
  return !types.empty();
}

// Generates cells of `shape`. Quadrilaterals come from Blossom recombination of a
// Frontal-Delaunay triangulation; hexahedra from volumes the .geo made transfinite and
// recombined. Where that leaves other shapes, the model is meshed again at twice the size and
// every element subdivided into quadrilaterals (hexahedra), back to about the requested size.
// Continues from the boundary mesh estimate_geo_cells made.
void generate_cells(const fs::path& file, ElementShape shape, int dim) {
  const bool tensor = shape == ElementShape::Quadrilateral || shape == ElementShape::Hexahedron;
  gmsh_step(file, "meshing", [&] {
    if (tensor && dim == 2) {
      gmsh::option::setNumber("Mesh.RecombineAll", 1);
      gmsh::option::setNumber("Mesh.RecombinationAlgorithm", 1);  // Blossom
      gmsh::option::setNumber("Mesh.Algorithm", 6);               // Frontal-Delaunay
    }
    if (tensor && dim == 3) {
      // Volumes can only be all-hexahedral on all-quadrilateral surfaces: skip the 3D pass otherwise.
      if (all_elements_are(2, ElementShape::Quadrilateral)) gmsh::model::mesh::generate(3);
    } else {
      gmsh::model::mesh::generate(dim);
    }
    if (tensor && !all_elements_are(dim, shape)) {
      gmsh::model::mesh::clear();
      gmsh::option::setNumber("Mesh.MeshSizeFactor", 2 * get_option("Mesh.MeshSizeFactor"));
      gmsh::option::setNumber("Mesh.SubdivisionAlgorithm", dim == 2 ? 1 : 2);
      gmsh::model::mesh::generate(dim);
    }
  });
}

// Gmsh's nodes: their tags and coordinates (x y z each), and the largest tag.
struct GmshNodes {
  std::vector<std::size_t> tags;
  std::vector<double> xyz;
  std::size_t max_tag = 0;
};

GmshNodes read_nodes(const fs::path& file) {
  GmshNodes nodes;
  gmsh_step(file, "reading the nodes", [&] {
    std::vector<double> parametric;
    gmsh::model::mesh::getNodes(nodes.tags, nodes.xyz, parametric, -1, -1, false, false);
    nodes.max_tag = nodes.tags.empty() ? 0 : *std::max_element(nodes.tags.begin(), nodes.tags.end());
    // Tags index a plain vector below; sparse ones (a hand-made .msh) are made dense first.
    if (nodes.max_tag > 2 * nodes.tags.size() + 1024) {
      gmsh::model::mesh::renumberNodes();
      gmsh::model::mesh::getNodes(nodes.tags, nodes.xyz, parametric, -1, -1, false, false);
      nodes.max_tag = nodes.tags.size();
    }
  });
  if (nodes.max_tag >= static_cast<std::size_t>(INT_MAX)) fail(file, "too many nodes for fem's int indices");
  return nodes;
}

// The highest dimension of the mesh's elements: 2 or 3, else the file is refused.
int cell_dimension(const fs::path& file) {
  int highest_dim = -1;
  gmsh_step(file, "reading the elements", [&] {
    for (int dim = 3; dim >= 0 && highest_dim < 0; --dim) {
      std::vector<int> types;
      gmsh::model::mesh::getElementTypes(types, dim);
      if (!types.empty()) highest_dim = dim;
    }
  });
  if (highest_dim < 0) fail(file, "the mesh has no elements");
  if (highest_dim < 2) fail(file, "the mesh has no 2D or 3D elements; fem needs cells of dimension 2 or 3");
  return highest_dim;
}

// Elements are copied one Gmsh entity at a time; each entity's elements occupy a range of
// `cells` or `boundary`, and a physical group is the union of its entities' ranges. Element
// nodes hold Gmsh node tags until they are renumbered at the end.
class EntityCopier {
 public:
  EntityCopier(const fs::path& file, Mesh& mesh) : file_(file), mesh_(mesh) {}

  // The range of the entity's elements in `cells` (of the mesh's dimension) or `boundary`,
  // copied there the first time.
  std::pair<std::size_t, std::size_t> copy(int dim, int tag) {
    if (const auto found = range_.find({dim, tag}); found != range_.end()) return found->second;
    ElementSet& set = dim == mesh_.dimension ? mesh_.cells : mesh_.boundary;
    const std::size_t first = set.size();
    std::vector<int> types;
    std::vector<std::vector<std::size_t>> element_tags, element_nodes;
    gmsh::model::mesh::getElements(types, element_tags, element_nodes, dim, tag);
    for (std::size_t block = 0; block < types.size(); ++block) {
      const ElementType type = supported_type(types[block]);
      const auto& nodes = element_nodes[block];
      const std::size_t n = element_info(type).num_nodes;
      std::vector<int> element(n);
      for (std::size_t e = 0; e < element_tags[block].size(); ++e) {
        for (std::size_t i = 0; i < n; ++i) element[i] = static_cast<int>(nodes[e * n + i]);
        set.add(type, element);
        set.tag.push_back(element_tags[block][e]);
      }
    }
    return range_[{dim, tag}] = {first, set.size()};
  }

 private:
  ElementType supported_type(int gmsh_type) const {
    ElementType type;
    if (element_type_from_gmsh(gmsh_type, type)) return type;
    std::string name;
    int type_dim, order, num_nodes, num_primary;
    std::vector<double> local_coords;
    gmsh::model::mesh::getElementProperties(gmsh_type, name, type_dim, order, num_nodes, local_coords, num_primary);
    fail(file_, "Gmsh element type " + std::to_string(gmsh_type) + " (" + name + ") is not supported by fem");
  }

  const fs::path& file_;
  Mesh& mesh_;
  std::map<std::pair<int, int>, std::pair<std::size_t, std::size_t>> range_;
};

// Every physical group, as the elements of its entities (copied where the cells did not bring them).
void read_physical_groups(const fs::path& file, Mesh& mesh, EntityCopier& entities) {
  gmsh::vectorpair physical_groups;
  gmsh_step(file, "reading the physical groups", [&] { gmsh::model::getPhysicalGroups(physical_groups); });
  for (auto [dim, tag] : physical_groups)
    gmsh_step(file, "reading the physical groups", [&] {
      PhysicalGroup group;
      gmsh::model::getPhysicalName(dim, tag, group.name);
      if (group.name.empty()) group.name = "group" + std::to_string(tag);
      group.dimension = dim;
      std::vector<int> group_entities;
      gmsh::model::getEntitiesForPhysicalGroup(dim, tag, group_entities);
      for (int entity : group_entities) {
        auto [first, last] = entities.copy(dim, entity);
        for (std::size_t e = first; e < last; ++e) group.elements.push_back(e);
      }
      mesh.groups.push_back(std::move(group));
    });
}

// Keeps only the nodes elements use, numbered in increasing tag order, and renumbers the elements' nodes.
void keep_used_nodes(const fs::path& file, const GmshNodes& nodes, Mesh& mesh) {
  std::vector<int> index_of_tag(nodes.max_tag + 1, -1);
  for (auto* set : {&mesh.cells, &mesh.boundary})
    for (int tag : set->node) {
      if (static_cast<std::size_t>(tag) > nodes.max_tag)
        fail(file, "an element refers to node " + std::to_string(tag) + ", which does not exist");
      index_of_tag[tag] = 0;
    }
  int next = 0;
  for (int& index : index_of_tag)
    if (index == 0) index = next++;
  mesh.coords.assign(3 * static_cast<std::size_t>(next), 0.0);
  for (std::size_t i = 0; i < nodes.tags.size(); ++i) {
    const int index = index_of_tag[nodes.tags[i]];
    if (index >= 0)
      for (int k = 0; k < 3; ++k) mesh.coords[3 * index + k] = nodes.xyz[3 * i + k];
  }
  for (auto* set : {&mesh.cells, &mesh.boundary})
    for (int& node : set->node) node = index_of_tag[static_cast<std::size_t>(node)];
}

// Copies Gmsh's mesh into a Mesh (see gmsh_mesh.hpp for what goes where).
Mesh extract_mesh(const fs::path& file, const MeshCheckOptions& checks) {
  Mesh mesh;
  mesh.source = file.string();
  const GmshNodes nodes = read_nodes(file);
  mesh.dimension = cell_dimension(file);
  EntityCopier entities(file, mesh);
  gmsh_step(file, "reading the elements", [&] {
    gmsh::vectorpair cell_entities;
    gmsh::model::getEntities(cell_entities, mesh.dimension);
    for (auto [dim, tag] : cell_entities) entities.copy(dim, tag);
  });
  read_physical_groups(file, mesh, entities);
  keep_used_nodes(file, nodes, mesh);
  check_mesh(mesh, checks);
  return mesh;
}

void check_options(const fs::path& geo, const GmshMeshOptions& options) {
  if (options.order != 1 && options.order != 2)
    fail(geo, "element order " + std::to_string(options.order) + " is not supported (1 or 2)");
  if (!(options.size >= 0) || !std::isfinite(options.size))
    fail(geo, "the element size must be a positive number (or 0 for the .geo's own sizes)");
  if (options.shape && shape_dimension(*options.shape) < 2)
    fail(geo, "the element shape must be a triangle, quadrilateral, tetrahedron or hexahedron");
}

// The whole Gmsh session of a .geo, run in the meshing child: each step told to the watcher, and
// the estimate of the cells once it has passed the caller's check.
Mesh mesh_geo_in_this_process(const fs::path& geo, const GmshMeshOptions& options, const MeshingProgress& progress) {
  GmshSession session(options.verbose, options.size);
  gmsh_step(geo, "reading", [&] { gmsh::open(geo.string()); });

  const int dim = gmsh::model::getDimension();
  if (dim < 2) fail(geo, "the file defines no surface or volume to mesh");
  const ElementShape shape = options.shape.value_or(dim == 3 ? ElementShape::Tetrahedron : ElementShape::Triangle);
  if (dim != shape_dimension(shape))
    fail(geo, "a " + std::to_string(dim) + "D geometry cannot be meshed with " + shape_name(shape) + "s");

  gmsh_step(geo, "setting mesh options", [&] {
    if (options.size > 0) gmsh::option::setNumber("Mesh.MeshSizeMax", options.size);
    // Debian's Gmsh 4.8.4 crashes in "Frontal-Delaunay for quads" (algorithm 8): use plain Frontal-Delaunay.
    if (get_option("Mesh.Algorithm") == 8) gmsh::option::setNumber("Mesh.Algorithm", 6);
  });
  GeoMeshEstimate estimate;
  if (options.size > 0) {
    double boundary_elements = 0;
    gmsh_step(geo, "measuring the geometry", [&] { estimate = estimate_from_bounding_box(dim, shape, options.size, boundary_elements); });
    if (boundary_elements > kBoundaryElementsForEstimate) progress.estimated(estimate);
  }
  progress.step("meshing the boundary");
  gmsh_step(geo, "meshing the boundary", [&] { estimate = estimate_geo_cells(dim, shape); });
  progress.estimated(estimate);
  progress.step("meshing the cells");
  generate_cells(geo, shape, dim);
  if (options.order == 2) {
    progress.step("making the mesh quadratic");
    gmsh_step(geo, "making the mesh quadratic", [&] {
      gmsh::option::setNumber("Mesh.SecondOrderIncomplete", options.serendipity ? 1 : 0);
      gmsh::model::mesh::setOrder(2);
    });
  }
  progress.step("copying the mesh");
  return extract_mesh(geo, options.checks);
}

}  // namespace

Mesh mesh_from_geo(const fs::path& geo, const GmshMeshOptions& options) {
  require_file(geo);
  check_options(geo, options);
  check_geo_file(geo);
  MeshingBudget budget;
  budget.seconds = options.time_limit > 0 ? options.time_limit : kMeshingSeconds;
  budget.seconds_per_cell = options.time_limit > 0 ? 0 : kMeshingSecondsPerCell;
  budget.bytes = options.memory_limit > 0 ? options.memory_limit : host_available_memory();
  return mesh_in_child(geo, budget, options.check_estimate,
                       [&](const MeshingProgress& progress) { return mesh_geo_in_this_process(geo, options, progress); });
}

Mesh mesh_from_msh(const fs::path& msh, const MeshCheckOptions& checks) {
  require_file(msh);
  check_msh_file(msh);  // Gmsh's reader crashes on tags it does not expect
  GmshSession session(false, 0);
  gmsh_step(msh, "reading", [&] { gmsh::open(msh.string()); });
  return extract_mesh(msh, checks);
}

}  // namespace fem
