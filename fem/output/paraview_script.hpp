#pragma once
// A small ParaView Python script left beside a run's results that opens them the way an
// engineer looks first: the deformed shape (displacement, magnified) coloured by von Mises
// stress in MPa, or the temperature field in °C, with a scalar bar, the outline of the undeformed
// part, the part framed to fill the picture and its maximum marked with its value (and, where the
// maximum is on the far side of a 3D part, a second view of that side). It runs in the ParaView GUI
// (paraview --script=FILE), in pvpython/pvbatch, and with `--png FILE` saves a picture offscreen
// (what `fem render` does).
#include <filesystem>
#include <string>
#include <vector>

namespace fem {

struct ParaviewView {
  std::string script_name;      // the script's own final name, for the usage lines in its header (the sink sets it)
  std::string vtu_name;         // the results file, next to the script
  std::string title;            // shown in the picture's corner
  std::string color_field;      // point array to colour by: von_mises | temperature
  std::string color_label;      // scalar bar title, with the unit: "von Mises stress [MPa]"
  double color_scale = 1.0;     // the field times this is in color_unit (1e-6: Pa to MPa)
  std::string color_unit;       // the unit after the maximum's value: MPa, °C; empty for none
  bool warp = false;            // deform by the point array warp_field
  std::string warp_field = "displacement";  // or a mode shape, mode_1
  double warp_scale = 1.0;      // its magnification
  int dimension = 3;            // 2: look along -z; 3: an isometric view
};

// The magnification that shows the largest displacement as a tenth of the model's diagonal
// (coords: 3 per node); 1 when nothing moves.
double deformation_scale(const std::vector<double>& coords, double max_displacement);

// Writes the script to `path` (a temporary name, renamed later: the script names itself by
// view.script_name). Run plainly (`pvbatch FILE`), it finds the ParaView modules that
// scripts/install-deps.sh unpacks into /opt/fem-paraview (or FEM_PARAVIEW_PYTHONPATH).
void write_paraview_script(const std::filesystem::path& path, const ParaviewView& view);

}  // namespace fem
