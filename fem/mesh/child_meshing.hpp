#pragma once
// Meshing in a child process under a time and memory budget. A .geo file is a program: a For
// loop or a macro that calls itself runs without end, and sizes it sets inside the geometry (a
// Field, Mesh.MeshSize* options) make cells that the estimate from its boundary mesh cannot see.
// Neither can be stopped cleanly inside the process that runs Gmsh, so the whole Gmsh session runs
// in a forked child, watched by this process: past its time or its memory the child is killed and
// the caller gets an error naming the file, the step it was at and the budget it passed; a child
// that crashes (a signal) is an error too. The finished mesh comes back through a pipe.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>

#include "fem/mesh/geo_mesh_estimate.hpp"
#include "fem/mesh/mesh.hpp"

namespace fem {

struct MeshingBudget {
  double seconds = 0;            // until the estimate of the cells is known
  double seconds_per_cell = 0;   // added for each estimated cell once it is
  std::size_t bytes = 0;         // the child's resident memory
};

// What the meshing function tells the watcher while it runs (in the child).
class MeshingProgress {
 public:
  explicit MeshingProgress(int fd) : fd_(fd) {}
  void step(const std::string& name) const;                         // "meshing the boundary"
  void estimated(const GeoMeshEstimate& estimate) const;           // checked by the watcher
 private:
  int fd_;
};

// Runs `make` in a child process and returns its mesh. Each estimate the child sends extends the
// time budget by its cells and is handed to `check` (if set) in this process: what `check` throws
// stops the child and is thrown on. Throws std::runtime_error: what `make` threw (its message),
// or, naming `file`, the budget passed or the signal that ended the child.
Mesh mesh_in_child(const std::filesystem::path& file, const MeshingBudget& budget,
                   const std::function<void(const GeoMeshEstimate&)>& check,
                   const std::function<Mesh(const MeshingProgress&)>& make);

}  // namespace fem
