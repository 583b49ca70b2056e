#include "tests/hostile/bad_input_catalogue.hpp"

#include <stdexcept>

#include "fem/config.hpp"

namespace fem::test {
namespace {

const std::string kCase = R"(title: catalogue base
mesh:
  box: {size: [1, 1], divisions: [4, 4]}
  element: quad
physics:
  type: elasticity
  model: plane_stress
  thickness: 1
materials:
  - {group: box, E: 210e9, nu: 0.3, density: 7800}
boundary:
  - {group: xmin, fix: [x, y]}
  - {group: xmax, traction: [1e6, 0]}
  - {group: ymax, pressure: 1e5}
loads:
  gravity: [0, -9.81]
solver:
  method: cg
  tolerance: 1e-10
  max_iterations: 1000
output:
  directory: results
)";

const std::string kMshCase = R"(title: a mesh file
mesh:
  msh: mesh.msh
physics: {type: elasticity, model: plane_stress}
materials: [{group: square, E: 210e9, nu: 0.3}]
boundary: [{group: left, fix: [x, y]}, {group: right, traction: [1e6, 0]}]
output: {directory: results}
)";

const std::string kMatrix = R"(%%MatrixMarket matrix coordinate real symmetric
% lower triangle of a small SPD matrix
3 3 4
1 1 4
2 1 1
2 2 4
3 3 4
)";

// A 2D MSH 2.2 mesh: four triangles around a centre node 5 of the unit square.
const std::string kFan = R"($MeshFormat
2.2 0 8
$EndMeshFormat
$PhysicalNames
2
1 1 "left"
2 2 "plate"
$EndPhysicalNames
$Nodes
5
1 0 0 0
2 1 0 0
3 1 1 0
4 0 1 0
5 0.5 0.5 0
$EndNodes
$Elements
5
10 1 2 1 1 1 4
11 2 2 2 1 1 2 5
12 2 2 2 1 2 3 5
13 2 2 2 1 3 4 5
14 2 2 2 1 4 1 5
$EndElements
)";
const std::string kFanCase = R"(mesh: {msh: fan.msh}
physics: {type: elasticity, model: plane_stress}
materials: [{group: plate, E: 1, nu: 0.3}]
boundary: [{group: left, fix: [x, y]}]
output: {directory: results}
)";

// A 3D MSH 2.2 mesh: one tetrahedron (group part) and a triangle elsewhere (group skin).
const std::string kTet = R"($MeshFormat
2.2 0 8
$EndMeshFormat
$PhysicalNames
2
2 1 "skin"
3 2 "part"
$EndPhysicalNames
$Nodes
7
1 0 0 0
2 1 0 0
3 0 1 0
4 0 0 1
5 5 5 5
6 6 5 5
7 5 6 5
$EndNodes
$Elements
3
1 2 2 1 1 1 2 3
2 4 2 2 2 1 2 3 4
3 2 2 1 3 5 6 7
$EndElements
)";
const std::string kTetCase = R"(mesh: {msh: tet.msh}
physics: {type: elasticity, model: 3d}
materials: [{group: part, E: 1, nu: 0.3}]
boundary: [{group: skin, fix: [x, y, z]}]
output: {directory: results}
)";

// `text` with `from` replaced by `to`; `from` must be there (keeps the table honest).
std::string replaced(const std::string& text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  if (at == std::string::npos) throw std::logic_error("catalogue: '" + from + "' is not in the input it mutates");
  return text.substr(0, at) + to + text.substr(at + from.size());
}

// "case.yaml:N" for the line of `pattern` in the base case.
std::string case_line(const std::string& pattern) {
  const auto at = kCase.find(pattern);
  if (at == std::string::npos) throw std::logic_error("catalogue: '" + pattern + "' is not in the base case");
  int line = 1;
  for (std::size_t i = 0; i < at; ++i) line += kCase[i] == '\n';
  return "case.yaml:" + std::to_string(line);
}

BadInput case_variant(std::string name, const std::string& from, const std::string& to, std::vector<std::string> culprit,
                      const std::string& arguments = "run case.yaml") {
  return {std::move(name), {{"case.yaml", replaced(kCase, from, to)}}, arguments, std::move(culprit)};
}

// The base case with `entries` as its load_cases list (line 17: 'load_cases:', 18: its first entry).
std::string with_load_cases(const std::string& entries) {
  return replaced(kCase, "solver:\n", "load_cases:" + entries + "\nsolver:\n");
}

void add_load_cases(std::vector<BadInput>& out) {
  const auto v = [&](std::string name, const std::string& entries, std::vector<std::string> culprit) {
    out.push_back({std::move(name), {{"case.yaml", with_load_cases(entries)}}, "run case.yaml", std::move(culprit)});
  };
  v("an empty load_cases list", " []", {"case.yaml:17", "'load_cases' must be a list of one or more"});
  v("load_cases as a mapping", "\n  a: {name: a}", {"case.yaml:18", "'load_cases' must be a list"});
  v("an unknown key in a load case", "\n  - {name: a, weight: 2}", {"case.yaml:18", "unknown key 'weight'"});
  v("a load case without a name", "\n  - {loads: {gravity: [0, -1]}}", {"case.yaml:18", "needs the key 'name'"});
  v("two load cases of one name", "\n  - {name: a}\n  - {name: a}", {"case.yaml:19", "load case 'a' is given twice", "lines 18 and 19"});
  v("a load case name that is a path", "\n  - {name: ../up}", {"case.yaml:18", "load case name '../up'"});
  v("a load case name with a space", "\n  - {name: 'dead load'}", {"case.yaml:18", "load case name 'dead load'"});
  v("a support in a load case", "\n  - {name: a, boundary: [{group: xmax, fix: [x]}]}",
    {"case.yaml:18", "load case 'a'", "belong in the common 'boundary'"});
  v("a prescribed displacement in a load case", "\n  - {name: a, boundary: [{group: xmax, displacement: {x: 0.001}}]}",
    {"case.yaml:18", "belong in the common 'boundary'"});
  v("a load case on a group the mesh lacks", "\n  - {name: a, boundary: [{group: nowhere, traction: [1, 0]}]}",
    {"case.yaml:18", "group 'nowhere' is not in the mesh"});
  v("a heat load in an elasticity load case", "\n  - {name: a, loads: {source: 5}}", {"case.yaml:18", "'source' needs heat physics"});
  v("an unknown load in a load case", "\n  - {name: a, loads: {wind: 5}}", {"case.yaml:18", "unknown key 'wind'"});
}

