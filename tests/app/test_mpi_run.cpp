// fem under mpirun with the PETSc solvers: 1 to 4 ranks reproduce the one-process band
// Cholesky answer to 1e-8 (relative to the largest value; von Mises too) on a 3D elasticity box, a
// 2D one and a heat box, which run on blocks of the box (no rank holding the whole mesh; 4 ranks cut the
// 3D box along two axes): the summary's
// sizes, reactions, applied loads and extremes those of one process, every piece's copies of its
// neighbours' nodes their owners' values; the .pvtu reads back through VTK with every mesh node
// once (the copies of a node in other pieces are marked as duplicates); 8 ranks on a small box
// of a cube hold their 2 x 2 x 2 block and one ghost layer each; a Gmsh mesh takes the whole-mesh route and says so;
// bad input met by one rank ends a 2-rank run with exit 1 and the message, in seconds; our own
// solvers refuse to run on several ranks; a modal run by SLEPc on 2 ranks gives the frequencies
// of one.
#include <doctest/doctest.h>

#include <sys/wait.h>

#include <array>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <vtkDataArray.h>
#include <vtkDataSetAttributes.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLPUnstructuredGridReader.h>
#include <vtkXMLUnstructuredGridReader.h>

#include "fem/config.hpp"
#include "tests/app/app_test_support.hpp"
#include "support/stopwatch.hpp"

using fem::test::slurp;
using fem::test::TempDir;
namespace fs = std::filesystem;

namespace {

const char* kElasticity3D = R"(title: 3D box
mesh: {box: {size: [2, 1, 1], divisions: [8, 4, 4]}, element: hex, order: 1}
physics: {type: elasticity, model: 3d}
materials: [{group: box, E: 210e9, nu: 0.3, density: 7850}]
boundary:
  - {group: xmin, fix: [x, y, z]}
  - {group: zmax, pressure: 1e6}
  - {group: xmax, traction: [0, 2e5, 0]}
loads: {gravity: [0, 0, -9.81]}
)";

const char* kElasticity2D = R"(title: 2D plate
mesh: {box: {size: [4, 1], divisions: [16, 4]}, element: quad, order: 2}
physics: {type: elasticity, model: plane_stress, thickness: 0.1}
materials: [{group: box, E: 70e9, nu: 0.33}]
boundary:
  - {group: xmin, fix: [x, y]}
  - {group: xmax, traction: [1e6, -2e5]}
)";

const char* kHeat = R"(title: heat box
mesh: {box: {size: [1, 0.5, 0.2], divisions: [8, 4, 2]}, element: tet, order: 2}
physics: {type: heat}
materials: [{group: box, k: 45}]
boundary:
  - {group: xmin, temperature: 100}
  - {group: xmax, convection: {h: 25, T_inf: 20}}
loads: {source: 1e4}
)";

struct Command {
  int exit_code = -1;
  std::string output;
  double seconds = 0;
};

Command run(const std::string& command, const fs::path& log) {
  const fem::Stopwatch running;
  const int status = std::system((command + " > " + log.string() + " 2>&1").c_str());
  Command c;
  c.seconds = running.seconds();
  c.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  c.output = slurp(log);
  return c;
}

// fem on `ranks` processes (as root in CI, more ranks than cores here). Containers often forbid
// the cross-process memory copy Open MPI's shared-memory transport tries first: ask for none.
Command run_fem(int ranks, const std::string& arguments, const fs::path& log) {
  return run(std::string("OMPI_MCA_btl_vader_single_copy_mechanism=none timeout 60 ") + FEM_MPIEXEC +
                 " --allow-run-as-root --oversubscribe -n " + std::to_string(ranks) + " " + FEM_EXECUTABLE + " " + arguments,
             log);
}

using Point = std::array<double, 3>;

// The values of `field` at each point the file owns (ghost-marked duplicates left out unless
// `duplicates_too`), by position; counts a position seen twice in `repeated`.
std::map<Point, std::vector<double>> owned_values(vtkUnstructuredGrid* grid, const char* field, int& repeated,
                                                  bool duplicates_too = false) {
  std::map<Point, std::vector<double>> values;
  vtkDataArray* array = grid->GetPointData()->GetArray(field);
  REQUIRE(array != nullptr);
  vtkDataArray* ghosts = grid->GetPointData()->GetArray(vtkDataSetAttributes::GhostArrayName());
  for (vtkIdType i = 0; i < grid->GetNumberOfPoints(); ++i) {
    if (ghosts && ghosts->GetComponent(i, 0) != 0 && !duplicates_too) continue;
    Point x;
    grid->GetPoint(i, x.data());
    std::vector<double> v(static_cast<std::size_t>(array->GetNumberOfComponents()));
    for (int k = 0; k < array->GetNumberOfComponents(); ++k) v[k] = array->GetComponent(i, k);
    if (!values.emplace(x, v).second) ++repeated;
  }
  return values;
}

