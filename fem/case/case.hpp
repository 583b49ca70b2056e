#pragma once
// The case file (YAML) as a validated value. Every key of DESIGN.md's contract is here; an
// unknown key, a wrong type or a missing value is a CaseError naming the file and line.
#include <array>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "fem/case/analysis_spec.hpp"
#include "fem/case/temperature_load.hpp"
#include "fem/case/time_table.hpp"
#include "fem/mesh/box_mesh.hpp"
#include "fem/output/vtu_compression.hpp"
#include "solvers/linear_solver.hpp"

namespace fem {

class CaseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct MeshSpec {
  enum class Source { Geo, Msh, Box } source = Source::Box;
  std::filesystem::path file;          // absolute path for geo/msh
  BoxSpec box;                         // for Source::Box (shape/order filled from element/order)
  std::optional<ElementShape> shape;   // tri | quad | tet | hex; for geo/box (msh keeps its own)
  int order = 1;
  bool serendipity = false;            // quad8/hex20 rather than the Lagrange quad9/hex27
  double size = 0;                     // target element size, 0 = the geometry's own
  double time_limit = 0;               // geo: seconds Gmsh may take; 0 = a budget from the estimated cells
  bool allow_unmerged_nodes = false;   // geo/msh: parts meant to touch unjoined (mesh_check.hpp)
};

enum class PhysicsType { Elasticity, Heat };
enum class ElasticModel { PlaneStress, PlaneStrain, Solid3D, Axisymmetric };

struct PhysicsSpec {
  PhysicsType type = PhysicsType::Elasticity;
  ElasticModel model = ElasticModel::Solid3D;
  double thickness = 1.0;              // 2D: out-of-plane thickness (elasticity and heat)
};

struct MaterialSpec {
  std::string group;                   // empty: every cell not claimed by another entry
  double E = 0, nu = 0, density = 0;   // elasticity
  double k = 0;                        // heat conductivity
  double specific_heat = 0;            // heat: per unit mass, with density (transient)
  std::optional<double> alpha;         // elasticity: thermal expansion 1/K; given with reference_temperature
  double reference_temperature = 0;    // where the material is free of thermal strain
  int line = 0;                        // where it was written, for messages
};

struct BoundarySpec {
  // Force: a total force spread uniformly over the group; Moment: a couple (vector, z in 2D).
  enum class Kind { Fix, Displacement, Traction, Pressure, Temperature, Flux, Convection, Force, Moment } kind = Kind::Fix;
  std::string group;
  std::array<bool, 3> component{};     // Fix / Displacement: which components
  std::array<double, 3> vector{};      // Displacement values, Traction, Force or Moment vector
  double value = 0;                    // Pressure, Temperature, Flux
  double h = 0, T_inf = 0;             // Convection
  // Temperature, Flux, Convection's T_inf given as a table of (t, value) pairs (a transient
  // analysis); `value` or `T_inf` then holds its value at t = 0.
  std::optional<TimeTable> table;
  bool whole_region = false;           // Fix / Displacement / Temperature on a region group: every node inside it, meant
  int line = 0;
};

// The names solver.renumber accepts; solver.method and solver.device take the solver table's
// (solvers/solver_table.hpp: solver_methods(), solver_devices()), and solver.method also auto.
inline const std::vector<const char*> kRenumberMethods = {"none", "rcm", "gps", "sloan", "auto"};

// The solver table's methods and auto: what solver.method and --solver accept.
std::vector<const char*> case_solver_methods();

// The smallest relative residual a solver is asked for: double precision cannot promise less.
inline constexpr double kSmallestTolerance = 1e-15;
// A bound on box divisions per direction that keeps every count in an int (memory is checked later).
inline constexpr int kMaxBoxDivisions = 1000000;

// The 'solver' section: the solver's own settings as make_solver takes them (method, device,
// preconditioner, precision, tolerance, max_iterations, out_of_core, spmv, petsc_options, amg),
// and the node numbering the case asks for.
struct SolverSpec : SolverOptions {
  // A case's solver is chosen from its size, and its iterative solves get AMG, unless it says otherwise.
  SolverSpec() {
    method = SolverMethodId::Auto;
    preconditioner = Preconditioner::Auto;
  }
  std::string renumber = "rcm";
  // Why solver.method: auto became `method` (set when it is resolved; empty when the case named one).
  std::string method_chosen_because;
  // An iterative answer short of the tolerance but usable is written and marked not converged;
  // with this set the run fails instead (fem/pipeline/answer_check.hpp).
  bool require_convergence = false;
};

// The method a case stands for before its mesh is made, for the check that this build has it:
// auto ends in cg where no factorisation serves.
inline SolverMethodId method_to_check(const SolverSpec& solver) {
  return solver.method == SolverMethodId::Auto ? SolverMethodId::Cg : solver.method;
}

struct OutputSpec {
  std::filesystem::path directory;     // absolute
  std::vector<std::string> fields;     // empty: everything the physics gives
  VtuCompression compression = kDefaultVtuCompression;  // of the .vtu's appended data
  std::array<double, 3> moments_about{};  // the point the reactions' moments are taken about
};

// One of the case's load cases: loads (boundary loads, gravity, source) added to the common ones
// and solved on the same matrix, so it holds no support, prescribed value or convection.
struct LoadCaseSpec {
  std::string name;                    // a file-name part: letters, digits, '_', '-', '.'
  std::vector<BoundarySpec> boundary;  // traction, pressure or flux entries
  std::optional<std::array<double, 3>> gravity;
  double source = 0;
  std::optional<TimeTable> source_table;  // refused: a load case is static
  int line = 0;
};

struct Case {
  std::filesystem::path file;          // the case file itself
  std::string name;                    // its stem: names the outputs
  std::string title;
  MeshSpec mesh;
  PhysicsSpec physics;
  std::vector<MaterialSpec> materials;
  std::vector<BoundarySpec> boundary;
  std::optional<std::array<double, 3>> gravity;
  double source = 0;                   // heat: volume source W/m^3 (its value at t = 0 when a table gives it)
  std::optional<TimeTable> source_table;  // transient heat: the source as a table of (t, value) pairs
  std::optional<TemperatureLoadSpec> temperature;  // elasticity: thermal strain
  std::vector<LoadCaseSpec> load_cases;  // empty: one load set, the common one
  SolverSpec solver;
  OutputSpec output;
  AnalysisSpec analysis;
};

// Every table of (t, value) pairs the case holds (boundary entries and sources, its load cases' too).
std::vector<const TimeTable*> time_tables(const Case& c);

// Reads and validates a case file; throws CaseError with "file:line: message". `settings`
// ("key.path=value", from --set) replace keys of the file before it is validated.
Case load_case(const std::filesystem::path& file, const std::vector<std::string>& settings = {});

// Why an iterative solver's relative tolerance cannot be used (for the case file and
// --tolerance): not a finite positive number, below kSmallestTolerance, or 1 and more (met by
// u = 0, so the answer would be written unsolved). Empty when it can.
std::string tolerance_problem(double tolerance);

// Element shape names as written in case files: tri quad tet hex.
ElementShape parse_element_shape(const std::string& name);

}  // namespace fem