void add_number_fields(std::vector<BadInput>& out) {
  // Each scalar of the base case, each replaced by something that is not an acceptable value.
  struct Field {
    std::string text, key, value;
    bool negative_is_bad;
  };
  const std::vector<Field> fields = {
      {"E: 210e9", "E", "210e9", true},          {"nu: 0.3", "nu", "0.3", true},
      {"density: 7800", "density", "7800", true}, {"thickness: 1", "thickness", "1", true},
      {"tolerance: 1e-10", "tolerance", "1e-10", true}, {"max_iterations: 1000", "max_iterations", "1000", true},
      {"pressure: 1e5", "pressure", "1e5", false},
  };
  const std::vector<std::string> bad = {".inf", "-.inf", ".nan", "abc", "[1, 2]", "{a: 1}", "1e999"};
  for (const auto& f : fields) {
    for (const auto& value : bad)
      out.push_back(case_variant(f.key + " = " + value, f.text, f.key + ": " + value, {case_line(f.text), "'" + f.key + "'"}));
    if (f.negative_is_bad)
      out.push_back(case_variant(f.key + " = -1", f.text, f.key + ": -1", {case_line(f.text), "'" + f.key + "'"}));
  }
}

void add_list_fields(std::vector<BadInput>& out) {
  struct Field {
    std::string text, key;
    std::vector<std::string> bad;
  };
  const std::vector<Field> fields = {
      {"traction: [1e6, 0]", "traction", {"[.nan, 0]", "[.inf, 0]", "[1]", "[a, b]", "[1, 2, 3, 4]", "5"}},
      {"gravity: [0, -9.81]", "gravity", {"[.nan, 0]", "[0, -.inf]", "[1]", "[a, b]", "[1, 2, 3, 4]", "5"}},
      {"size: [1, 1]", "size", {"[.inf, 1]", "[-1, 1]", "[0, 1]", "[1]", "[a, 1]", "[.nan, 1]"}},
      {"divisions: [4, 4]", "divisions", {"[0, 4]", "[4.5, 4]", "[1e12, 4]", "[-3, 4]", "[.nan, 4]", "[4]"}},
  };
  for (const auto& f : fields)
    for (const auto& value : f.bad)
      out.push_back(case_variant(f.key + " = " + value, f.text, f.key + ": " + value, {case_line(f.text), "'" + f.key + "'"}));
}

void add_case_structure(std::vector<BadInput>& out) {
  const auto v = [&](std::string name, const std::string& from, const std::string& to, std::vector<std::string> culprit) {
    out.push_back(case_variant(std::move(name), from, to, std::move(culprit)));
  };
  v("a key twice in one entry", "nu: 0.3,", "nu: 0.3, E: -1,", {case_line("E: 210e9"), "'E' is given twice"});
  v("a second solver section", "solver:\n", "solver:\n  method: frontal\nsolver:\n", {"'solver' is given twice", "lines 17 and 19"});
  v("element twice", "  element: quad\n", "  element: quad\n  element: tri\n", {"'element' is given twice", "lines 4 and 5"});
  v("method twice", "  method: cg\n", "  method: cg\n  method: frontal\n", {"'method' is given twice"});
  v("no mesh section", "mesh:\n  box: {size: [1, 1], divisions: [4, 4]}\n  element: quad\n", "", {"case.yaml", "'mesh' section"});
  v("no physics section", "physics:\n  type: elasticity\n  model: plane_stress\n  thickness: 1\n", "",
    {"case.yaml", "'physics' section"});
  v("no materials", "materials:\n  - {group: box, E: 210e9, nu: 0.3, density: 7800}\n", "", {"case.yaml", "'materials'"});
  v("an unknown section", "loads:", "lods:", {case_line("loads:"), "unknown key 'lods'"});
  v("an unknown material key", "E: 210e9", "Young: 210e9", {case_line("E: 210e9"), "unknown key 'Young'"});
  v("a title that is not UTF-8", "title: catalogue base", "title: caf\xe9", {"case.yaml:1", "UTF-8"});
  v("unclosed bracket", "divisions: [4, 4]}", "divisions: [4, 4}", {"case.yaml", "not valid YAML"});
  v("a list for the whole case", "title: catalogue base\n", "- title: catalogue base\n", {"case.yaml"});
  v("an unknown method", "method: cg", "method: magic", {case_line("method: cg"), "'method' is 'magic'"});
  v("an unknown renumbering", "method: cg", "method: cg\n  renumber: random", {"case.yaml:19", "'renumber' is 'random'"});
  v("an unknown device", "method: cg", "method: cg\n  device: abacus", {"case.yaml:19", "'device' is 'abacus'"});
  v("an unknown precision", "method: cg", "method: cg\n  precision: half", {"case.yaml:19", "'precision' is 'half'"});
  v("an unknown element", "element: quad", "element: pentagon", {case_line("element: quad"), "pentagon"});
  v("an unknown physics", "type: elasticity", "type: magnetism", {case_line("type: elasticity"), "'type' is 'magnetism'"});
  v("an unknown model", "model: plane_stress", "model: 4d", {case_line("model: plane_stress"), "'model' is '4d'"});
  v("order 3", "element: quad", "element: quad\n  order: 3", {"case.yaml:5", "'order'"});
  v("a 3D model on a 2D box", "model: plane_stress", "model: 3d", {"case.yaml", "2D"});
  v("a thickness on an axisymmetric model", "model: plane_stress", "model: axisymmetric", {case_line("thickness: 1"), "no thickness"});
  v("a material group not in the mesh", "group: box,", "group: nowhere,", {case_line("group: box,"), "'nowhere'"});
  v("a boundary group not in the mesh", "group: xmax,", "group: xmid,", {case_line("group: xmax,"), "'xmid'"});
  v("nothing holds the body", "{group: xmin, fix: [x, y]}", "{group: xmin, traction: [1, 0]}", {"case.yaml", "singular"});
  v("no modes asked for", "output:\n", "analysis: {type: modal, modes: 0}\noutput:\n", {"case.yaml:21", "'modes' must be at least 1"});
  v("an unknown analysis", "output:\n", "analysis: {type: buckling}\noutput:\n", {"case.yaml:21", "'type' is 'buckling'"});
  v("modes of a static analysis", "output:\n", "analysis: {modes: 3}\noutput:\n", {"case.yaml:21", "'modes' goes with 'type: modal'"});
  v("a tolerance below double precision", "tolerance: 1e-10", "tolerance: 1e-300", {case_line("tolerance: 1e-10"), "double precision"});
  v("a tolerance of 1 or more", "tolerance: 1e-10", "tolerance: 2", {case_line("tolerance: 1e-10"), "zero vector", "below 1"});
  v("an unknown output field", "directory: results", "directory: results\n  fields: [pressure]", {"case.yaml:23", "'pressure'"});
  v("an unknown compression", "directory: results", "directory: results\n  compression: gzip",
    {"case.yaml:23", "'compression' is 'gzip'; expected one of: none, lz4, zlib"});
  v("two mesh sources", "element: quad", "element: quad\n  geo: nowhere.geo", {"case.yaml", "exactly one of"});
  v("a .geo that is not there", "box: {size: [1, 1], divisions: [4, 4]}", "geo: nowhere.geo", {"case.yaml:3", "nowhere.geo"});
  v("a .msh that is not there", "box: {size: [1, 1], divisions: [4, 4]}", "msh: nowhere.msh", {"case.yaml:3", "nowhere.msh"});
  v("gravity without density", ", density: 7800", "", {case_line("E: 210e9"), "density"});
  v("a fix on the region group", "{group: xmin, fix: [x, y]}", "{group: box, fix: [x, y]}",
    {case_line("fix: [x, y]"), "group 'box' is a region", "whole_region: true"});
  v("a temperature-like hold on a region through displacement", "{group: xmin, fix: [x, y]}",
    "{group: xmin, fix: [x, y]}\n  - {group: box, displacement: {x: 0.001}}", {"case.yaml:13", "group 'box' is a region"});
  v("whole_region on a traction", "traction: [1e6, 0]}", "traction: [1e6, 0], whole_region: true}",
    {case_line("traction: [1e6, 0]"), "'whole_region' goes with"});
  v("a fix of z in 2D", "fix: [x, y]", "fix: [x, z]", {case_line("fix: [x, y]"), "z"});
  v("fix of an unknown component", "fix: [x, y]", "fix: [x, w]", {case_line("fix: [x, y]"), "'fix'"});
  v("two conditions in one entry", "{group: xmin, fix: [x, y]}", "{group: xmin, fix: [x, y], pressure: 1}",
    {case_line("fix: [x, y]"), "exactly one condition"});
  v("a heat condition on elasticity", "pressure: 1e5", "temperature: 20", {case_line("pressure: 1e5"), "'temperature'"});
  v("a box of 10^9 cells", "size: [1, 1], divisions: [4, 4]", "size: [1, 1], divisions: [100000, 100000]",
    {"case.yaml", "needs about", "available", "divisions: ["});
  out.push_back({"an empty case file", {{"case.yaml", ""}}, "run case.yaml", {"case.yaml"}});
  out.push_back({"a case file that is not there", {}, "run missing.yaml", {"missing.yaml", "does not exist"}, 2});
  // Devices never end: each is refused by name instead of being read.
  out.push_back({"a device for the case file", {}, "run /dev/zero", {"/dev/zero", "not a regular file"}});
  out.push_back({"a device for the study file", {}, "sweep /dev/zero", {"/dev/zero", "not a regular file"}});
  v("a device for the .geo", "box: {size: [1, 1], divisions: [4, 4]}", "geo: /dev/zero", {"case.yaml:3", "not a regular file", "/dev/zero"});
  out.push_back({"fem check on a bad case", {{"case.yaml", replaced(kCase, "E: 210e9", "E: .inf")}}, "check case.yaml",
                 {case_line("E: 210e9"), "'E'"}});
  out.push_back({"an output folder under a file", {{"case.yaml", replaced(kCase, "directory: results", "directory: afile/results")}, {"afile", "x"}},
                 "run case.yaml", {"afile/results", "Not a directory"}});
}

