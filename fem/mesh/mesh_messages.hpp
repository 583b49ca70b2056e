#pragma once
// How the mesh checks name what they refuse: an element by its tag in the file, its type and
// its groups, and the error prefixed by the mesh's source.
#include <cstddef>
#include <string>

#include "fem/mesh/mesh.hpp"

namespace fem {

// "element 12 (tri3, group 'plate')" with the file's tag and every group that holds it.
std::string describe_element(const Mesh& mesh, const ElementSet& set, std::size_t e);

// Throws std::runtime_error "<mesh.source>: <what>".
[[noreturn]] void fail_mesh(const Mesh& mesh, const std::string& what);

}  // namespace fem
