#include "fem/output/paraview_script.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <ostream>
#include <stdexcept>
#include <string>

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

// A number as the script writes it (six significant figures).
std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

// Finding ParaView's Python modules, and the script's folder (the results lie beside it).
constexpr const char* kImports = R"(import math
import os
import sys

# Debian's python3-paraview conflicts with the VTK fem builds against, so scripts/install-deps.sh
# unpacks it into /opt/fem-paraview; a plain `pvbatch` finds it from here.
for where in (os.environ.get('FEM_PARAVIEW_PYTHONPATH', ''), '/opt/fem-paraview/usr/lib/python3/dist-packages'):
    if where and os.path.isdir(os.path.join(where, 'paraview')) and where not in sys.path:
        sys.path.insert(0, where)
        break

from paraview.simple import *

HERE = os.path.dirname(os.path.abspath(__file__)) if '__file__' in globals() else os.getcwd()
)";

// The view itself, from the settings: the deformed part coloured by the field, its outline and
// the undeformed one, the maximum marked and labelled, the scalar bar, the camera, the picture.
constexpr const char* kView = R"(
results = OpenDataFile(os.path.join(HERE, RESULTS), registrationName=RESULTS)  # .vtu, or .pvtu from fem under mpirun
PICTURE = [1280, 800]  # fonts are sized for this: the picture is drawn at the same size
# Lines are drawn over the faces they lie on instead of fighting them in the depth buffer.
GetSettingsProxy('RenderViewSettings').ResolveCoincidentTopology = 'Offset faces relative to lines and points'


def outline(source):
    """The part's feature edges: its 2D boundary, or the sharp edges of its 3D surface. Quadratic
    faces are subdivided first, so curved edges are drawn curved and no mid-side lines show."""
    surface = ExtractSurface(Input=source)
    surface.NonlinearSubdivisionLevel = 2
    edges = FeatureEdges(Input=surface)
    edges.BoundaryEdges = 1
    edges.FeatureEdges = 1 if DIMENSION == 3 else 0
    edges.NonManifoldEdges = 0
    edges.ManifoldEdges = 0
    edges.FeatureAngle = 30.0
    return edges


def unit_vector(v):
    norm = math.sqrt(sum(c * c for c in v))
    return [c / norm for c in v]


def cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def dot(a, b):
    return sum(p * q for p, q in zip(a, b))


shown = results
undeformed_edges = None
if WARP:
    shown = WarpByVector(registrationName='deformed x %g' % SCALE, Input=results)
    shown.Vectors = ['POINTS', WARP_FIELD]
    shown.ScaleFactor = SCALE
    undeformed_edges = outline(results)
coloured = shown
if FIELD_SCALE != 1:  # the field in the bar's unit (MPa, not Pa)
    coloured = Calculator(registrationName=FIELD + ' [' + UNIT + ']', Input=shown)
    coloured.ResultArrayName = FIELD + '_' + UNIT
    coloured.Function = '%s*%r' % (FIELD, FIELD_SCALE)
    colour_array = coloured.ResultArrayName
else:
    colour_array = FIELD
edges = outline(shown)

# The range and where the largest value is: on the shape as drawn (the marker) and in the
# part's own coordinates (the label).
from paraview import servermanager
from vtk.numpy_interface import dataset_adapter as dsa
import numpy
data = dsa.WrapDataObject(servermanager.Fetch(coloured))
values = data.PointData[colour_array]
if len(values.shape) > 1:  # a vector (a mode shape) is coloured by its length
    values = numpy.linalg.norm(values, axis=1)
low, high = float(values.min()), float(values.max())
# The first point within roundoff of the largest value: a uniform field (a bar held between walls)
# is then shown from the same side whatever its last bits.
top = int(numpy.flatnonzero(values >= high - 1e-9 * max(abs(low), abs(high)))[0])
drawn_at = [float(c) for c in data.Points[top]]
at = list(drawn_at)
if WARP:
    at = [c - SCALE * float(u) for c, u in zip(drawn_at, data.PointData[WARP_FIELD][top])]
del data

# A uniform field (a bar held between walls) gets a range around its value, not its roundoff.
magnitude = max(abs(low), abs(high))
bar_low, bar_high = low, high
if high - low <= 1e-6 * magnitude:
    widen = 0.05 * (magnitude if magnitude > 0 else 1.0)
    bar_low, bar_high = low - widen, high + widen
