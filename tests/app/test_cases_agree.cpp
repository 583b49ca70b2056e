// Every solver gives the same answer on every ready-made case in cases/ (the large box aside):
// every eigen method the same lowest 10 frequencies to 1e-8 on every elasticity case made modal;
// the direct solvers (the multifrontal one where METIS is built) and the frontal method, on the
// CPU and on OpenCL where it runs, to 1e-10 of
// band Cholesky's nodal values; CG and BiCGSTAB, driven to a strict residual, to 1e-8.
#include <doctest/doctest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "fem/config.hpp"
#include "fem/study/combination.hpp"
#include "fem/study/compare_case.hpp"

using namespace fem;
using namespace fem::study;
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kCases = {"box", "cantilever", "plate_hole", "bracket", "fin", "heat_box"};

// Rows of `solvers` on a case; unavailable rows (no OpenCL platform) are allowed, every other
// row must have solved and agree with the first within `tolerance`.
void check_agreement(const std::string& name, const std::string& solvers, double tolerance,
                     const RunOverrides& overrides = {}) {
  CompareSettings settings;
  settings.combinations = parse_combinations(solvers);
  settings.tolerance = tolerance;
  std::ostringstream log;
  const fs::path file = fs::path(FEM_TEST_DATA_DIR) / "cases" / (name + ".yaml");
  const StudyResult result = compare_case(file, overrides, settings, "fem compare (test)", log);
  REQUIRE(result.rows.size() == settings.combinations.size());
  CHECK(result.rows[0].status == RowStatus::Ok);
  for (const auto& row : result.rows) {
    CAPTURE(name);
    CAPTURE(row.combination());
    if (row.status == RowStatus::Unavailable) continue;
    REQUIRE(row.status == RowStatus::Ok);
    REQUIRE(row.max_rel_diff.has_value());
    CAPTURE(*row.max_rel_diff);
    CHECK(*row.max_rel_diff <= tolerance);
  }
}

}  // namespace

TEST_CASE("every eigen method agrees to 1e-8 in the lowest 10 frequencies on every elasticity case") {
  // The static cases become modal ones (their loads are ignored); the bracket has its modal twin.
  // hot_end_bar is heated_bar's mesh under a solved temperature, which fem compare does not take.
  RunOverrides modal;
  modal.settings = {"materials.0.density=7800", "analysis={type: modal, modes: 10}"};
  const std::string rows = "lanczos:cpu:multifrontal,lanczos:cpu:band-cholesky,lobpcg:cpu:amg,slepc:cpu";
  for (const char* name : {"box", "cantilever", "plate_hole", "thick_cylinder_axisym", "heated_bar"}) {
    if (!FEM_WITH_GMSH && std::string(name) != "box") continue;
    check_agreement(name, rows, 1e-8, modal);
  }
  if (FEM_WITH_GMSH) check_agreement("bracket_modal", rows, 1e-8);
}

TEST_CASE("direct and frontal solvers agree to 1e-10 on every case") {
  for (const auto& name : kCases) {
    if (!FEM_WITH_GMSH && name != "box") continue;  // the other cases are meshed by Gmsh
    check_agreement(name, "band-cholesky:cpu,band-ldlt:cpu,band-gauss:cpu,frontal:cpu,frontal:opencl,multifrontal:cpu,mumps:cpu", 1e-10);
  }
}

TEST_CASE("Krylov solvers driven to a strict residual agree with band Cholesky on every case") {
  RunOverrides strict;
  strict.tolerance = 1e-14;
  strict.preconditioner = "jacobi";
  for (const auto& name : kCases) {
    if (!FEM_WITH_GMSH && name != "box") continue;
    check_agreement(name, "band-cholesky:cpu,cg:cpu,bicgstab:cpu,petsc:cpu", 1e-8, strict);
  }
}