std::map<Point, std::vector<double>> read_results(const fs::path& file, const char* field, int& repeated) {
  if (file.extension() == ".pvtu") {
    vtkNew<vtkXMLPUnstructuredGridReader> reader;
    reader->SetFileName(file.c_str());
    reader->Update();
    return owned_values(reader->GetOutput(), field, repeated);
  }
  vtkNew<vtkXMLUnstructuredGridReader> reader;
  reader->SetFileName(file.c_str());
  reader->Update();
  return owned_values(reader->GetOutput(), field, repeated);
}

// Every point of one piece, the copies of other pieces' nodes too.
std::map<Point, std::vector<double>> piece_values(const fs::path& file, const char* field) {
  vtkNew<vtkXMLUnstructuredGridReader> reader;
  reader->SetFileName(file.c_str());
  reader->Update();
  int repeated = 0;
  return owned_values(reader->GetOutput(), field, repeated, true);
}


// The largest difference of `values` from the reference at the same points, relative to the
// reference's largest value.
double relative_difference(const std::map<Point, std::vector<double>>& values,
                           const std::map<Point, std::vector<double>>& reference) {
  double largest = 0, worst = 0;
  for (const auto& [x, v] : reference)
    for (double value : v) largest = std::max(largest, std::abs(value));
  REQUIRE(largest > 0);
  for (const auto& [x, v] : values) {
    const auto it = reference.find(x);
    REQUIRE(it != reference.end());
    for (std::size_t k = 0; k < v.size(); ++k) worst = std::max(worst, std::abs(v[k] - it->second[k]));
  }
  return worst / largest;
}