// Aliases, keys and list entries given twice, and values of the wrong kind: each once crashed,
// picked one of two values silently, or said "bad conversion", "stoul" or "line 0".
void add_repeats_and_aliases(std::vector<BadInput>& out) {
  const auto v = [&](std::string name, const std::string& from, const std::string& to, std::vector<std::string> culprit) {
    out.push_back(case_variant(std::move(name), from, to, std::move(culprit)));
  };
  v("an alias inside its own anchor", "title: catalogue base", "title: &a [*a]", {"case.yaml:1", "alias"});
  v("a mesh that contains itself", "mesh:\n", "mesh: &m\n  self: *m\n", {"case.yaml:3", "alias"});
  v("a group given two materials", "  - {group: box, E: 210e9, nu: 0.3, density: 7800}\n",
    "  - {group: box, E: 210e9, nu: 0.3, density: 7800}\n  - {group: box, E: 1e3, nu: 0.3, density: 7800}\n",
    {"case.yaml:11", "group 'box' is given two materials", "lines 10 and 11"});
  v("two materials without a group", "  - {group: box, E: 210e9, nu: 0.3, density: 7800}\n",
    "  - {E: 210e9, nu: 0.3, density: 7800}\n  - {E: 1e3, nu: 0.3, density: 7800}\n", {"case.yaml:11", "two materials without a group"});
  v("a list inside the fix list", "fix: [x, y]", "fix: [[x], y]", {case_line("fix: [x, y]"), "'fix'"});
  v("a list inside the output fields", "directory: results", "directory: results\n  fields: [[stress]]", {"case.yaml:23", "'fields'"});
  v("no materials names the file's first line", "materials:\n  - {group: box, E: 210e9, nu: 0.3, density: 7800}\n", "",
    {"case.yaml:1", "'materials'"});
  const auto set = [&](std::string name, const std::string& command, const std::string& settings, std::vector<std::string> culprit) {
    out.push_back({std::move(name), {{"case.yaml", kCase}}, command + " case.yaml " + settings, std::move(culprit)});
  };
  for (const std::string command : {"run", "check", "compare --solvers cg:cpu"})
    set("--set with an alias inside its own anchor (" + command + ")", command, "--set 'title=&a [*a]'", {"--set title=&a [*a]", "alias"});
  set("--set with aliases", "run", "--set 'solver={method: &m cg, preconditioner: *m}'", {"--set solver=", "aliases"});
  set("--set with a key twice in its value", "run", "--set 'materials=[{group: box, E: 1, nu: 0.3, E: 5}]'",
      {"--set materials=", "'E' is given twice"});
  set("the same key twice through --set", "run", "--set materials.0.E=1 --set materials.0.E=2",
      {"'materials.0.E' is given twice", "--set materials.0.E=1", "--set materials.0.E=2"});
  set("a list index of 20 digits in --set", "run", "--set materials.99999999999999999999.E=1",
      {"--set materials.99999999999999999999.E=1", "past the end"});
  set("a list for a fix component through --set", "run", "--set 'boundary.0.fix=[[x]]'", {"case.yaml (--set)", "'fix'"});
  const auto study = [&](std::string name, const std::string& line, std::vector<std::string> culprit) {
    out.push_back({std::move(name), {{"case.yaml", kCase}, {"study.yaml", "case: case.yaml\n" + line + "\nsizes: [[4, 4]]\n"}},
                   "sweep study.yaml", std::move(culprit)});
  };
  study("a study's solvers that contain themselves", "solvers: &s [cg:cpu, *s]", {"study.yaml:2", "alias", "without end"});
  // Loops a user sets: a billion repeats once ran for ever past the time budget.
  study("a study repeated a billion times", "solvers: [cg:cpu]\nrepeat: 1000000000", {"study.yaml:3", "'repeat' must be 1 to"});
  study("a study's tolerance of NaN", "solvers: [cg:cpu]\ntolerance: .nan", {"study.yaml:3", "'tolerance'"});
  study("a study's solver tolerance the zero vector meets", "solvers: [cg:cpu]\nsolver: {tolerance: 5}", {"study.yaml:3", "zero vector"});
  set("compare repeated a billion times", "compare --solvers cg:cpu", "--repeat 1000000000", {"--repeat", "1000000000"});
  out.back().exit_code = 2;
  study("a study's budget that contains itself", "solvers: [cg:cpu]\nbudget: &b {time_s: *b}", {"study.yaml:3", "alias"});
}