# One number format on the whole bar: fixed decimals enough for three digits of the range,
# or exponents where fixed point would be too long.
digits = max(0, 2 - int(math.floor(math.log10(bar_high - bar_low))))
number = '%.2e' if digits > 5 or magnitude >= 1e6 else '%.' + str(digits) + 'f'
lut = GetColorTransferFunction(colour_array)
lut.ApplyPreset('Jet', True)

(x0, x1, y0, y1, z0, z1) = results.GetDataInformation().GetBounds()
size = max(x1 - x0, y1 - y0, z1 - z0, 1e-30)
marker = Sphere(registrationName='maximum', Center=drawn_at, Radius=0.02 * size, ThetaResolution=24, PhiResolution=24)
where = ', '.join('%.4g' % c for c in at[:DIMENSION])
note = Text(registrationName='maximum label', Text='max ' + (number % high) + (' ' + UNIT if UNIT else '') + ' at (' + where + ')')
caption = Text(registrationName='title', Text=TITLE + ('\ndeformation x %g' % SCALE if WARP else ''))

# Straight on in 2D, isometric in 3D.
if DIMENSION == 2:
    direction, up = [0.0, 0.0, 1.0], [0.0, 1.0, 0.0]
else:
    direction, up = unit_vector([1.0, -1.0, 1.0]), [0.0, 0.0, 1.0]


def hidden(point, towards):
    """Whether the deformed part's surface lies between `point` and a camera looking from `towards`."""
    from vtkmodules.vtkFiltersGeneral import vtkOBBTree
    from vtkmodules.vtkCommonCore import vtkPoints
    surface = ExtractSurface(Input=shown)
    surface.NonlinearSubdivisionLevel = 1
    tree = vtkOBBTree()
    tree.SetDataSet(servermanager.Fetch(surface))
    tree.BuildLocator()
    start = [p + 0.002 * size * t for p, t in zip(point, towards)]
    end = [p + 3 * size * t for p, t in zip(point, towards)]
    return tree.IntersectWithLine(start, end, vtkPoints(), None) != 0


def draw(view, width, height, direction, up, free, texts):
    """Shows the part in `view` (width x height pixels) seen from `direction`, fitted into the
    `free` fractions of it (x0, x1, y0, y1) that the bar and the captions leave."""
    view.OrientationAxesVisibility = 1 if DIMENSION == 3 else 0
    view.CameraParallelProjection = 1  # the framing fits the part exactly, and edges stay parallel
    view.ViewSize = [width, height]
    if undeformed_edges:
        # A hair behind the deformed outline, so that where the two coincide (a fixed face) the
        # deformed one is drawn, not a dashed mix of both.
        undeformed = lines(undeformed_edges, view, [0.45, 0.45, 0.45], 1.5)
        undeformed.Position = [-0.002 * size * d for d in direction]
    display = Show(coloured, view)
    display.SetRepresentationType('Surface')
    ColorBy(display, ('POINTS', colour_array))
    lines(edges, view, [0.1, 0.1, 0.12], 2.0)
    shown_marker = Show(marker, view)
    shown_marker.ColorArrayName = ['POINTS', '']
    shown_marker.AmbientColor = shown_marker.DiffuseColor = [1.0, 0.0, 1.0]  # a colour the Jet map has not
    for text, corner in texts:
        shown_text = Show(text, view)
        shown_text.WindowLocation = corner
        shown_text.FontSize = 16
        shown_text.Justification = 'Left'
    # Fit the corners of what is drawn, undeformed and deformed, seen along `direction`.
    bounds = [results.GetDataInformation().GetBounds(), shown.GetDataInformation().GetBounds()]
    corners = [(x, y, z) for b in bounds for x in b[0:2] for y in b[2:4] for z in b[4:6]]
    right = unit_vector(cross(up, direction))
    up = cross(direction, right)
    xs, ys, ds = ([dot(c, axis) for c in corners] for axis in (right, up, direction))
    x_lo, x_hi, y_lo, y_hi = free
    half_height = max((max(ys) - min(ys)) / (y_hi - y_lo), (max(xs) - min(xs)) / (x_hi - x_lo) * height / width, 1e-30) / 2
    # The point seen at the picture's centre puts the part's centre at the free part's.
    cx = (min(xs) + max(xs)) / 2 - ((x_lo + x_hi) / 2 - 0.5) * 2 * half_height * width / height
    cy = (min(ys) + max(ys)) / 2 - ((y_lo + y_hi) / 2 - 0.5) * 2 * half_height
    cd = (min(ds) + max(ds)) / 2
    focus = [cx * r + cy * u + cd * d for r, u, d in zip(right, up, direction)]
    view.CameraFocalPoint = focus
    view.CameraPosition = [f + 2 * max(max(ds) - min(ds), 2 * half_height) * d for f, d in zip(focus, direction)]
    view.CameraViewUp = up
    view.CameraParallelScale = half_height
    if DIMENSION == 2:
        view.InteractionMode = '2D'
    return display