void check_ranks_reproduce_band_cholesky(const char* case_text, const char* field, const std::string& method) {
  TempDir dir;
  const fs::path file = dir.write("part.yaml", case_text);
  const Command serial = run(std::string(FEM_EXECUTABLE) + " run " + file.string() + " --solver band-cholesky --output " +
                                 (dir.path / "reference").string(),
                             dir.path / "reference.log");
  REQUIRE_MESSAGE(serial.exit_code == 0, serial.output);
  int repeated = 0;
  const auto reference = read_results(dir.path / "reference/part.vtu", field, repeated);
  REQUIRE(repeated == 0);

  for (int ranks : {1, 2, 3, 4}) {
    CAPTURE(ranks);
    const fs::path out = dir.path / ("ranks" + std::to_string(ranks));
    const Command parallel = run_fem(ranks, "run " + file.string() + " --solver " + method + " --tolerance 1e-13 --output " + out.string(),
                                     dir.path / "parallel.log");
    REQUIRE_MESSAGE(parallel.exit_code == 0, parallel.output);
    const auto results = read_results(out / (ranks == 1 ? "part.vtu" : "part.pvtu"), field, repeated);
    CHECK(repeated == 0);  // every node once among the points the pieces own
    REQUIRE(results.size() == reference.size());
    CHECK(relative_difference(results, reference) <= 1e-8);
    if (std::string(field) == "displacement") {  // the recovered stresses, averaged at the nodes across the pieces
      const auto von_mises = read_results(out / (ranks == 1 ? "part.vtu" : "part.pvtu"), "von_mises", repeated);
      CHECK(relative_difference(von_mises, read_results(dir.path / "reference/part.vtu", "von_mises", repeated)) <= 1e-8);
    }

    const auto summary = nlohmann::json::parse(slurp(out / "part.json"));
    CHECK(summary["ranks"] == ranks);
    std::int64_t equations = 0;
    for (const auto& count : summary["equations_per_rank"]) {
      CHECK(count.get<std::int64_t>() > 0);
      equations += count.get<std::int64_t>();
    }
    CHECK(equations == summary["dofs"].get<std::int64_t>());
    CHECK(summary["converged_reason"].get<std::string>().rfind("CONVERGED", 0) == 0);
    CHECK(summary.contains("time_pcsetup_s"));
    CHECK(summary.contains("time_kspsolve_s"));
    if (ranks > 1) CHECK(fs::exists(out / ("part_" + std::to_string(ranks - 1) + ".vtu")));
    if (ranks > 1)  // the write line counts every rank's piece, with no terminal escapes in the log
      CHECK(parallel.output.find("and the pieces of ranks 1 to " + std::to_string(ranks - 1)) != std::string::npos);
    CHECK(parallel.output.find("\033[") == std::string::npos);
    if (ranks > 1) {  // the box made in blocks, one per rank, and the summary's figures those of one process
      CHECK(parallel.output.find("each making its own block of the box") != std::string::npos);
      const auto one = nlohmann::json::parse(slurp(dir.path / "reference/part.json"));
      CHECK(summary["nodes"] == one["nodes"]);
      CHECK(summary["elements"] == one["elements"]);
      CHECK(summary["nnz"] == one["nnz"]);
      for (const auto& [group, reaction] : one["reactions"].items()) {
        CAPTURE(group);
        const auto expected = reaction.is_array() ? reaction.get<std::vector<double>>() : std::vector<double>{reaction.get<double>()};
        const auto got = summary["reactions"][group].is_array() ? summary["reactions"][group].get<std::vector<double>>()
                                                                 : std::vector<double>{summary["reactions"][group].get<double>()};
        double scale = 0;
        for (double f : expected) scale = std::max(scale, std::abs(f));
        for (std::size_t k = 0; k < expected.size(); ++k) CHECK(std::abs(got[k] - expected[k]) <= 1e-8 * scale);
      }
      if (one.contains("applied_total")) {  // each load counted by one rank alone
        for (const char* part : {"force", "moment"}) {
          CAPTURE(part);
          const auto expected = one["applied_total"][part].get<std::vector<double>>();
          const auto got = summary["applied_total"][part].get<std::vector<double>>();
          double scale = 0;
          for (double f : expected) scale = std::max(scale, std::abs(f));
          for (std::size_t k = 0; k < 3; ++k) CHECK(std::abs(got[k] - expected[k]) <= 1e-8 * scale);
        }
        CHECK(summary["balance"].get<double>() < 1e-8);
      }
      for (const char* key : {"max_displacement", "max_von_mises"})
        if (one.contains(key)) CHECK(std::abs(summary[key].get<double>() - one[key].get<double>()) <= 1e-8 * one[key].get<double>());
      CHECK(summary["peak_memory_bytes_per_rank"].size() == static_cast<std::size_t>(ranks));
      CHECK(summary["time_spread_s"].contains("solve"));
      // Each piece's copies of its neighbours' nodes hold their owners' values.
      for (int r = 0; r < ranks; ++r) {
        const fs::path piece = out / ("part_" + std::to_string(r) + ".vtu");
        CHECK(relative_difference(piece_values(piece, field), reference) <= 1e-8);
      }
    }
  }
}

// A strip of 8 x 2 quads whose last cell, when `crossed`, is a bow tie (two nodes swapped): only
// the rank that assembles that cell meets it.
std::string strip_with_a_crossed_quad(bool crossed_last = true) {
  std::string msh = "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$PhysicalNames\n2\n1 1 \"left\"\n2 2 \"strip\"\n$EndPhysicalNames\n";
  msh += "$Nodes\n27\n";
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 9; ++i) msh += std::to_string(j * 9 + i + 1) + " " + std::to_string(i) + " " + std::to_string(j) + " 0\n";
  msh += "$EndNodes\n$Elements\n18\n1 1 2 1 1 1 10\n2 1 2 1 1 10 19\n";
  int id = 3;
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i < 8; ++i) {
      const int a = j * 9 + i + 1, b = a + 1, c = a + 10, d = a + 9;
      const bool crossed = crossed_last && i == 7 && j == 1;
      msh += std::to_string(id++) + " 3 2 2 1 " + std::to_string(a) + " " + std::to_string(b) + " " +
             std::to_string(crossed ? d : c) + " " + std::to_string(crossed ? c : d) + "\n";
    }
  return msh + "$EndElements\n";
}

