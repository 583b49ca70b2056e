#pragma once
// What a .geo file may do when fem hands it to Gmsh: describe and mesh its geometry. Gmsh's
// language can also run commands, write files, read any file, stop the process or loop without
// end; a case file sent by someone else must not be able to, so those are refused by name,
// file and line before Gmsh reads a word of it.
#include <filesystem>

namespace fem {

// Throws std::runtime_error "file:line: ..." for: SystemCall, NonBlockingSystemCall, OnelabRun
// (commands); Exit, Abort (ends fem with nothing written); Print, Save, CreateDir and a Printf,
// Error or Warning redirected with > or >> (writes files); Sleep and While (time without bound);
// Merge, MergeWithBoundingBox, ShapeFromFile and Include of anything but a "quoted" name of a
// regular file in the .geo's own folder or below, of a kind Gmsh reads as geometry or mesh
// (.geo for Include, whose file is checked the same way). Comments and strings are skipped.
void check_geo_file(const std::filesystem::path& geo);

}  // namespace fem
