#include "fem/output/paraview_script.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <stdexcept>

namespace fem {
namespace {

// A Python string literal.
std::string py(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "'";
}

}  // namespace

double deformation_scale(const std::vector<double>& coords, double max_displacement) {
  double lo[3], hi[3];
  std::fill(lo, lo + 3, std::numeric_limits<double>::max());
  std::fill(hi, hi + 3, std::numeric_limits<double>::lowest());
  for (std::size_t i = 0; i + 2 < coords.size(); i += 3)
    for (int k = 0; k < 3; ++k) {
      lo[k] = std::min(lo[k], coords[i + k]);
      hi[k] = std::max(hi[k], coords[i + k]);
    }
  if (coords.empty() || !(max_displacement > 0)) return 1.0;
  const double diagonal = std::hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
  const double scale = 0.1 * diagonal / max_displacement;
  // A round number reads better in the legend: 1, 2 or 5 times a power of ten.
  const double decade = std::pow(10.0, std::floor(std::log10(scale)));
  const double mantissa = scale / decade;
  return (mantissa >= 5 ? 5 : mantissa >= 2 ? 2 : 1) * decade;
}

void write_paraview_script(const std::filesystem::path& path, const ParaviewView& v) {
  char scale[32];
  std::snprintf(scale, sizeof scale, "%.6g", v.warp_scale);
  std::ofstream out(path);
  out << "# ParaView view of " << v.vtu_name << ", written by fem: "
      << (v.warp ? "the deformed shape (" + v.warp_field + " x " + std::string(scale) + ") coloured by " : "coloured by ")
      << v.color_label << ".\n"
      << "#   paraview --script=" << v.script_name << "      opens it in the GUI\n"
      << "#   pvbatch " << v.script_name << " --png out.png     saves a picture (what `fem render` does;\n"
      << "#   xvfb-run -a pvbatch ... where there is no display)\n"
      << R"(import os
import sys

# Debian's python3-paraview conflicts with the VTK fem builds against, so scripts/install-deps.sh
# unpacks it into /opt/fem-paraview; a plain `pvbatch` finds it from here.
for where in (os.environ.get('FEM_PARAVIEW_PYTHONPATH', ''), '/opt/fem-paraview/usr/lib/python3/dist-packages'):
    if where and os.path.isdir(os.path.join(where, 'paraview')) and where not in sys.path:
        sys.path.insert(0, where)
        break

from paraview.simple import *

HERE = os.path.dirname(os.path.abspath(__file__)) if '__file__' in globals() else os.getcwd()
)" << "RESULTS = " << py(v.vtu_name) << "\nTITLE = " << py(v.title) << "\nFIELD = " << py(v.color_field)
      << "\nLABEL = " << py(v.color_label) << "\nWARP_FIELD = " << py(v.warp_field) << "\nWARP = " << (v.warp ? "True" : "False") << "\nSCALE = " << scale
      << "  # the largest displacement shows as about a tenth of the model's size\nDIMENSION = " << v.dimension << "\n"
      << R"(
results = OpenDataFile(os.path.join(HERE, RESULTS), registrationName=RESULTS)  # .vtu, or .pvtu from fem under mpirun
view = GetActiveViewOrCreate('RenderView')
view.ViewSize = [1280, 800]  # fonts are sized for this: the picture is drawn at the same size
view.OrientationAxesVisibility = 1
shown = results
if WARP:
    shown = WarpByVector(registrationName='deformed x %g' % SCALE, Input=results)
    shown.Vectors = ['POINTS', WARP_FIELD]
    shown.ScaleFactor = SCALE
    undeformed = Show(results, view)
    undeformed.SetRepresentationType('Feature Edges' if DIMENSION == 3 else 'Outline')
    undeformed.ColorArrayName = ['POINTS', '']
    undeformed.AmbientColor = undeformed.DiffuseColor = [0.55, 0.55, 0.55]
display = Show(shown, view)
display.SetRepresentationType('Surface With Edges')
display.EdgeColor = [0.2, 0.2, 0.25]
ColorBy(display, ('POINTS', FIELD))
lut = GetColorTransferFunction(FIELD)
lut.ApplyPreset('Jet', True)
display.RescaleTransferFunctionToDataRange(True, False)
display.SetScalarBarVisibility(view, True)
bar = GetScalarBar(lut, view)
bar.Title = LABEL
bar.ComponentTitle = ''
# One number format for every label, the range's and the ticks' (ParaView's automatic format
# mixes 2.48e+05 with 240000).
bar.AutomaticLabelFormat = 0
bar.LabelFormat = '%-#.3g'
bar.RangeLabelFormat = '%-#.3g'
bar.WindowLocation = 'Any Location'
bar.Orientation = 'Vertical'
bar.Position = [0.9, 0.15]
bar.ScalarBarLength = 0.7
bar.TitleFontSize = 16
bar.LabelFontSize = 14
caption = Text(registrationName='title', Text=TITLE + ('\ndeformation x %g' % SCALE if WARP else ''))
caption_display = Show(caption, view)
caption_display.WindowLocation = 'Upper Left Corner'
caption_display.FontSize = 16

(x0, x1, y0, y1, z0, z1) = results.GetDataInformation().GetBounds()
centre = [(x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2]
size = max(x1 - x0, y1 - y0, z1 - z0, 1e-30)
view.CameraFocalPoint = centre
if DIMENSION == 2:
    view.InteractionMode = '2D'
    view.CameraPosition = [centre[0], centre[1], centre[2] + 4 * size]
    view.CameraViewUp = [0, 1, 0]
else:
    view.CameraPosition = [centre[0] + 2 * size, centre[1] - 2.5 * size, centre[2] + 1.6 * size]
    view.CameraViewUp = [0, 0, 1]
view.ResetCamera(False)
GetActiveCamera().Dolly(0.8)  # a margin around the part, and room for the scalar bar

if '--png' in sys.argv:
    png = sys.argv[sys.argv.index('--png') + 1]
    SaveScreenshot(png, view, ImageResolution=[1280, 800])
    print('wrote ' + png)
else:
    Render(view)
)";
  if (!out) throw std::runtime_error(path.string() + ": cannot write the ParaView script");
}

}  // namespace fem
