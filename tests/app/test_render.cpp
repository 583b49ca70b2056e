// `fem run` leaves a ParaView script beside its results, and `fem render` turns it into a
// picture that is not blank, and, for every small ready case, into the picture stored in
// tests/app/render_reference/ (FEM_UPDATE_RENDER_REFERENCES=1 rewrites those after a
// deliberate change: look at them before committing). Skipped (with a message) where ParaView is not installed; CI
// installs it (scripts/install-deps.sh).
#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>
#include <sstream>
#include <string>
#include <vector>

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
#include <vtkPNGWriter.h>
#include <vtkUnsignedCharArray.h>
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

bool can_render() { return on_path("pvbatch") || on_path("pvpython") || std::getenv("FEM_PVBATCH"); }

// An RGB picture, bottom row first (as VTK reads it).
struct Picture {
  int width = 0, height = 0;
  std::vector<unsigned char> rgb;
};

Picture read_png(const fs::path& file) {
  vtkNew<vtkPNGReader> reader;
  reader->SetFileName(file.c_str());
  reader->Update();
  vtkImageData* image = reader->GetOutput();
  int size[3];
  image->GetDimensions(size);
  auto* pixels = image->GetPointData()->GetScalars();
  Picture p{size[0], size[1], {}};
  if (!pixels) return p;
  const int channels = pixels->GetNumberOfComponents();
  p.rgb.resize(std::size_t(p.width) * p.height * 3);
  for (vtkIdType i = 0; i < vtkIdType(p.width) * p.height; ++i)
    for (int c = 0; c < 3; ++c) p.rgb[i * 3 + c] = static_cast<unsigned char>(pixels->GetComponent(i, std::min(c, channels - 1)));
  return p;
}

// Half the size, each pixel the mean of four: the references stay small, and a line drawn a
// pixel aside weighs less.
Picture halved(const Picture& full) {
  Picture half{full.width / 2, full.height / 2, {}};
  half.rgb.resize(std::size_t(half.width) * half.height * 3);
  for (int y = 0; y < half.height; ++y)
    for (int x = 0; x < half.width; ++x)
      for (int c = 0; c < 3; ++c) {
        int sum = 0;
        for (int dy = 0; dy < 2; ++dy)
          for (int dx = 0; dx < 2; ++dx) sum += full.rgb[((std::size_t(2 * y + dy) * full.width) + 2 * x + dx) * 3 + c];
        half.rgb[(std::size_t(y) * half.width + x) * 3 + c] = static_cast<unsigned char>((sum + 2) / 4);
      }
  return half;
}

void write_png(const Picture& p, const fs::path& file) {
  vtkNew<vtkImageData> image;
  image->SetDimensions(p.width, p.height, 1);
  image->AllocateScalars(VTK_UNSIGNED_CHAR, 3);
  std::copy(p.rgb.begin(), p.rgb.end(), static_cast<unsigned char*>(image->GetScalarPointer()));
  vtkNew<vtkPNGWriter> writer;
  writer->SetFileName(file.c_str());
  writer->SetInputData(image);
  writer->Write();
}

// How far two pictures of one size are apart: the mean absolute difference over all channels
// (0..255), and the fraction of pixels where some channel differs by more than a fifth.
struct Difference {
  double mean = 0, fraction_changed = 0;
};

Difference difference(const Picture& a, const Picture& b) {
  Difference d;
  const std::size_t pixels = std::size_t(a.width) * a.height;
  double total = 0;
  std::size_t changed = 0;
  for (std::size_t i = 0; i < pixels; ++i) {
    int worst = 0;
    for (int c = 0; c < 3; ++c) {
      const int delta = std::abs(int(a.rgb[i * 3 + c]) - int(b.rgb[i * 3 + c]));
      total += delta;
      worst = std::max(worst, delta);
    }
    changed += worst > 51;
  }
  d.mean = total / (3.0 * pixels);
  d.fraction_changed = double(changed) / pixels;
  return d;
}

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
  CHECK(script.find("LABEL = 'von Mises stress [MPa]'") != std::string::npos);
  CHECK(script.find("FIELD_SCALE = 1e-06") != std::string::npos);  // Pa to MPa
  CHECK(script.find("UNIT = 'MPa'") != std::string::npos);
  CHECK(script.find("FeatureEdges(") != std::string::npos);  // the outline, not the wireframe
  CHECK(script.find("Surface With Edges") == std::string::npos);
}