// solver.petsc_options that would read or write files or load code through PETSc: refused when
// the case is read (whatever the method, whether or not this build has PETSc), naming the option.
void add_petsc_options(std::vector<BadInput>& out) {
  const auto p = [&](std::string name, const std::string& options, std::vector<std::string> culprit) {
    culprit.insert(culprit.begin(), "case.yaml:19");
    out.push_back(case_variant(std::move(name), "method: cg", "method: cg\n  petsc_options: '" + options + "'", std::move(culprit)));
  };
  p("petsc_options: a view to a file", "-ksp_view ascii:escaped.txt", {"'-ksp_view ascii:escaped.txt'", "console"});
  p("petsc_options: a quoted view to a file", "-ksp_type cg -ksp_view \"ascii:escaped.txt\"", {"'-ksp_view \"ascii:escaped.txt\"'"});
  p("petsc_options: a monitor to a binary file", "-ksp_monitor binary:escaped.bin", {"'-ksp_monitor binary:escaped.bin'"});
  p("petsc_options: a matrix to the default binary file", "-ksp_view_mat binary", {"'-ksp_view_mat binary'"});
  p("petsc_options: an endless options file", "-options_file /dev/zero", {"'-options_file'", "reads a file"});
  p("petsc_options: a library to load", "-dll_append ./libescaped.so", {"'-dll_append'", "loads code"});
  p("petsc_options: a debugger on error", "-on_error_attach_debugger", {"'-on_error_attach_debugger'"});
  p("petsc_options: a log to a file", "-log_view ascii:escaped.log", {"'-log_view'"});
  p("petsc_options: a Python preconditioner", "-pc_type python -pc_python_type escaped.PC", {"'-pc_type python'"});
  p("petsc_options: an option outside the families", "-foo 1", {"'-foo' is not among the PETSc options fem passes on"});
  p("petsc_options: no convergence test", "-ksp_convergence_test skip", {"'-ksp_convergence_test'", "test of convergence"});
  out.push_back({"petsc_options through --set", {{"case.yaml", kCase}}, "run case.yaml --set 'solver.petsc_options=-log_view ascii:escaped.log'",
                 {"case.yaml (--set)", "'-log_view'"}});
}

void add_command_lines(std::vector<BadInput>& out) {
  const auto c = [&](std::string name, std::string arguments, std::vector<std::string> culprit, int code) {
    out.push_back({std::move(name), {{"case.yaml", kCase}}, std::move(arguments), std::move(culprit), code});
  };
  c("no case file", "run", {"case", "required"}, 2);
  c("an unknown option", "run case.yaml --bogus", {"--bogus"}, 2);
  c("a tolerance that is not a number", "run case.yaml --tolerance abc", {"--tolerance", "abc"}, 2);
  c("a tolerance below double precision", "run case.yaml --tolerance 1e-300", {"--tolerance", "double precision"}, 1);
  c("a negative tolerance", "run case.yaml --tolerance -1", {"--tolerance"}, 1);
  // Non-finite or meaningless numbers on the command line: each once ran and wrote with exit 0.
  c("a NaN tolerance", "run case.yaml --tolerance nan", {"--tolerance", "finite number"}, 1);
  c("an infinite tolerance", "run case.yaml --tolerance inf", {"--tolerance", "finite number"}, 1);
  c("a tolerance past double's range", "run case.yaml --tolerance 1e999", {"--tolerance", "finite number"}, 1);
  c("a tolerance the zero vector meets", "run case.yaml --tolerance 1", {"--tolerance", "below 1"}, 1);
  c("a tolerance of 5 through --set", "run case.yaml --set solver.tolerance=5", {"--set", "zero vector", "below 1"}, 1);
  c("compare with a NaN agreement threshold", "compare case.yaml --solvers cg:cpu --tolerance nan", {"--tolerance", "finite", "nan"}, 2);
  c("compare with an infinite solver tolerance", "compare case.yaml --solvers cg:cpu --solver-tolerance inf", {"--solver-tolerance", "finite", "inf"}, 2);
  out.push_back({"a sweep with an infinite time budget", {{"case.yaml", kCase}, {"study.yaml", "case: case.yaml\nsolvers: [cg:cpu]\nsizes: [[4, 4]]\n"}},
                 "sweep study.yaml --time-budget inf", {"--time-budget", "finite", "inf"}, 2});
  c("an unknown solver", "run case.yaml --solver magic", {"--solver", "magic", "multifrontal"}, 2);
  c("an unknown device", "run case.yaml --device abacus", {"--device", "abacus", "opencl"}, 2);
  c("an unknown renumbering", "run case.yaml --renumber random", {"--renumber", "random", "sloan"}, 2);
  c("an unknown command", "frobnicate case.yaml", {"frobnicate"}, 2);
  c("compare without solvers", "compare case.yaml", {"--solvers"}, 2);
  c("compare with an unknown solver", "compare case.yaml --solvers magic:cpu", {"magic"}, 2);
  c("compare with an unknown renumbering", "compare case.yaml --solvers cg:cpu --renumber random", {"random"}, 2);
  c("an unknown benchmark", "bench nosuch", {"nosuch"}, 2);
  c("two case files", "run case.yaml other.yaml", {"other.yaml"}, 2);
  if (!FEM_WITH_CUDA)  // with CUDA and a GPU the row would solve
    c("compare with only an unavailable solver", "compare case.yaml --solvers cg:cuda", {"cg:cuda", "unavailable", "no solver"}, 1);
}

