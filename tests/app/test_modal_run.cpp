// `fem run` on a modal case: the mode table, the JSON (frequencies_hz, eigenvalues, residuals,
// effective masses), mode_1 ... mode_N in the .vtu normalised to 1, the view warped by mode 1,
// and the modal checks of the case file.
#include <doctest/doctest.h>

#include <cmath>
#include <sstream>

#include "fem/app/run_command.hpp"
#include "fem/config.hpp"
#include "tests/app/app_test_support.hpp"
#include "tests/app/run_expecting_error.hpp"

#if FEM_WITH_VTK
#include <vtkDataArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLUnstructuredGridReader.h>
#endif

using namespace fem;
using fem::test::slurp;
using fem::test::TempDir;

using fem::test::run_expecting_error_of_text;

namespace {

// A free block: nothing holds it, so its six rigid-body modes come first.
const char* kFreeBlock = R"(title: free block
mesh:
  box: {size: [1, 0.6, 0.4], divisions: [4, 3, 2]}
  element: hex
physics: {type: elasticity, model: 3d}
materials:
  - {E: 200e9, nu: 0.3, density: 7800}
analysis: {type: modal, modes: 8}
solver: {method: band-cholesky}
)";

}  // namespace

TEST_CASE("a modal run of a free block prints its modes and writes frequencies and mode shapes") {
  TempDir dir;
  const auto file = dir.write("block.yaml", kFreeBlock);
  std::ostringstream log;
  const auto summary = run_case(file, {}, log);
  CHECK(log.str().find("frequency [Hz]") != std::string::npos);
  const auto json = nlohmann::json::parse(slurp(dir.path / "results/block.json"));
  CHECK(json["analysis"] == "modal");
  const auto f = json["frequencies_hz"].get<std::vector<double>>();
  REQUIRE(f.size() == 8);
  for (int i = 0; i < 6; ++i) CHECK(f[i] < 1e-4 * f[6]);
  CHECK(f[6] > 100);
  const auto lambda = json["eigenvalues"].get<std::vector<double>>();
  CHECK(std::sqrt(lambda[7]) / (2 * M_PI) == doctest::Approx(f[7]).epsilon(1e-12));
  for (double r : json["mode_residuals"].get<std::vector<double>>()) CHECK(r < 1e-6);
  CHECK(json["total_mass"].get<double>() == doctest::Approx(7800 * 0.24).epsilon(1e-12));
  CHECK(json["effective_masses"].size() == 8);
#if FEM_WITH_VTK  // the view script goes with the .vtu it shows
  CHECK(slurp(dir.path / "results/block-view.py").find("WARP_FIELD = 'mode_1'") != std::string::npos);
  vtkNew<vtkXMLUnstructuredGridReader> reader;
  reader->SetFileName((dir.path / "results/block.vtu").c_str());
  reader->Update();
  for (int i = 1; i <= 8; ++i) {
    auto* mode = reader->GetOutput()->GetPointData()->GetArray(("mode_" + std::to_string(i)).c_str());
    REQUIRE(mode != nullptr);
    double largest = 0;
    for (vtkIdType p = 0; p < mode->GetNumberOfTuples(); ++p) {
      const double* u = mode->GetTuple3(p);
      largest = std::max(largest, std::sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]));
    }
    CHECK(largest == doctest::Approx(1.0).epsilon(1e-12));
  }
  CHECK(reader->GetOutput()->GetPointData()->GetArray("displacement") == nullptr);
#endif
}

TEST_CASE("a modal case is checked: density on every material, elasticity only, a sensible shift") {
  const std::string block = kFreeBlock;
  const auto replaced = [&](const std::string& from, const std::string& to) {
    std::string text = block;
    return text.replace(text.find(from), from.size(), to);
  };
  CHECK(run_expecting_error_of_text(replaced(", density: 7800", "")).find("case.yaml:7: a modal analysis needs a 'density'") != std::string::npos);
  const std::string heat = run_expecting_error_of_text(replaced("physics: {type: elasticity, model: 3d}\nmaterials:\n  - {E: 200e9, nu: 0.3, density: 7800}",
                                             "physics: {type: heat}\nmaterials:\n  - {k: 45}"));
  CHECK(heat.find("case.yaml:8: a modal analysis needs elasticity physics") != std::string::npos);
  // Above the lowest frequency, K - sigma M is indefinite and Cholesky refuses it.
  CHECK(run_expecting_error_of_text(replaced("modes: 8}", "modes: 8, shift: 5000}")).find("lower analysis.shift") != std::string::npos);
}

TEST_CASE("analysis.method: slepc gives the free block's modes of Lanczos, or says how to build it") {
  TempDir dir;
  std::string text = kFreeBlock;
  text.replace(text.find("modes: 8}"), 9, "modes: 8, method: slepc}");
  const auto file = dir.write("block.yaml", text);
  if (!FEM_WITH_SLEPC) {
    CHECK(run_expecting_error_of_text(text).find("configure with -DFEM_WITH_SLEPC=ON") != std::string::npos);
    return;
  }
  std::ostringstream log;
  run_case(file, {}, log);
  CHECK(log.str().find("SLEPc Krylov-Schur, MUMPS shift-invert") != std::string::npos);
  const auto slepc = nlohmann::json::parse(slurp(dir.path / "results/block.json"));
  CHECK(slepc["eigen_solver"]["method"] == "slepc-krylov-schur");
  CHECK(slepc["solver"] == "slepc-krylov-schur");
  RunOverrides lanczos;
  lanczos.settings = {"analysis.method=lanczos"};
  std::ostringstream lanczos_log;
  run_case(file, lanczos, lanczos_log);
  const auto reference = nlohmann::json::parse(slurp(dir.path / "results/block.json"));
  const auto f = slepc["frequencies_hz"].get<std::vector<double>>(), r = reference["frequencies_hz"].get<std::vector<double>>();
  REQUIRE(f.size() == 8);
  for (int i = 0; i < 6; ++i) CHECK(f[i] < 1e-4 * f[6]);
  for (int i = 6; i < 8; ++i) CHECK(std::abs(f[i] - r[i]) <= 1e-8 * r[i]);
  for (double residual : slepc["mode_residuals"].get<std::vector<double>>()) CHECK(residual < 1e-6);
  // The participation factors need M-orthonormal modes: the effective masses of the six
  // rigid-body modes sum to the mass in each direction.
  double mass_x = 0;
  for (const auto& m : slepc["effective_masses"]) mass_x += m[0].get<double>();
  CHECK(mass_x == doctest::Approx(slepc["total_mass"].get<double>()).epsilon(1e-8));
}
