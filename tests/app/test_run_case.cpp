// The whole `fem run` pipeline: results on disk that VTK reads back, and bad input that ends
// with a message naming the file, line or group, leaving earlier results untouched.
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>

#include "fem/app/renumber_command.hpp"
#include "fem/pipeline/number_format.hpp"
#include "fem/app/run_command.hpp"
#include "fem/config.hpp"
#include "fem/output/vtk_cells.hpp"
#include "fem/elements/reference_element.hpp"
#include "tests/app/app_test_support.hpp"
#include "tests/app/run_expecting_error.hpp"

#if FEM_WITH_VTK
#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkGenericCell.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLUnstructuredGridReader.h>
#endif

using namespace fem;
using fem::test::slurp;
using fem::test::TempDir;
namespace fs = std::filesystem;

using fem::test::run_expecting_error;

namespace {

const char* kBoxCase = R"(title: small box
mesh:
  box: {size: [2, 1, 1], divisions: [4, 2, 2]}
  element: hex
  order: 2
physics:
  type: elasticity
  model: 3d
materials:
  - {group: box, E: 200e9, nu: 0.3, density: 7800}
boundary:
  - {group: xmin, fix: [x, y, z]}
  - {group: xmax, traction: [0, 0, -1e6]}
loads:
  gravity: [0, 0, -9.81]
solver:
  method: cg
  renumber: rcm
  tolerance: 1e-12
)";