def lines(source, view, colour, width):
    display = Show(source, view)
    display.SetRepresentationType('Surface')
    display.ColorArrayName = ['POINTS', '']
    display.AmbientColor = display.DiffuseColor = colour
    display.LineWidth = width
    return display


def scalar_bar(display, view, position, length):
    # After ColorBy, which sets the range to the data's.
    lut.AutomaticRescaleRangeMode = 'Never'
    lut.RescaleTransferFunction(bar_low, bar_high)
    display.SetScalarBarVisibility(view, True)
    bar = GetScalarBar(lut, view)
    bar.Title = LABEL
    bar.ComponentTitle = ''
    bar.AutomaticLabelFormat = 0
    bar.LabelFormat = number
    bar.RangeLabelFormat = number
    bar.WindowLocation = 'Any Location'
    bar.Orientation = 'Vertical'
    bar.Position = position
    bar.ScalarBarLength = length
    bar.TitleFontSize = 16
    bar.LabelFontSize = 14


view = CreateView('RenderView')
layout = CreateLayout('fem')
texts = [(caption, 'Upper Left Corner'), (note, 'Lower Left Corner')]
if DIMENSION == 3 and hidden(drawn_at, direction):
    # The maximum is on the far side: the opposite side beside the first view, the bar after it.
    left = 0.5
    layout.SplitHorizontal(0, left)
    layout.AssignView(1, view)
    other = CreateView('RenderView')
    layout.AssignView(2, other)
    width = int(PICTURE[0] * left)
    draw(view, width, PICTURE[1], direction, up, (0.04, 0.96, 0.09, 0.86), texts)
    back = Text(registrationName='other side', Text='the other side, where the maximum is')
    display = draw(other, PICTURE[0] - width, PICTURE[1], [-d for d in direction], up, (0.04, 0.74, 0.09, 0.86),
                   [(back, 'Upper Left Corner')])
    scalar_bar(display, other, [0.8, 0.12], 0.76)
    shot = layout
else:
    layout.AssignView(0, view)
    display = draw(view, PICTURE[0], PICTURE[1], direction, up, (0.03, 0.86, 0.09, 0.88), texts)
    scalar_bar(display, view, [0.89, 0.12], 0.76)
    shot = view

if '--png' in sys.argv:
    png = sys.argv[sys.argv.index('--png') + 1]
    SaveScreenshot(png, shot, ImageResolution=PICTURE)
    print('wrote ' + png)
else:
    Render(view)
)";

// The script's opening comment: what it shows and how to run it.
void write_header(std::ostream& out, const ParaviewView& v) {
  const std::string scale = number(v.warp_scale);
  out << "# ParaView view of " << v.vtu_name << ", written by fem: "
      << (v.warp ? "the deformed shape (" + v.warp_field + " x " + scale + ") coloured by " : "coloured by ")
      << v.color_label << ".\n"
      << "#   paraview --script=" << v.script_name << "      opens it in the GUI\n"
      << "#   pvbatch " << v.script_name << " --png out.png     saves a picture (what `fem render` does;\n"
      << "#   xvfb-run -a pvbatch ... where there is no display)\n";
}

// The constants the view is drawn from: this run's file, field, units and deformation scale.
void write_settings(std::ostream& out, const ParaviewView& v) {
  out << "RESULTS = " << py(v.vtu_name) << "\nTITLE = " << py(v.title) << "\nFIELD = " << py(v.color_field)
      << "\nLABEL = " << py(v.color_label) << "\nFIELD_SCALE = " << number(v.color_scale)
      << "  # to the bar's unit\nUNIT = " << py(v.color_unit) << "\nWARP_FIELD = " << py(v.warp_field)
      << "\nWARP = " << (v.warp ? "True" : "False") << "\nSCALE = " << number(v.warp_scale)
      << "  # the largest displacement shows as about a tenth of the model's size\nDIMENSION = " << v.dimension << "\n";
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
  std::ofstream out(path);
  write_header(out, v);
  out << kImports;
  write_settings(out, v);
  out << kView;
  if (!out) throw std::runtime_error(path.string() + ": cannot write the ParaView script");
}

}  // namespace fem