TEST_CASE("fem render draws the results offscreen, and the picture is not blank") {
  if (!can_render()) {
    MESSAGE("skipped: no pvbatch or pvpython here (Debian: paraview; scripts/install-deps.sh installs it)");
    return;
  }
  TempDir dir;
  const auto file = dir.write("beam.yaml", kBeam);
  std::ostringstream log;
  CHECK_THROWS_WITH(render_case(file, {}, {}, log), doctest::Contains("run `fem run"));
  run_case(file, {}, log);
  const auto pngs = render_case(file, {}, {}, log);
  REQUIRE(pngs.size() == 1);
  const fs::path png = pngs.front();
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

// Every small ready case, 2D and 3D, linear and quadratic, elasticity, modes and heat, drawn as the
// stored reference shows it: the part filling the frame, its outline, the field in MPa or °C and
// its maximum marked. A tolerance lets fonts and shading move a little between ParaView builds.
TEST_CASE("fem render draws every small ready case as its reference picture") {
  if (!can_render()) {
    MESSAGE("skipped: no pvbatch or pvpython here (Debian: paraview; scripts/install-deps.sh installs it)");
    return;
  }
  const fs::path references = fs::path(FEM_TEST_DATA_DIR) / "tests/app/render_reference";
  const bool update = std::getenv("FEM_UPDATE_RENDER_REFERENCES") != nullptr;
  for (const std::string name : {"cantilever", "plate_hole", "box", "heated_bar", "bracket", "bracket_modal", "bracket_load_cases", "fin",
                                 "heat_box"}) {
    const fs::path file = fs::path(FEM_TEST_DATA_DIR) / "cases" / (name + ".yaml");
    if (!FEM_WITH_GMSH && slurp(file).find("geo:") != std::string::npos) continue;  // meshed by Gmsh
    CAPTURE(name);
    TempDir dir;
    RunOverrides overrides;
    overrides.output_directory = dir.path;
    overrides.quiet = true;
    std::ostringstream log;
    run_case(file, overrides, log);
    // One picture per load case (bracket_load_cases), each compared with its own reference.
    const auto pngs = render_case(file, overrides, dir.path / (name + ".png"), log);
    REQUIRE(!pngs.empty());
    for (const fs::path& png : pngs) {
      CAPTURE(png.filename().string());
      const Picture drawn = halved(read_png(png));
      REQUIRE(drawn.width == 640);
      REQUIRE(drawn.height == 400);
      const fs::path reference = references / png.filename();
      if (update) {
        fs::create_directories(references);
        write_png(drawn, reference);
        MESSAGE("wrote " << reference.string());
        continue;
      }
      REQUIRE_MESSAGE(fs::exists(reference), reference.string() << " is missing (FEM_UPDATE_RENDER_REFERENCES=1 writes it)");
      const Picture expected = read_png(reference);
      REQUIRE(expected.width == drawn.width);
      REQUIRE(expected.height == drawn.height);
      const Difference d = difference(drawn, expected);
      const fs::path kept = fs::temp_directory_path() / ("fem-render-" + png.filename().string());
      if (d.mean > 2.0 || d.fraction_changed > 0.01) write_png(drawn, kept);
      CHECK_MESSAGE(d.mean <= 2.0, "mean difference " << d.mean << "; the picture drawn is " << kept.string());
      CHECK_MESSAGE(d.fraction_changed <= 0.01, d.fraction_changed << " of the pixels changed; the picture drawn is " << kept.string());
    }
  }
}
#endif
