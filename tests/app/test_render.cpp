// `fem run` leaves a ParaView script beside its results, and `fem render` turns it into a
// picture that is not blank. Skipped (with a message) where ParaView is not installed; CI
// installs it (scripts/install-deps.sh).
#include <doctest/doctest.h>

#include <unistd.h>

#include <set>
#include <sstream>

#include "fem/app/render_command.hpp"
#include "fem/app/run_command.hpp"
#include "fem/config.hpp"
#include "fem/output/external_command.hpp"
#include "tests/app/app_test_support.hpp"

#if FEM_WITH_VTK
#include <vtkDataArray.h>
#include <vtkImageData.h>
#include <vtkNew.h>
#include <vtkPNGReader.h>
#include <vtkPointData.h>
#endif

using namespace fem;
using fem::test::slurp;
using fem::test::TempDir;
namespace fs = std::filesystem;

#if FEM_WITH_VTK
namespace {

const std::string kBeam = fem::test::cantilever_case("beam for the picture", "{size: [4, 1, 1], divisions: [8, 2, 2]}",
                                                     "-1e7", "  method: band-cholesky\n");

}  // namespace

TEST_CASE("fem run leaves a ParaView script that deforms and colours the results") {
  TempDir dir;
  const auto file = dir.write("beam.yaml", kBeam);
  std::ostringstream log;
  run_case(file, {}, log);
  const std::string script = slurp(dir.path / "results/beam-view.py");
  CHECK(script.find("RESULTS = 'beam.vtu'") != std::string::npos);
  CHECK(script.find("FIELD = 'von_mises'") != std::string::npos);
  CHECK(script.find("WARP = True") != std::string::npos);
  CHECK(script.find("SetScalarBarVisibility") != std::string::npos);
  CHECK(script.find("pvbatch beam-view.py --png") != std::string::npos);  // its final name, not the temporary one
  CHECK(script.find("partial") == std::string::npos);
  CHECK(script.find("LABEL = 'von Mises stress [Pa]'") != std::string::npos);
}

TEST_CASE("fem render draws the results offscreen, and the picture is not blank") {
  if (!on_path("pvbatch") && !on_path("pvpython") && !std::getenv("FEM_PVBATCH")) {
    MESSAGE("skipped: no pvbatch or pvpython here (Debian: paraview; scripts/install-deps.sh installs it)");
    return;
  }
  TempDir dir;
  const auto file = dir.write("beam.yaml", kBeam);
  std::ostringstream log;
  CHECK_THROWS_WITH(render_case(file, {}, {}, log), doctest::Contains("run `fem run"));
  run_case(file, {}, log);
  const fs::path png = render_case(file, {}, {}, log);
  REQUIRE(png == dir.path / "results/beam.png");
  REQUIRE(fs::exists(png));

  vtkNew<vtkPNGReader> reader;
  reader->SetFileName(png.c_str());
  reader->Update();
  vtkImageData* image = reader->GetOutput();
  int size[3];
  image->GetDimensions(size);
  CHECK(size[0] == 1280);
  CHECK(size[1] == 800);
  // Not blank: many pixels differ from the background (a corner), in many colours (the colour map).
  auto* pixels = image->GetPointData()->GetScalars();
  const int channels = pixels->GetNumberOfComponents();
  REQUIRE(channels >= 3);
  const auto colour = [&](vtkIdType i) {
    return (int(pixels->GetComponent(i, 0)) << 16) | (int(pixels->GetComponent(i, 1)) << 8) | int(pixels->GetComponent(i, 2));
  };
  const int background = colour(0);
  std::set<int> colours;
  vtkIdType different = 0;
  for (vtkIdType i = 0; i < pixels->GetNumberOfTuples(); ++i) {
    const int c = colour(i);
    different += c != background;
    colours.insert(c);
  }
  CHECK(double(different) / pixels->GetNumberOfTuples() > 0.05);
  CHECK(colours.size() > 50);

  // The script runs as its header says, with a plain pvbatch and no PYTHONPATH set up for it.
  if (on_path("pvbatch") && on_path("xvfb-run")) {
    const fs::path plain = dir.path / "plain.png";
    const std::string command = "cd " + (dir.path / "results").string() + " && env -u PYTHONPATH xvfb-run -a -n " + std::to_string(1000 + getpid() % 900) +
                                " -s '" + kXvfbArguments + "' pvbatch beam-view.py --png " +
                                plain.string() + " > " + (dir.path / "pvbatch.txt").string() + " 2>&1";
    CHECK_MESSAGE(std::system(command.c_str()) == 0, slurp(dir.path / "pvbatch.txt"));
    CHECK(fs::exists(plain));
  }
}
#endif
