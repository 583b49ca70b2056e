#pragma once
// `fem run` under mpirun on the built-in box with no rank holding the whole mesh: each rank makes
// its part of the box (fem/mesh/box_part.hpp), numbers, assembles into PETSc's distributed
// matrix, recovers at its own nodes and writes its own .vtu piece (rank 0 the .pvtu and the
// summary, put together by reductions). The other cases under mpirun (Gmsh meshes, modal and
// transient analyses, ...) take the route where every rank builds the whole mesh.
#include <iosfwd>
#include <string>

#include <nlohmann/json.hpp>

#include "fem/case/case.hpp"
#include "fem/output/result_sink.hpp"
#include "fem/pipeline/run_overrides.hpp"

namespace fem {

// Empty when `c` runs on box blocks; otherwise why every rank builds the whole mesh instead.
std::string why_not_on_blocks(const Case& c);

// Collective over the ranks of the launch (PETSc initialised). Prints and returns as run_pipeline
// does.
nlohmann::json run_on_blocks(const Case& c, const RunOverrides& overrides, ResultSink& sink, std::ostream& log);

}  // namespace fem