std::string replace(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("a box case runs end to end and writes its summary") {
  TempDir dir;
  const auto file = dir.write("box.yaml", kBoxCase);
  std::ostringstream log;
  const auto summary = run_case(file, {}, log);
  CHECK(fs::exists(dir.path / "results/box.json"));
  CHECK(summary["dofs"].get<long>() == 3 * 9 * 5 * 5);
  CHECK(summary["residual"].get<double>() < 1e-10);
  CHECK(summary["bandwidth"]["before"].get<long>() > 0);
  CHECK(summary["profile"]["after"].get<long>() < summary["profile"]["before"].get<long>());  // RCM reduces the profile
  for (const char* phase : {"mesh", "renumber", "assemble", "solve", "post", "write"}) CHECK(summary["time_s"].contains(phase));
  // Where the phases went, step by step; the file written holds them too.
  for (const char* step : {"assemble.matrix", "solve.solver", "solve.residual", "post.sweep", "post.reactions"})
    CHECK(summary["time_steps_s"].contains(step));
  CHECK(slurp(dir.path / "results/box.json").find("\"post.sweep\"") != std::string::npos);
  CHECK(summary["peak_memory_bytes"].get<double>() > 0);
  // The peak as each phase ended: every phase, a running maximum, never above the run's peak (as
  // the file has them, staged in the write phase).
  const auto written = nlohmann::json::parse(slurp(dir.path / "results/box.json"));
  const auto& peaks = written["peak_memory_after_phase_bytes"];
  double before = 0;
  for (const char* phase : {"mesh", "renumber", "assemble", "solve", "post", "write"}) {
    CAPTURE(phase);
    REQUIRE(peaks.contains(phase));
    CHECK(peaks[phase].get<double>() >= before);
    before = peaks[phase].get<double>();
  }
  CHECK(before > 0);
  CHECK(before <= written["peak_memory_bytes"].get<double>());
  // Equilibrium: the clamp carries the traction (1e6 * 1 m^2) plus the weight (7800 * 9.81 * 2 m^3).
  const double weight = 7800 * 9.81 * 2;
  CHECK(summary["reactions"]["xmin"][2].get<double>() == doctest::Approx(1e6 + weight).epsilon(1e-8));
  CHECK(log.str().find("fem: solve") != std::string::npos);
}

TEST_CASE("a body free to move is refused by every direct solver, not answered with garbage") {
  TempDir dir;
  // Only x is held on xmin: the box may slide in y and z and turn about x.
  const auto file = dir.write("free.yaml", replace(kBoxCase, "fix: [x, y, z]", "fix: [x]"));
  for (const char* method : {"band-cholesky", "frontal", "multifrontal"}) {
    CAPTURE(method);
    RunOverrides overrides;
    overrides.method = method;
    std::ostringstream log;
    CHECK_THROWS_AS(run_case(file, overrides, log), SolveFailure);
  }
  CHECK_FALSE(fs::exists(dir.path / "results/free.json"));
}

#if FEM_WITH_PETSC
TEST_CASE("an answer that misses the tolerance is refused, whatever solver gave it, and earlier results stay") {
  TempDir dir;
  const auto file = dir.write("box.yaml", kBoxCase);
  std::ostringstream log;
  run_case(file, {}, log);
  const std::string earlier = slurp(dir.path / "results/box.json");
  // PETSc with options that skip the iterations returns an answer far from the solution.
  for (const char* options : {"-ksp_type preonly", "-ksp_max_it 2 -ksp_converged_maxits"}) {
    CAPTURE(options);
    RunOverrides overrides;
    overrides.settings = {"solver.method=petsc", std::string("solver.petsc_options=") + options};
    try {
      run_case(file, overrides, log);
      FAIL("the run wrote an answer whose residual misses the tolerance");
    } catch (const SolveFailure& e) {
      CHECK(std::string(e.what()).find("the answer is not written") != std::string::npos);
      CHECK(std::string(e.what()).find("petsc_options") != std::string::npos);
    }
  }
  CHECK(slurp(dir.path / "results/box.json") == earlier);
}
#endif

TEST_CASE("an answer short of the tolerance but usable is written marked not converged, unless convergence is required") {
  TempDir dir;
  const auto file = dir.write("box.yaml", kBoxCase);
  std::ostringstream log;
  RunOverrides jacobi;
  jacobi.settings = {"solver.preconditioner=jacobi"};
  const auto full = run_case(file, jacobi, log);
  CHECK(full["converged"].get<bool>());
  CHECK(full["preconditioner"] == "jacobi");
  // Stop where the residual first falls below 1e-7: usable, but far from the asked 1e-12.
  const auto history = full["residual_history"].get<std::vector<double>>();
  std::size_t stop = 0;
  while (stop < history.size() && history[stop] >= 1e-7) ++stop;
  REQUIRE(stop + 10 < history.size());
  RunOverrides limited = jacobi;
  limited.settings.push_back("solver.max_iterations=" + std::to_string(stop));
  std::ostringstream short_log;
  const auto summary = run_case(file, limited, short_log);
  CHECK_FALSE(summary["converged"].get<bool>());
  CHECK(summary["residual"].get<double>() > 1e-11);
  CHECK(summary["not_converged_because"].get<std::string>().find("iteration limit of " + std::to_string(stop)) !=
        std::string::npos);
  CHECK(short_log.str().find("NOT CONVERGED") != std::string::npos);
  const std::string written = slurp(dir.path / "results/box.json");
  CHECK(written.find("\"converged\": false") != std::string::npos);

  limited.settings.push_back("solver.require_convergence=true");
  try {
    run_case(file, limited, log);
    FAIL("a run that requires convergence wrote an answer short of the tolerance");
  } catch (const SolveFailure& e) {
    CHECK(std::string(e.what()).find("require_convergence") != std::string::npos);
  }
  CHECK(slurp(dir.path / "results/box.json") == written);
}

TEST_CASE("iterative solvers default to AMG, and say that auto chose it") {
  TempDir dir;
  const auto file = dir.write("box.yaml", kBoxCase);
  std::ostringstream log;
  const auto summary = run_case(file, {}, log);
  CHECK(summary["preconditioner"] == "amg");
  CHECK(summary["preconditioner_chosen_by"] == "auto");
  CHECK(summary["solver_figures"].contains("amg_levels"));
}

TEST_CASE("an AMG run takes the solver.amg keys and reports its setup apart from the solve") {
  TempDir dir;
  const auto file = dir.write(
      "box.yaml", replace(kBoxCase, "  tolerance: 1e-12",
                          "  tolerance: 1e-12\n  preconditioner: amg\n  amg: {strength_threshold: 0.02, smoother: l1-jacobi, "
                          "smoother_degree: 3, coarse_size: 100, precision: double}"));
  std::ostringstream log;
  const auto summary = run_case(file, {}, log);
  CHECK(summary["residual"].get<double>() < 1e-10);
  CHECK(summary["preconditioner"] == "amg");
  CHECK(summary["solver_figures"]["amg_levels"].get<double>() >= 2);
  CHECK(summary["solver_figures"]["amg_rigid_body_modes"].get<double>() == 1);
  CHECK(summary["solver_figures"]["amg_single_precision"].get<double>() == 0);
  CHECK(summary["solver_time_s"]["setup"].get<double>() > 0);
  CHECK(log.str().find("setup") != std::string::npos);
}

#if FEM_WITH_VTK
TEST_CASE("the .vtu reads back with VTK's reader and its arrays match the run") {
  TempDir dir;
  const auto file = dir.write("box.yaml", kBoxCase);
  std::ostringstream log;
  run_case(file, {}, log);
  vtkNew<vtkXMLUnstructuredGridReader> reader;
  reader->SetFileName((dir.path / "results/box.vtu").c_str());
  reader->Update();
  vtkUnstructuredGrid* grid = reader->GetOutput();
  const Mesh mesh = make_box_mesh({{2, 1, 1}, {4, 2, 2}, ElementShape::Hexahedron, 2, false});
  REQUIRE(grid->GetNumberOfPoints() == static_cast<vtkIdType>(mesh.num_nodes()));
  REQUIRE(grid->GetNumberOfCells() == static_cast<vtkIdType>(mesh.cells.size()));
  for (const char* name : {"displacement", "stress", "von_mises", "reaction", "strain"})
    CHECK_MESSAGE(grid->GetPointData()->GetArray(name) != nullptr, name);
  CHECK(grid->GetPointData()->GetArray("displacement")->GetNumberOfComponents() == 3);
  CHECK(grid->GetPointData()->GetArray("stress")->GetNumberOfComponents() == 6);
  CHECK(grid->GetCellData()->GetArray("material") != nullptr);
  // The tip moves down; the arrays agree with each other (von Mises from the stress tensor).
  auto* u = grid->GetPointData()->GetArray("displacement");
  auto* s = grid->GetPointData()->GetArray("stress");
  auto* vm = grid->GetPointData()->GetArray("von_mises");
  double lowest = 0;
  for (vtkIdType i = 0; i < grid->GetNumberOfPoints(); ++i) {
    lowest = std::min(lowest, u->GetComponent(i, 2));
    const double* t = s->GetTuple6(i);
    const double expected = std::sqrt(0.5 * ((t[0] - t[1]) * (t[0] - t[1]) + (t[1] - t[2]) * (t[1] - t[2]) +
                                             (t[2] - t[0]) * (t[2] - t[0])) +
                                      3 * (t[3] * t[3] + t[4] * t[4] + t[5] * t[5]));
    CHECK(vm->GetComponent(i, 0) == doctest::Approx(expected).epsilon(1e-9));
  }
  CHECK(lowest < 0);
  const auto json = nlohmann::json::parse(slurp(dir.path / "results/box.json"));
  CHECK(json["max_displacement"].get<double>() == doctest::Approx(-lowest).epsilon(0.05));
}

TEST_CASE("Gmsh-to-VTK node order puts every node where VTK expects it") {
  for (auto type : {ElementType::Tri3, ElementType::Tri6, ElementType::Quad4, ElementType::Quad8, ElementType::Quad9,
                    ElementType::Tet4, ElementType::Tet10, ElementType::Hex8, ElementType::Hex20, ElementType::Hex27}) {
    const auto& info = element_info(type);
    CAPTURE(info.name);
    vtkNew<vtkGenericCell> cell;
    cell->SetCellType(vtk_cell_type(type));
    const double* vtk_params = cell->GetParametricCoords();
    const auto ref = reference_nodes(type);
    const auto order = vtk_from_gmsh(type);
    const bool tensor = info.shape == ElementShape::Quadrilateral || info.shape == ElementShape::Hexahedron;
    for (int i = 0; i < info.num_nodes; ++i)
      for (int k = 0; k < info.dimension; ++k) {
        // VTK's parametric space is [0,1]; Gmsh's tensor elements use [-1,1].
        const double gmsh = ref[order[i] * info.dimension + k];
        CHECK(vtk_params[3 * i + k] == doctest::Approx(tensor ? (gmsh + 1) / 2 : gmsh));
      }
  }
}
#endif

TEST_CASE("bad input names the file, line or group and leaves earlier results untouched") {
  TempDir dir;
  const auto good = dir.write("box.yaml", kBoxCase);
  std::ostringstream log;
  run_case(good, {}, log);
  const auto before = slurp(dir.path / "results/box.json");

  struct Bad {
    const char* what;
    std::string text;
    std::string expected;
  };
  const std::vector<Bad> bad = {
      {"unknown key", replace(kBoxCase, "  order: 2", "  order: 2\n  colour: red"), "box.yaml:6: unknown key 'colour'"},
      {"wrong type", replace(kBoxCase, "order: 2", "order: two"), "box.yaml:5: 'order'"},
      {"missing mesh file", replace(kBoxCase, "  box: {size: [2, 1, 1], divisions: [4, 2, 2]}", "  msh: nowhere.msh"),
       "nowhere.msh"},
      {"unknown group", replace(kBoxCase, "group: xmax", "group: tip"), "group 'tip' is not in the mesh"},
      {"material missing for a region", replace(kBoxCase, "group: box, E", "group: xmin, E"), "region of the mesh's dimension"},
      {"no Dirichlet condition", replace(kBoxCase, "  - {group: xmin, fix: [x, y, z]}\n", ""), "rigid-body motion"},
      {"not YAML", replace(kBoxCase, "title: small box", "title: [unclosed"), "box.yaml:"},
      {"bad solver", replace(kBoxCase, "method: cg", "method: magic"), "box.yaml:17: 'method' is 'magic'"},
      {"bad amg smoother", replace(kBoxCase, "  tolerance: 1e-12", "  tolerance: 1e-12\n  amg: {smoother: gauss-seidel}"),
       "box.yaml:20: 'smoother' is 'gauss-seidel'"},
      {"bad amg precision", replace(kBoxCase, "  tolerance: 1e-12", "  tolerance: 1e-12\n  amg: {precision: half}"),
       "box.yaml:20: 'precision' is 'half'"},
  };
  for (const auto& b : bad) {
    CAPTURE(b.what);
    const auto file = dir.write("box.yaml", b.text);
    const auto message = run_expecting_error(file);
    CAPTURE(message);
    CHECK(message.find(b.expected) != std::string::npos);
    CHECK(slurp(dir.path / "results/box.json") == before);
  }
}

namespace {

// Two tetrahedra sharing a face, in regions "part" and "other" (separate entities, since Gmsh attaches
// physical groups to entities); `second` lists the second one's nodes.
std::string two_tet_msh(const std::string& second) {
  return R"($MeshFormat
2.2 0 8
$EndMeshFormat
$PhysicalNames
3
2 1 "face"
3 2 "part"
3 3 "other"
$EndPhysicalNames
$Nodes
5
1 0 0 0
2 1 0 0
3 0 1 0
4 0 0 1
5 1 1 1
$EndNodes
$Elements
3
1 2 2 1 1 1 2 3
2 4 2 2 1 1 2 3 4
3 4 2 3 2 )" + second + R"(
$EndElements
)";
}

const char* kTwoTetCase = R"(mesh:
  msh: two.msh
physics: {type: elasticity, model: 3d}
materials: [{group: part, E: 1, nu: 0.3}, {group: other, E: 2, nu: 0.3}]
boundary: [{group: face, fix: [x, y, z]}]
)";

}  // namespace