// The case of those strips (strip.msh beside it): plane stress under gravity, left edge held.
std::string strip_case(const std::string& title) {
  return "title: " + title + R"(
mesh: {msh: strip.msh}
physics: {type: elasticity, model: plane_stress}
materials: [{group: strip, E: 70e9, nu: 0.3, density: 2700}]
boundary: [{group: left, fix: [x, y]}]
loads: {gravity: [0, -9.81]}
)";
}

}  // namespace

TEST_CASE("1 to 4 ranks reproduce band Cholesky on 3D elasticity (petsc: CG + GAMG)") {
  check_ranks_reproduce_band_cholesky(kElasticity3D, "displacement", "petsc");
}

TEST_CASE("1 to 4 ranks reproduce band Cholesky on 2D elasticity (mumps)") {
  check_ranks_reproduce_band_cholesky(kElasticity2D, "displacement", "mumps");
}

TEST_CASE("1 to 4 ranks reproduce band Cholesky on heat (petsc)") {
  check_ranks_reproduce_band_cholesky(kHeat, "temperature", "petsc");
}

// 8 ranks on a cube of 4 x 4 x 4 cells: each rank makes its 2 x 2 x 2 block and the ghost layer
// before it along each axis it does not start at 0 on, never the whole box, and the equations add
// up to the box's.
TEST_CASE("8 ranks each hold their block and one ghost layer of a small box, never the whole of it") {
  TempDir dir;
  const fs::path file = dir.write("blocks.yaml", R"(title: blocks
mesh: {box: {size: [1, 1, 1], divisions: [4, 4, 4]}, element: hex, order: 2}
physics: {type: elasticity, model: 3d}
materials: [{group: box, E: 210e9, nu: 0.3}]
boundary:
  - {group: ymin, fix: [x, y, z]}
  - {group: ymax, traction: [0, 0, -1e5]}
)");
  const Command parallel = run_fem(8, "run " + file.string() + " --solver petsc --output " + (dir.path / "out").string(),
                                   dir.path / "log");
  REQUIRE_MESSAGE(parallel.exit_code == 0, parallel.output);
  CHECK(parallel.output.find("2 x 2 x 2 blocks") != std::string::npos);
  const auto summary = nlohmann::json::parse(slurp(dir.path / "out/blocks.json"));
  REQUIRE(summary["elements"].get<std::int64_t>() == 4 * 4 * 4);
  REQUIRE(summary["cells_per_rank"].size() == 8);
  for (std::size_t r = 0; r < 8; ++r) {
    CAPTURE(r);
    const std::int64_t x = 2 + (r % 2 ? 1 : 0), y = 2 + (r / 2 % 2 ? 1 : 0), z = 2 + (r / 4 ? 1 : 0);
    CHECK(summary["cells_per_rank"][r].get<std::int64_t>() == x * y * z);
    CHECK(summary["peak_memory_bytes_per_rank"][r].get<std::int64_t>() > 0);
  }
  std::int64_t equations = 0;
  for (const auto& count : summary["equations_per_rank"]) equations += count.get<std::int64_t>();
  CHECK(equations == summary["dofs"].get<std::int64_t>());
  CHECK(summary["dofs"].get<std::int64_t>() == 3 * summary["nodes"].get<std::int64_t>());
  CHECK(fs::exists(dir.path / "out/blocks_7.vtu"));

  // A rank count no grid of blocks fits: refused by name, on every rank, with exit 1.
  const Command refused = run_fem(3, "run " + file.string() + " --solver petsc --set mesh.box.divisions=[2,2,2] --output " +
                                         (dir.path / "refused").string(),
                                  dir.path / "refused.log");
  CHECK(refused.exit_code == 1);
  CHECK(refused.output.find("3 ranks cannot each take a block of the box's 2 x 2 x 2 cells") != std::string::npos);
}

TEST_CASE("our own solvers refuse to run on several ranks and name petsc and mumps") {
  TempDir dir;
  const fs::path file = dir.write("part.yaml", kElasticity3D);
  const Command refused = run_fem(2, "run " + file.string() + " --solver cg", dir.path / "log");
  CHECK(refused.exit_code == 1);
  CHECK(refused.output.find("--solver petsc or --solver mumps") != std::string::npos);
  CHECK_FALSE(fs::exists(dir.path / "results"));
}