void add_meshes(std::vector<BadInput>& out, const std::string& msh) {
  const auto m = [&](std::string name, const std::string& from, const std::string& to, std::vector<std::string> culprit) {
    out.push_back({std::move(name), {{"case.yaml", kMshCase}, {"mesh.msh", replaced(msh, from, to)}}, "run case.yaml", std::move(culprit)});
  };
  // Element 2 of the file is the line "2 5 6" (a boundary line of nodes 5 and 6), on line 100.
  m("an element naming a negative node", "\n2 5 6 \n", "\n2 -5 6\n", {"mesh.msh:100", "element 2", "node -5"});
  m("an element naming node 2^31", "\n2 5 6 \n", "\n2 2147483648 6\n", {"mesh.msh:100", "element 2", "2147483648"});
  m("an element naming a node not in the file", "\n2 5 6 \n", "\n2 999 6\n", {"mesh.msh:100", "element 2", "node 999"});
  m("an element naming node 0", "\n2 5 6 \n", "\n2 0 6\n", {"mesh.msh:100", "node 0"});
  m("an element tag past 2^31", "\n2 5 6 \n", "\n4294967296 5 6\n", {"mesh.msh:100", "4294967296"});
  m("a NaN coordinate", "\n1 0 0\n", "\n1 nan 0\n", {"mesh.msh:31", "node 2", "not a finite number"});
  m("an infinite coordinate", "\n1 0 0\n", "\n1 inf 0\n", {"mesh.msh:31", "node 2"});
  m("a coordinate whose square overflows", "\n1 0 0\n", "\n1e200 0 0\n", {"mesh.msh: node 2 has a coordinate of 1e+200", "beyond the 1e+100"});
  m("a binary mesh", "4.1 0 8", "4.1 1 8", {"mesh.msh:2", "binary"});
  m("an unknown format version", "4.1 0 8", "3.0 0 8", {"mesh.msh:2", "version"});
  m("an element type Gmsh does not define", "\n1 1 1 4\n", "\n1 1 999 4\n", {"mesh.msh", "type 999"});
  m("more elements announced than given", "\n5 58 1 58\n", "\n5 59 1 58\n", {"mesh.msh", "58"});
  m("fewer elements announced than given", "\n1 1 1 4\n", "\n1 1 1 3\n", {"mesh.msh:102", "entity dimension 4"});
  m("a node block longer than its section", "\n9 30 1 30\n", "\n9 31 1 30\n", {"mesh.msh", "31"});
  m("a misspelt section", "$Elements", "$Elemants", {"mesh.msh", "$Elemants"});
  m("a repeated node tag", "\n0 2 0 1\n2\n", "\n0 2 0 1\n1\n", {"mesh.msh", "node tag 1 appears twice"});
  m("a word for a node tag", "\n0 2 0 1\n2\n", "\n0 2 0 1\ntwo\n", {"mesh.msh", "'two'"});
  out.push_back({"no elements", {{"case.yaml", kMshCase}, {"mesh.msh", replaced(replaced(msh, "$Elements", "$Comments"), "$EndElements", "$EndComments")}},
                 "run case.yaml", {"mesh.msh", "no $Elements section"}});
  out.push_back({"a truncated mesh", {{"case.yaml", kMshCase}, {"mesh.msh", msh.substr(0, msh.size() / 2)}}, "run case.yaml",
                 {"mesh.msh", "ends inside"}});
  out.push_back({"a folded triangle", {{"case.yaml", kFanCase}, {"fan.msh", replaced(kFan, "\n5 0.5 0.5 0\n", "\n5 1.5 0.5 0\n")}},
                 "run case.yaml", {"fan.msh", "element 12 (tri3, group 'plate') is folded"}});
  out.push_back({"a flat triangle", {{"case.yaml", kFanCase}, {"fan.msh", replaced(kFan, "\n5 0.5 0.5 0\n", "\n5 1 0.5 0\n")}},
                 "run case.yaml", {"fan.msh", "element 12 (tri3, group 'plate')", "degenerate"}});
  out.push_back({"an inverted tetrahedron", {{"case.yaml", kTetCase}, {"tet.msh", replaced(kTet, "2 4 2 2 2 1 2 3 4", "2 4 2 2 2 2 1 3 4")}},
                 "run case.yaml", {"tet.msh", "element 2 (tet4, group 'part') is inverted"}});
  out.push_back({"a surface beside a volume", {{"case.yaml", kTetCase}, {"tet.msh", kTet}}, "run case.yaml",
                 {"tet.msh", "element 3 (tri3, group 'skin') is not on any 3D element"}});
  // Meshes that do not conform: a quadratic triangle beside a linear one, an element pointing at
  // a far node, a tetrahedron three times over.
  out.push_back({"a hanging midside node", {{"case.yaml", kFanCase}, {"fan.msh", replaced(replaced(replaced(kFan,
                 "$Nodes\n5\n", "$Nodes\n7\n"), "5 0.5 0.5 0\n", "5 0.5 0.5 0\n6 0.5 0 0\n7 1 0.5 0\n"),
                 "5\n10 1 2 1 1 1 4\n11 2 2 2 1 1 2 5\n12 2 2 2 1 2 3 5\n13 2 2 2 1 3 4 5\n14 2 2 2 1 4 1 5\n",
                 "3\n10 1 2 1 1 4 1\n11 9 2 2 1 1 2 3 6 7 5\n12 2 2 2 2 1 3 4\n")}},
                 "run case.yaml", {"fan.msh", "element 11 (tri6, group 'plate') has nodes inside the edge", "element 12 (tri3", "hanging midside node"}});
  out.push_back({"an element pointing at a far node", {{"case.yaml", kFanCase}, {"fan.msh", replaced(replaced(replaced(kFan,
                 "$Nodes\n5\n", "$Nodes\n6\n"), "5 0.5 0.5 0\n", "5 0.5 0.5 0\n6 500 -200 0\n"), "\n12 2 2 2 1 2 3 5\n", "\n12 2 2 2 1 6 3 5\n")}},
                 "run case.yaml", {"fan.msh", "element 12 (tri3, group 'plate') is ", "times the size of element 13", "far"}});
  out.push_back({"a tetrahedron three times (the second overlaps the first)", {{"case.yaml", kTetCase}, {"tet.msh", replaced(replaced(kTet, "$Elements\n3\n", "$Elements\n4\n"),
                 "3 2 2 1 3 5 6 7\n", "4 4 2 2 2 1 2 3 4\n5 4 2 2 2 1 2 3 4\n")}},
                 "run case.yaml", {"tet.msh", "element 4 (tet4, group 'part') overlaps element 2", "same side"}});
  // A second tetrahedron on the same side of the face it shares with the first: they overlap.
  out.push_back({"two tetrahedra on one side of their shared face", {{"case.yaml", kTetCase}, {"tet.msh", replaced(replaced(replaced(kTet,
                 "$Nodes\n7\n", "$Nodes\n8\n"), "7 5 6 5\n", "7 5 6 5\n8 0.2 0.2 0.5\n"),
                 "$Elements\n3\n1 2 2 1 1 1 2 3\n2 4 2 2 2 1 2 3 4\n3 2 2 1 3 5 6 7\n",
                 "$Elements\n3\n1 2 2 1 1 1 2 3\n2 4 2 2 2 1 2 3 4\n3 4 2 2 2 1 2 3 8\n")}},
                 "run case.yaml", {"tet.msh", "element 3 (tet4, group 'part') overlaps element 2", "same side of the face they share"}});
  out.push_back({"a third tetrahedron on a face two already share", {{"case.yaml", kTetCase}, {"tet.msh", replaced(replaced(replaced(kTet,
                 "$Nodes\n7\n", "$Nodes\n9\n"), "7 5 6 5\n", "7 5 6 5\n8 0.3 0.3 -1\n9 0.2 0.2 0.5\n"),
                 "$Elements\n3\n1 2 2 1 1 1 2 3\n2 4 2 2 2 1 2 3 4\n3 2 2 1 3 5 6 7\n",
                 "$Elements\n3\n2 4 2 2 2 1 2 3 4\n3 4 2 2 2 1 3 2 8\n4 4 2 2 2 1 2 3 9\n")}},
                 "run case.yaml", {"tet.msh", "element 4 (tet4, group 'part') is a third element on a face of element 2"}});
}