TEST_CASE("an inverted element in a mesh file is reported with its tag in the file and its group") {
#if FEM_WITH_GMSH
  TempDir dir;
  dir.write("two.msh", two_tet_msh("3 2 4 5"));  // negative volume
  const auto message = run_expecting_error(dir.write("two.yaml", kTwoTetCase));
  CHECK(message.find("element 3 (tet4, group 'other')") != std::string::npos);
  CHECK(message.find("inverted") != std::string::npos);
#endif
}

TEST_CASE("a region without a material is named") {
#if FEM_WITH_GMSH
  TempDir dir;
  dir.write("two.msh", two_tet_msh("2 3 4 5"));
  std::ostringstream log;
  CHECK_NOTHROW(run_case(dir.write("two.yaml", kTwoTetCase), {}, log));
  const auto message = run_expecting_error(dir.write("two.yaml", replace(kTwoTetCase, ", {group: other, E: 2, nu: 0.3}", "")));
  CHECK(message.find("no material for region 'other'") != std::string::npos);
#endif
}

TEST_CASE("the fem command exits non-zero with the message on bad input") {
  TempDir dir;
  const auto file = dir.write("box.yaml", replace(kBoxCase, "group: xmax", "group: tip"));
  const std::string command = std::string(FEM_EXECUTABLE) + " run " + file.string() + " > " + (dir.path / "out.txt").string() +
                              " 2> " + (dir.path / "err.txt").string();
  const int status = std::system(command.c_str());
  CHECK(status != 0);
  CHECK(slurp(dir.path / "err.txt").find("group 'tip'") != std::string::npos);
  CHECK(std::system((std::string(FEM_EXECUTABLE) + " --version > /dev/null").c_str()) == 0);
}

TEST_CASE("fem renumber compares every method and the chosen one reduces the profile") {
  TempDir dir;
  const auto file = dir.write("box.yaml", kBoxCase);
  std::ostringstream log;
  renumber_report(file, {}, {}, log);
  const auto csv = slurp(dir.path / "results/box-renumber.csv");
  for (const char* method : {"none,", "rcm,", "gps,", "sloan,"}) CHECK(csv.find(std::string("\n") + method) != std::string::npos);
  CHECK(log.str().find("sloan") != std::string::npos);
}

TEST_CASE("numbers in tables and progress lines read as people write them") {
  CHECK(fem::with_commas(0) == "0");
  CHECK(fem::with_commas(999) == "999");
  CHECK(fem::with_commas(1000) == "1,000");
  CHECK(fem::with_commas(1234567) == "1,234,567");
  CHECK(fem::with_commas(-999) == "-999");
  CHECK(fem::with_commas(-1000) == "-1,000");
  CHECK(fem::with_commas(-123456) == "-123,456");
  CHECK(fem::with_commas(std::numeric_limits<long long>::min()) == "-9,223,372,036,854,775,808");
  CHECK(fem::human_bytes(3.5e9) == "3.3 GiB");
}