// The crossed cell is met when the mesh is read, which every rank does before the partition: each
// names it by the file's element tag, and the run ends with exit 1 on every rank.
TEST_CASE("a bad cell ends a 2-rank run with exit 1 and the message, in seconds") {
  if (!FEM_WITH_GMSH) return;  // the mesh comes as a .msh file
  TempDir dir;
  dir.write("strip.msh", strip_with_a_crossed_quad());
  const fs::path file = dir.write("strip.yaml", strip_case("strip with a bad cell"));
  const Command failed = run_fem(2, "run " + file.string() + " --solver petsc", dir.path / "log");
  CAPTURE(failed.output);
  CHECK(failed.exit_code == 1);
  CHECK(failed.seconds < 20);
  CHECK(failed.output.find("strip.msh: element 18 (quad4, group 'strip') is inverted") != std::string::npos);
  CHECK(failed.output.find("each building the whole mesh (a Gmsh mesh") != std::string::npos);
  CHECK_FALSE(fs::exists(dir.path / "results"));
}

TEST_CASE("a Gmsh mesh on 2 ranks takes the whole-mesh route, says so, and gives each rank's memory and cells") {
  if (!FEM_WITH_GMSH) return;  // the mesh comes as a .msh file
  TempDir dir;
  dir.write("strip.msh", strip_with_a_crossed_quad(false));
  const fs::path file = dir.write("strip.yaml", strip_case("strip"));
  const Command two = run_fem(2, "run " + file.string() + " --solver petsc --output " + (dir.path / "out").string(), dir.path / "log");
  REQUIRE_MESSAGE(two.exit_code == 0, two.output);
  CHECK(two.output.find("2 ranks, each building the whole mesh (a Gmsh mesh") != std::string::npos);
  const auto summary = nlohmann::json::parse(slurp(dir.path / "out/strip.json"));
  CHECK(summary["mesh_distribution"] == "whole mesh on every rank");
  REQUIRE(summary["peak_memory_bytes_per_rank"].size() == 2);
  std::int64_t cells = 0;
  for (const auto& count : summary["cells_per_rank"]) cells += count.get<std::int64_t>();
  CHECK(cells == 16);  // each cell assembled by one rank
}

TEST_CASE("a modal run by SLEPc on 2 ranks gives the frequencies of 1 rank and of Lanczos; other eigen methods refuse") {
  if (!FEM_WITH_SLEPC) return;  // analysis.method: slepc is unavailable, which test_modal_run checks
  TempDir dir;
  const fs::path file = dir.write("modal.yaml", std::string(kElasticity3D) + "analysis: {type: modal, modes: 10, method: slepc}\n");
  const auto frequencies = [&](const fs::path& out) {
    return nlohmann::json::parse(slurp(out / "modal.json"))["frequencies_hz"].get<std::vector<double>>();
  };
  const Command lanczos = run(std::string(FEM_EXECUTABLE) + " run " + file.string() +
                                  " --set analysis.method=lanczos --solver band-cholesky --output " + (dir.path / "lanczos").string(),
                              dir.path / "lanczos.log");
  REQUIRE_MESSAGE(lanczos.exit_code == 0, lanczos.output);
  const Command one = run(std::string(FEM_EXECUTABLE) + " run " + file.string() + " --output " + (dir.path / "one").string(),
                          dir.path / "one.log");
  REQUIRE_MESSAGE(one.exit_code == 0, one.output);
  const Command two = run_fem(2, "run " + file.string() + " --output " + (dir.path / "two").string(), dir.path / "two.log");
  REQUIRE_MESSAGE(two.exit_code == 0, two.output);
  const auto reference = frequencies(dir.path / "lanczos"), f1 = frequencies(dir.path / "one"), f2 = frequencies(dir.path / "two");
  REQUIRE(f1.size() == 10);
  REQUIRE(f2.size() == 10);
  for (std::size_t i = 0; i < 10; ++i) {
    CAPTURE(i);
    CHECK(std::abs(f2[i] - f1[i]) <= 1e-8 * f1[i]);
    CHECK(std::abs(f1[i] - reference[i]) <= 1e-8 * reference[i]);
  }
  CHECK(nlohmann::json::parse(slurp(dir.path / "two/modal.json"))["ranks"] == 2);
  CHECK(fs::exists(dir.path / "two/modal.vtu"));

  const Command refused = run_fem(2, "run " + file.string() + " --set analysis.method=lanczos --solver mumps", dir.path / "refused.log");
  CHECK(refused.exit_code == 1);
  CHECK(refused.output.find("analysis.method: slepc only") != std::string::npos);
}
