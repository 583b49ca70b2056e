#include "fem/mesh/mesh_messages.hpp"

#include <algorithm>
#include <stdexcept>

namespace fem {

std::string describe_element(const Mesh& mesh, const ElementSet& set, std::size_t e) {
  const int dim = element_info(set.type[e]).dimension;
  std::string groups;
  for (const auto& g : mesh.groups)
    if (g.dimension == dim && std::find(g.elements.begin(), g.elements.end(), e) != g.elements.end())
      groups += (groups.empty() ? "" : ", ") + ("'" + g.name + "'");
  return "element " + std::to_string(set.tag_of(e)) + " (" + std::string(element_info(set.type[e]).name) + ", " +
         (groups.empty() ? "in no physical group" : "group " + groups) + ")";
}

void fail_mesh(const Mesh& mesh, const std::string& what) { throw std::runtime_error(mesh.source + ": " + what); }

}  // namespace fem