// The fan with a second centre node at (x, 0.5) that element 12 uses: the fan split along its
// edges to node 2 and node 3 (a crack) when x is 0.5 or nearly.
std::string fan_split_at(const std::string& x) {
  return replaced(replaced(replaced(kFan, "$Nodes\n5\n", "$Nodes\n6\n"), "5 0.5 0.5 0\n", "5 0.5 0.5 0\n6 " + x + " 0.5 0\n"),
                  "\n12 2 2 2 1 2 3 5\n", "\n12 2 2 2 1 2 3 6\n");
}

// Cells that overlap without sharing a face, and parts with nodes of their own at one place.
void add_overlaps_and_cracks(std::vector<BadInput>& out) {
  const auto fan = [&](std::string name, const std::string& mesh, std::vector<std::string> culprit, const std::string& case_text = kFanCase) {
    out.push_back({std::move(name), {{"case.yaml", case_text}, {"fan.msh", mesh}}, "run case.yaml", std::move(culprit)});
  };
  const std::string allowed = replaced(kFanCase, "{msh: fan.msh}", "{msh: fan.msh, allow_unmerged_nodes: true}");
  // Element 12 given again as element 15, on nodes of its own at the same places.
  const std::string repeated = replaced(replaced(replaced(replaced(kFan, "$Nodes\n5\n", "$Nodes\n8\n"), "5 0.5 0.5 0\n",
                                                          "5 0.5 0.5 0\n6 1 0 0\n7 1 1 0\n8 0.5 0.5 0\n"),
                                                 "$Elements\n5\n", "$Elements\n6\n"),
                                        "14 2 2 2 1 4 1 5\n", "14 2 2 2 1 4 1 5\n15 2 2 2 1 6 7 8\n");
  fan("a mesh split by a duplicate node (a crack)", fan_split_at("0.5"),
      {"fan.msh: the node at (0.5, 0.5, 0) of element 11 (tri3, group 'plate') and the node at (0.5, 0.5, 0) of element 12",
       "0 apart but no element joins them", "crack", "mesh.allow_unmerged_nodes: true"});
  fan("a crack whose two sides are 1e-7 apart", fan_split_at("0.5000001"),
      {"fan.msh: the node at (0.5, 0.5, 0) of element 11", "(0.5000001, 0.5, 0) of element 12", "1e-07 apart", "crack"});
  fan("a triangle repeated on nodes of its own", repeated,
      {"fan.msh: element 12 (tri3, group 'plate') overlaps element 15 (tri3, group 'plate'): its centre", "lies inside it"});
  fan("a repeated triangle where unmerged nodes are allowed", repeated, {"fan.msh: element 12", "overlaps element 15"}, allowed);
  // A second fan moved by (0.3, 0.2) over the first, with nodes of its own.
  fan("a second square meshed into the first",
      replaced(replaced(replaced(replaced(kFan, "$Nodes\n5\n", "$Nodes\n10\n"), "5 0.5 0.5 0\n",
                        "5 0.5 0.5 0\n6 0.3 0.2 0\n7 1.3 0.2 0\n8 1.3 1.2 0\n9 0.3 1.2 0\n10 0.8 0.7 0\n"),
                        "$Elements\n5\n", "$Elements\n9\n"),
               "14 2 2 2 1 4 1 5\n", "14 2 2 2 1 4 1 5\n15 2 2 2 1 6 7 10\n16 2 2 2 1 7 8 10\n17 2 2 2 1 8 9 10\n18 2 2 2 1 9 6 10\n"),
      {"fan.msh: element 12 (tri3, group 'plate') overlaps element 15 (tri3, group 'plate')", "lies inside it"});
  // A tetrahedron with a corner of its own inside the unit one, sharing no node with it.
  out.push_back({"a tetrahedron reaching into another", {{"case.yaml", kTetCase}, {"tet.msh", replaced(replaced(replaced(kTet,
                 "$Nodes\n7\n", "$Nodes\n11\n"), "7 5 6 5\n", "7 5 6 5\n8 0.1 0.1 0.1\n9 3 0.2 0.2\n10 0.2 3 0.2\n11 0.2 0.2 3\n"),
                 "3 2 2 1 3 5 6 7\n", "3 4 2 2 2 8 9 10 11\n")}},
                 "run case.yaml", {"tet.msh: element 2 (tet4, group 'part') overlaps element 3 (tet4, group 'part')", "lies inside it"}});
  const auto key = [&](std::string name, const std::string& case_text, std::vector<std::string> culprit) {
    out.push_back({std::move(name), {{"case.yaml", case_text}, {"fan.msh", kFan}}, "run case.yaml", std::move(culprit)});
  };
  key("allow_unmerged_nodes on a box", replaced(kCase, "  element: quad\n", "  element: quad\n  allow_unmerged_nodes: true\n"),
      {"case.yaml:5", "'allow_unmerged_nodes' goes with 'geo' or 'msh'"});
  key("allow_unmerged_nodes that is not true or false", replaced(kFanCase, "{msh: fan.msh}", "{msh: fan.msh, allow_unmerged_nodes: maybe}"),
      {"case.yaml:1", "allow_unmerged_nodes", "true or false"});
}

