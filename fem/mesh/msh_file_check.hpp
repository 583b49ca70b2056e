#pragma once
// Checks a Gmsh .msh file before Gmsh reads it. Gmsh's reader trusts the file: an element that
// names a negative node tag, one past 2^31 or a node that is not there crashes it. This reads
// the $Nodes and $Elements sections of ASCII MSH 2.2, 4.0 and 4.1 itself and refuses what Gmsh
// would choke on, naming the file, the line and the element or node tag.
#include <filesystem>

namespace fem {

// Throws std::runtime_error "file:line: what is wrong" for: a format other than ASCII MSH 2 or
// 4 (binary files are refused with the command that converts them), counts that do not match
// their section headers, node or element tags outside 1 .. 2^31-2, a non-finite coordinate, an
// element type Gmsh does not define, an element naming a node the file does not hold, a
// missing $Nodes or $Elements section.
void check_msh_file(const std::filesystem::path& msh);

}  // namespace fem