// .geo files: Gmsh's errors, what a .geo may not do, and its time and memory budget.
void add_geo_files(std::vector<BadInput>& out) {
  const auto geo = [&](std::string name, const std::string& text, std::vector<std::string> culprit) {
    out.push_back({std::move(name), {{"case.yaml", replaced(kMshCase, "msh: mesh.msh", "geo: part.geo")}, {"part.geo", text}},
                   "run case.yaml", std::move(culprit)});
  };
  geo("a .geo syntax error", "Point(1) = {0, 0, 0, 1};\nLine(1) = {1, 2,;\n", {"part.geo", "syntax error"});
  geo("a .geo with lines only", "Point(1)={0,0,0,0.5}; Point(2)={1,0,0,0.5}; Line(1)={1,2};\n", {"part.geo", "no surface or volume"});
  geo("a .geo without the case's groups", "Point(1)={0,0,0,0.5}; Point(2)={1,0,0,0.5}; Point(3)={0,1,0,0.5};\n"
      "Line(1)={1,2}; Line(2)={2,3}; Line(3)={3,1}; Curve Loop(1)={1,2,3}; Plane Surface(1)={1};\n", {"case.yaml", "'square'"});
  // What a .geo may not do: refused by name and line before Gmsh reads it.
  const std::string square = "Point(1)={0,0,0,0.5}; Point(2)={1,0,0,0.5}; Point(3)={1,1,0,0.5}; Point(4)={0,1,0,0.5};\n"
                             "Line(1)={1,2}; Line(2)={2,3}; Line(3)={3,4}; Line(4)={4,1}; Curve Loop(1)={1,2,3,4}; Plane Surface(1)={1};\n";
  geo("a .geo that runs a command", square + "SystemCall \"touch ../escaped\";\n", {"part.geo:3", "'SystemCall'"});
  geo("a .geo that exits", "// Exit; in a comment is fine\n" + square + "Exit;\n", {"part.geo:4", "'Exit'"});
  geo("a .geo that prints to a file", square + "Printf(\"x\") > \"../escaped.txt\";\n", {"part.geo:3", "'Printf ... >'"});
  geo("a .geo that loops without bound", square + "i = 0;\nWhile (1)\n  i += 1;\nEndWhile\n", {"part.geo:4", "'While'"});
  geo("a .geo that includes a file outside its folder", "Include \"/etc/passwd\";\n" + square, {"part.geo:1", "outside"});
  geo("a .geo that merges a file that never ends", "Merge \"/dev/zero\";\n" + square, {"part.geo:1", "/dev/zero"});
  geo("a .geo that merges a name it builds", "Merge StrCat(\"a\", \".msh\");\n" + square, {"part.geo:1", "\"quoted\" file name"});
  // Degenerate surfaces: Gmsh fails inside its OpenMP loop over surfaces (once an abort).
  geo("a .geo surface on a line", "Point(1)={0,0,0,0.1}; Point(2)={1,0,0,0.1}; Point(3)={2,0,0,0.1};\n"
      "Line(1)={1,2}; Line(2)={2,3}; Line(3)={3,1}; Curve Loop(1)={1,2,3}; Plane Surface(1)={1};\n", {"part.geo", "meshing failed"});
  geo("a .geo surface that crosses itself", "Point(1)={0,0,0,0.1}; Point(2)={1,1,0,0.1}; Point(3)={1,0,0,0.1}; Point(4)={0,1,0,0.1};\n"
      "Line(1)={1,2}; Line(2)={2,3}; Line(3)={3,4}; Line(4)={4,1}; Curve Loop(1)={1,2,3,4}; Plane Surface(1)={1};\n",
      {"part.geo", "meshing failed"});
  // Gmsh runs in a child process under a time and memory budget (mesh.time_limit sets the time):
  // a .geo that never ends or that refines where its boundary mesh cannot show it is stopped.
  const auto limited = [&](std::string name, const std::string& text, std::vector<std::string> culprit) {
    out.push_back({std::move(name), {{"case.yaml", replaced(kMshCase, "msh: mesh.msh", "geo: part.geo\n  time_limit: 2")}, {"part.geo", text}},
                   "run case.yaml", std::move(culprit)});
  };
  limited("a .geo that loops without end (For)", square + "For i In {1:1e12}\n  x = i;\nEndFor\n",
          {"part.geo: Gmsh was stopped after", "while reading the file", "mesh.time_limit", "a loop (For)"});
  limited("a .geo macro that calls itself", square + "Macro A\n  Call A;\nReturn\nCall A;\n", {"part.geo: Gmsh", "while reading the file"});
  limited("a .geo that refines inside a field its boundary does not show", "Mesh.Algorithm = 1;\n" + square +
          "Field[1] = Ball; Field[1].Radius = 0.3; Field[1].XCenter = 0.5; Field[1].YCenter = 0.5; Field[1].VIn = 1e-5;\n"
          "Field[1].VOut = 0.5; Background Field = 1;\n",
          {"part.geo: Gmsh was stopped after", "while meshing the cells", "its cells were estimated at", "a Field"});
  limited("a .geo cube with a point size of its own far too small", "s = 1e-4;\nPoint(1)={0,0,0,s}; Point(2)={1,0,0,s}; Point(3)={1,1,0,s};"
          " Point(4)={0,1,0,s};\nLine(1)={1,2}; Line(2)={2,3}; Line(3)={3,4}; Line(4)={4,1}; Curve Loop(1)={1,2,3,4};"
          " Plane Surface(1)={1};\nExtrude {0,0,1} { Surface{1}; }\n",
          {"part.geo: Gmsh was stopped", "while meshing the boundary", "a point's size"});
  out.push_back(case_variant("a time limit on a box", "box: {size: [1, 1], divisions: [4, 4]}",
                             "box: {size: [1, 1], divisions: [4, 4]}\n  time_limit: 5", {"case.yaml:4", "'time_limit' goes with 'geo'"}));
  out.push_back({"a negative time limit", {{"case.yaml", replaced(kMshCase, "msh: mesh.msh", "geo: part.geo\n  time_limit: -1")}, {"part.geo", square}},
                 "run case.yaml", {"case.yaml:4", "'time_limit'", "positive"}});
  out.push_back({"an infinite time limit", {{"case.yaml", replaced(kMshCase, "msh: mesh.msh", "geo: part.geo\n  time_limit: .inf")}, {"part.geo", square}},
                 "run case.yaml", {"case.yaml:4", "'time_limit'", "finite"}});
  // 10^13 triangles: refused from the geometry's extent before Gmsh meshes even its boundary.
  out.push_back({"a .geo at a size far too small", {{"case.yaml", replaced(kMshCase, "msh: mesh.msh", "geo: part.geo\n  size: 1e-7")},
                 {"part.geo", "Point(1)={0,0,0,0.5}; Point(2)={1,0,0,0.5}; Point(3)={1,1,0,0.5}; Point(4)={0,1,0,0.5};\n"
                              "Line(1)={1,2}; Line(2)={2,3}; Line(3)={3,4}; Line(4)={4,1}; Curve Loop(1)={1,2,3,4}; Plane Surface(1)={1};\n"}},
                 "run case.yaml", {"part.geo", "cells", "mesh.size"}});
}

void add_matrices(std::vector<BadInput>& out) {
  const auto mm = [&](std::string name, const std::string& from, const std::string& to, std::vector<std::string> culprit) {
    out.push_back({std::move(name), {{"a.mtx", replaced(kMatrix, from, to)}}, "bench spmv --no-fe --no-opencl --csv spmv.csv a.mtx",
                   std::move(culprit)});
  };
  mm("more entries than the header", "\n3 3 4\n", "\n3 3 3\n", {"a.mtx:7", "more entries"});
  mm("fewer entries than the header", "\n3 3 4\n", "\n3 3 5\n", {"a.mtx", "announces 5"});
  mm("an upper-triangle entry in a symmetric file", "\n2 1 1\n", "\n1 2 1\n", {"a.mtx:5", "above the diagonal"});
  mm("a 2e9 x 2e9 matrix", "\n3 3 4\n", "\n2000000000 2000000000 2000000000\n", {"a.mtx:3", "2000000000 entries"});
  mm("a 3e9 x 3e9 matrix", "\n3 3 4\n", "\n3000000000 3000000000 4\n", {"a.mtx:3", "32-bit"});
  mm("more entries than a matrix holds", "\n3 3 4\n", "\n3 3 7\n", {"a.mtx:3", "cannot fit"});
  mm("a NaN value", "\n2 2 4\n", "\n2 2 nan\n", {"a.mtx:6", "not finite"});
  mm("an infinite value", "\n2 2 4\n", "\n2 2 1e999\n", {"a.mtx:6", "not finite"});
  mm("a word for a value", "\n2 2 4\n", "\n2 2 four\n", {"a.mtx:6", "'four'"});
  mm("an index out of range", "\n2 2 4\n", "\n9 2 4\n", {"a.mtx:6", "outside"});
  mm("not a Matrix Market banner", "%%MatrixMarket", "%%MatrixMerket", {"a.mtx:1"});
  mm("a complex matrix", "real symmetric", "complex symmetric", {"a.mtx:1", "complex"});
  mm("a non-square matrix", "\n3 3 4\n", "\n3 4 4\n", {"a.mtx:3", "not square"});
  mm("a negative size", "\n3 3 4\n", "\n-3 -3 4\n", {"a.mtx:3", "negative"});
  mm("no size line", "\n3 3 4\n1 1 4\n2 1 1\n2 2 4\n3 3 4\n", "\n", {"a.mtx", "size line"});
  mm("a skew-symmetric diagonal", "real symmetric", "real skew-symmetric", {"a.mtx:4", "diagonal"});
  mm("duplicate entries that sum past the largest double", "\n3 3 4\n1 1 4\n", "\n3 3 5\n1 1 1e308\n1 1 1e308\n",
     {"a.mtx", "entry (1, 1) is given more than once", "sum past the largest double"});
  mm("a line without end", "% lower triangle of a small SPD matrix", "% " + std::string(70000, 'x'), {"a.mtx:2", "longer than"});
  out.push_back({"a Matrix Market file that never ends", {}, "bench spmv --no-fe --no-opencl --csv spmv.csv /dev/zero",
                 {"/dev/zero", "not a regular file"}});
  out.push_back({"a Matrix Market file that is not there", {}, "bench spmv --no-fe --no-opencl --csv spmv.csv none.mtx", {"none.mtx"}});
}

}  // namespace

std::vector<GoodInput> good_inputs(const std::string& msh_text) {
  std::vector<GoodInput> out{
      {"the base case", {{"case.yaml", kCase}}, "run case.yaml"},
      {"the base case with load cases",
       {{"case.yaml", with_load_cases("\n  - {name: a, boundary: [{group: xmax, traction: [0, 1e6]}]}\n  - {name: b}")}},
       "run case.yaml"},
      {"the base matrix", {{"a.mtx", kMatrix}}, "bench spmv --no-fe --no-opencl --csv spmv.csv a.mtx"}};
  if (FEM_WITH_GMSH) {  // .msh files are read by Gmsh: a build without it refuses them by design
    out.push_back({"the base mesh", {{"case.yaml", kMshCase}, {"mesh.msh", msh_text}}, "run case.yaml"});
    out.push_back({"the fan mesh", {{"case.yaml", kFanCase}, {"fan.msh", kFan}}, "run case.yaml"});
    out.push_back({"the fan split in two where that is meant",
                   {{"case.yaml", replaced(kFanCase, "{msh: fan.msh}", "{msh: fan.msh, allow_unmerged_nodes: true}")},
                    {"fan.msh", fan_split_at("0.5")}},
                   "run case.yaml"});
  }
  return out;
}

std::vector<BadInput> bad_inputs(const std::string& msh_text) {
  std::vector<BadInput> out;
  add_number_fields(out);
  add_list_fields(out);
  add_case_structure(out);
  add_load_cases(out);
  add_repeats_and_aliases(out);
  add_petsc_options(out);
  add_command_lines(out);
  if (FEM_WITH_GMSH) {
    add_meshes(out, msh_text);
    add_overlaps_and_cracks(out);
    add_geo_files(out);
  }
  add_matrices(out);
  return out;
}

}  // namespace fem::test
