#include "fem/case/case.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <initializer_list>
#include <set>
#include <sstream>

#include "fem/case/case_settings.hpp"
#include "fem/case/petsc_options_check.hpp"
#include "fem/case/read_analysis.hpp"
#include "fem/case/read_time_table.hpp"
#include "fem/case/yaml_aliases.hpp"
#include "fem/case/yaml_section.hpp"
#include "solvers/solver_table.hpp"

namespace fem {
namespace {

namespace fs = std::filesystem;

template <class Enum>
Enum choose(const Section& s, const char* key, std::initializer_list<std::pair<const char*, Enum>> options,
            Enum fallback) {
  if (!s.has(key)) return fallback;
  const auto word = s.text(key);
  std::string list;
  for (const auto& [name, value] : options) {
    if (word == name) return value;
    list += std::string(list.empty() ? "" : ", ") + name;
  }
  s.fail(s.get(key), "'" + std::string(key) + "' is '" + word + "'; expected one of: " + list);
}

std::string choose_word(const Section& s, const char* key, const std::vector<const char*>& options,
                        const std::string& fallback) {
  if (!s.has(key)) return fallback;
  const auto word = s.text(key);
  std::string list;
  for (const char* o : options) {
    if (word == o) return word;
    list += std::string(list.empty() ? "" : ", ") + o;
  }
  s.fail(s.get(key), "'" + std::string(key) + "' is '" + word + "'; expected one of: " + list);
}

// A named choice (support/named_choice.hpp: the solver's, the output's compression) by its name.
template <class Choice>
Choice choose_choice(const Section& s, const char* key, Choice fallback) {
  return *parse_choice<Choice>(choose_word(s, key, choice_names<Choice>(), name_of(fallback)));
}

fs::path existing_file(const Section& s, const char* key, const fs::path& case_dir) {
  const fs::path p = fs::weakly_canonical(case_dir / s.text(key));
  if (!fs::is_regular_file(p))
    s.fail(s.get(key), "'" + std::string(key) + "' file " + (fs::exists(p) ? "is not a regular file (a device, pipe or folder): " : "not found: ") + p.string());
  return p;
}

MeshSpec read_mesh(const Section& root, const fs::path& dir, const fs::path& file) {
  root.require("mesh", "the case needs a 'mesh' section (geo, msh or box)");
  const Section s(file, root.get("mesh"), "'mesh'", {"geo", "msh", "box", "element", "order", "size", "serendipity", "time_limit", "allow_unmerged_nodes"});
  MeshSpec m;
  const int sources = int(s.has("geo")) + int(s.has("msh")) + int(s.has("box"));
  if (sources != 1) s.fail(root.get("mesh"), "'mesh' needs exactly one of 'geo', 'msh' or 'box'");
  if (s.has("element")) {
    try {
      m.shape = parse_element_shape(s.text("element"));
    } catch (const std::invalid_argument& e) {
      s.fail(s.get("element"), e.what());
    }
  }
  m.order = s.value_or<int>("order", "1 or 2", 1);
  if (m.order != 1 && m.order != 2) s.fail(s.get("order"), "'order' must be 1 (linear) or 2 (quadratic)");
  m.serendipity = s.value_or<bool>("serendipity", "true or false", false);
  if (s.has("size")) m.size = s.positive("size");
  if (s.has("time_limit")) {
    if (!s.has("geo")) s.fail(s.get("time_limit"), "'time_limit' goes with 'geo' (the seconds Gmsh may take to mesh it)");
    m.time_limit = s.positive("time_limit");
  }
  if (s.has("allow_unmerged_nodes")) {
    if (s.has("box")) s.fail(s.get("allow_unmerged_nodes"), "'allow_unmerged_nodes' goes with 'geo' or 'msh' (a box has no unmerged nodes)");
    m.allow_unmerged_nodes = s.value_or<bool>("allow_unmerged_nodes", "true or false", false);
  }
  if (s.has("geo")) {
    m.source = MeshSpec::Source::Geo;
    m.file = existing_file(s, "geo", dir);
  } else if (s.has("msh")) {
    m.source = MeshSpec::Source::Msh;
    m.file = existing_file(s, "msh", dir);
  } else {
    m.source = MeshSpec::Source::Box;
    const Section b(file, s.get("box"), "'mesh.box'", {"size", "divisions", "origin"});
    m.box.size = b.numbers("size", 2, 3);
    if (b.has("origin")) m.box.origin = b.numbers("origin", m.box.size.size(), m.box.size.size());
    const auto divisions = b.numbers("divisions", m.box.size.size(), m.box.size.size());
    for (double d : divisions) {
      if (!(d >= 1 && d <= kMaxBoxDivisions) || d != static_cast<int>(d))
        b.fail(b.get("divisions"), "'divisions' must be positive integers (at most " + std::to_string(kMaxBoxDivisions) + ")");
      m.box.divisions.push_back(static_cast<int>(d));
    }
    for (double x : m.box.size)
      if (!(x > 0)) b.fail(b.get("size"), "box 'size' must be positive");
    const bool is3d = m.box.size.size() == 3;
    m.box.shape = m.shape.value_or(is3d ? ElementShape::Hexahedron : ElementShape::Quadrilateral);
    const int shape_dim = element_info(element_type_for(m.box.shape, 1)).dimension;
    if (shape_dim != static_cast<int>(m.box.size.size()))
      s.fail(s.get("element"), std::string("a ") + (is3d ? "3D box needs 'tet' or 'hex'" : "2D box needs 'tri' or 'quad'") +
                                   " elements");
    m.box.order = m.order;
    m.box.serendipity = m.serendipity;
  }
  return m;
}

PhysicsSpec read_physics(const Section& root, const fs::path& file) {
  root.require("physics", "the case needs a 'physics' section (type: elasticity or heat)");
  const Section s(file, root.get("physics"), "'physics'", {"type", "model", "thickness"});
  PhysicsSpec p;
  p.type = choose<PhysicsType>(s, "type", {{"elasticity", PhysicsType::Elasticity}, {"heat", PhysicsType::Heat}},
                               PhysicsType::Elasticity);
  p.model = choose<ElasticModel>(s, "model",
                                 {{"plane_stress", ElasticModel::PlaneStress},
                                  {"plane_strain", ElasticModel::PlaneStrain},
                                  {"axisymmetric", ElasticModel::Axisymmetric},
                                  {"3d", ElasticModel::Solid3D}},
                                 ElasticModel::Solid3D);
  if (s.has("thickness")) {
    if (p.model == ElasticModel::Axisymmetric)
      s.fail(s.get("thickness"), "an axisymmetric model has no thickness: its results are for the full ring (2 pi r)");
    p.thickness = s.positive("thickness");
  }
  return p;
}

std::vector<MaterialSpec> read_materials(const Section& root, const fs::path& file, PhysicsType physics) {
  const YAML::Node list = root.get("materials");
  if (!list || !list.IsSequence() || list.size() == 0)
    root.fail(list, "the case needs 'materials': a list such as - {group: part, E: 210e9, nu: 0.3}");
  std::vector<MaterialSpec> out;
  std::map<std::string, int> group_lines;  // a group given two materials would silently get the last
  for (const auto& item : list) {
    const Section s(file, item, "a 'materials' entry",
                    {"group", "E", "nu", "density", "k", "specific_heat", "alpha", "reference_temperature", "name"});
    MaterialSpec m;
    m.line = s.line();
    m.group = s.value_or<std::string>("group", "a string", "");
    if (const auto [first, inserted] = group_lines.emplace(m.group, m.line); !inserted)
      s.fail(item, (m.group.empty() ? std::string("two materials without a group (for every other cell)")
                                    : "group '" + m.group + "' is given two materials") +
                       ": lines " + std::to_string(first->second) + " and " + std::to_string(m.line) + "; keep one");
    if (physics == PhysicsType::Elasticity) {
      m.E = s.positive("E");
      m.nu = s.number("nu");
      if (!(m.nu > -1 && m.nu < 0.5)) s.fail(s.get("nu"), "'nu' must lie in (-1, 0.5)");
      if (s.has("density")) m.density = s.positive("density");
      // No default stress-free temperature: 0 would silently load a part given in kelvin.
      if (s.has("alpha") != s.has("reference_temperature"))
        s.fail(item, "'alpha' and 'reference_temperature' (the temperature free of thermal strain) go together");
      if (s.has("alpha")) {
        m.alpha = s.number("alpha");
        if (*m.alpha < 0) s.fail(s.get("alpha"), "'alpha' must not be negative");
        m.reference_temperature = s.number("reference_temperature");
      }
    } else {
      m.k = s.positive("k");
      if (s.has("density")) m.density = s.positive("density");
      if (s.has("specific_heat")) m.specific_heat = s.positive("specific_heat");
    }
    out.push_back(m);
  }
  return out;
}

std::array<bool, 3> read_components(const Section& s, const YAML::Node& n) {
  std::array<bool, 3> c{};
  const auto bad = [&] { s.fail(n, "'fix' must be a list of components from x, y, z (or 'all')"); };
  if (n.IsScalar() && n.as<std::string>() == "all") return {true, true, true};
  if (!n.IsSequence() || n.size() == 0) bad();
  for (const auto& item : n) {
    if (!item.IsScalar()) bad();
    const auto w = item.as<std::string>();
    if (w == "x") c[0] = true;
    else if (w == "y") c[1] = true;
    else if (w == "z") c[2] = true;
    else bad();
  }
  return c;
}

std::vector<BoundarySpec> read_boundary(const Section& root, const fs::path& file, PhysicsType physics) {
  std::vector<BoundarySpec> out;
  const YAML::Node list = root.get("boundary");
  if (!list) return out;
  if (!list.IsSequence()) root.fail(list, "'boundary' must be a list of {group: ..., <condition>: ...}");
  using K = BoundarySpec::Kind;
  for (const auto& item : list) {
    const Section s(file, item, "a 'boundary' entry",
                    {"group", "fix", "displacement", "traction", "pressure", "temperature", "flux", "convection", "force",
                     "moment", "about", "whole_region"});
    BoundarySpec b;
    b.line = s.line();
    b.group = s.text("group");
    b.whole_region = s.value_or<bool>("whole_region", "true or false", false);
    const bool elastic = physics == PhysicsType::Elasticity;
    int kinds = 0;
    const auto need = [&](const char* key, bool for_elasticity) {
      if (!s.has(key)) return false;
      ++kinds;
      if (for_elasticity != elastic)
        s.fail(s.get(key), "'" + std::string(key) + "' is a " + (for_elasticity ? "elasticity" : "heat") +
                               " condition but the physics is " + (elastic ? "elasticity" : "heat"));
      return true;
    };
    if (need("fix", true)) {
      b.kind = K::Fix;
      b.component = read_components(s, s.get("fix"));
    }
    if (need("displacement", true)) {
      b.kind = K::Displacement;
      const Section d(file, s.get("displacement"), "'displacement'", {"x", "y", "z"});
      const char* names[] = {"x", "y", "z"};
      for (int c = 0; c < 3; ++c)
        if (d.has(names[c])) {
          b.component[c] = true;
          b.vector[c] = d.number(names[c]);
        }
    }
    if (need("traction", true)) {
      b.kind = K::Traction;
      const auto t = s.numbers("traction", 2, 3);
      std::copy(t.begin(), t.end(), b.vector.begin());
    }
    if (need("pressure", true)) {
      b.kind = K::Pressure;
      b.value = s.number("pressure");
    }
    if (need("temperature", false)) {
      b.kind = K::Temperature;
      b.value = read_time_value(s, "temperature", "temperature", b.table);
    }
    if (need("flux", false)) {
      b.kind = K::Flux;
      b.value = read_time_value(s, "flux", "flux", b.table);
    }
    if (need("force", true)) {
      b.kind = K::Force;
      const auto f = s.numbers("force", 2, 3);
      std::copy(f.begin(), f.end(), b.vector.begin());
    }
    if (need("moment", true)) {
      b.kind = K::Moment;
      if (s.get("moment").IsScalar()) {
        b.vector[2] = s.number("moment");  // about z: the 2D moment
      } else {
        const auto m = s.numbers("moment", 3, 3);
        std::copy(m.begin(), m.end(), b.vector.begin());
      }
    }
    if (s.has("about")) {
      // A couple has the same moment about every point: the point is checked, not needed.
      if (b.kind != K::Moment) s.fail(s.get("about"), "'about' goes with 'moment'");
      s.numbers("about", 2, 3);
    }
    if (need("convection", false)) {
      b.kind = K::Convection;
      const Section c(file, s.get("convection"), "'convection'", {"h", "T_inf"});
      // h is part of the matrix C/dt + theta K that a transient run prepares once: it stays a number.
      if (c.has("h") && c.get("h").IsSequence())
        c.fail(c.get("h"), "'h' in 'convection' must be a number: it is part of the matrix, which a transient run "
                           "prepares once for every step (T_inf may be a table of (t, value) pairs)");
      b.h = c.positive("h");
      b.T_inf = read_time_value(c, "T_inf", "T_inf", b.table);
    }
    if (b.table) b.table->group = b.group;
    if (kinds != 1)
      s.fail(item, "a 'boundary' entry needs exactly one condition (fix, displacement, traction, pressure, force, "
                   "moment, temperature, flux or convection) beside its group");
    if (s.has("whole_region") && b.kind != K::Fix && b.kind != K::Displacement && b.kind != K::Temperature)
      s.fail(s.get("whole_region"), "'whole_region' goes with fix, displacement or temperature (it holds every node of a region)");
    out.push_back(b);
  }
  return out;
}

// loads.temperature: a uniform or solved temperature field for thermal strain, on every material.
void read_temperature(const Section& s, const fs::path& file, PhysicsType physics, Case& c) {
  if (physics != PhysicsType::Elasticity)
    s.fail(s.get("temperature"), "'loads.temperature' (thermal strain) needs elasticity physics");
  c.temperature = read_temperature_load(s, file);
  for (const auto& m : c.materials)
    if (!m.alpha)
      throw CaseError(file.string() + ":" + std::to_string(m.line) + ": 'loads.temperature' needs 'alpha' and "
                      "'reference_temperature' for material " + (m.group.empty() ? "(all)" : m.group) +
                      " (alpha: 0 for one that does not expand)");
}

// A load case's right-hand side holds body and boundary loads only.
void read_temperature(const Section& s, const fs::path&, PhysicsType, LoadCaseSpec&) {
  s.fail(s.get("temperature"), "a load case cannot set 'temperature': the thermal load goes in the common 'loads', "
                               "where every load case shares it");
}

// The 'loads' mapping of the case or of one of its load cases, into out.gravity, out.source and
// (the case's) out.temperature.
template <class Loads>
void read_loads(const Section& owner, const fs::path& file, PhysicsType physics, Loads& out) {
  if (!owner.has("loads")) return;
  const Section s(file, owner.get("loads"), "'loads'", {"gravity", "source", "temperature"});
  if (s.has("gravity")) {
    if (physics != PhysicsType::Elasticity) s.fail(s.get("gravity"), "'gravity' needs elasticity physics");
    const auto g = s.numbers("gravity", 2, 3);
    out.gravity = std::array<double, 3>{g[0], g[1], g.size() > 2 ? g[2] : 0.0};
  }
  if (s.has("source")) {
    if (physics != PhysicsType::Heat) s.fail(s.get("source"), "'source' needs heat physics");
    out.source = read_time_value(s, "source", "source", out.source_table);
  }
  if (s.has("temperature")) read_temperature(s, file, physics, out);
}

// A load case's name becomes part of a file name (<case>-<name>.vtu): nothing that a file
// system or a shell reads otherwise.
bool is_file_name_part(const std::string& name) {
  return !name.empty() && name.size() <= 64 && name.front() != '.' &&
         std::all_of(name.begin(), name.end(), [](char ch) {
           return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_' ||
                  ch == '-' || ch == '.';
         });
}

// Every load case is solved with the one matrix the common boundary gives (one factorisation),
// so a load case adds loads only: a support, a prescribed value or a convection would change it.
std::vector<LoadCaseSpec> read_load_cases(const Section& root, const fs::path& file, PhysicsType physics) {
  std::vector<LoadCaseSpec> out;
  if (!root.has("load_cases")) return out;
  const YAML::Node list = root.get("load_cases");
  if (!list.IsSequence() || list.size() == 0)
    root.fail(list, "'load_cases' must be a list of one or more {name: ..., boundary: [...], loads: {...}} "
                    "(leave it out for one load set)");
  std::map<std::string, int> name_lines;  // two cases of one name would write the same files
  using K = BoundarySpec::Kind;
  for (const auto& item : list) {
    const Section s(file, item, "a 'load_cases' entry", {"name", "boundary", "loads"});
    LoadCaseSpec lc;
    lc.line = s.line();
    lc.name = s.text("name");
    if (!is_file_name_part(lc.name))
      s.fail(s.get("name"), "load case name '" + lc.name + "' names its result file <case>-<name>.vtu: use 1 to 64 "
                            "letters, digits, '_', '-' or '.' (not first)");
    if (const auto [first, inserted] = name_lines.emplace(lc.name, lc.line); !inserted)
      s.fail(s.get("name"), "load case '" + lc.name + "' is given twice: lines " + std::to_string(first->second) +
                                " and " + std::to_string(lc.line) + "; each needs its own name (it names the result files)");
    lc.boundary = read_boundary(s, file, physics);
    for (const auto& b : lc.boundary) {
      const bool held = b.kind == K::Fix || b.kind == K::Displacement || b.kind == K::Temperature;
      if (held || b.kind == K::Convection)
        throw CaseError(file.string() + ":" + std::to_string(b.line) + ": load case '" + lc.name + "': " +
                        (held ? "supports and prescribed values (fix, displacement, temperature)"
                              : "'convection'") +
                        " belong in the common 'boundary': every load case is solved with the one matrix the common "
                        "boundary gives, and a load case adds loads only (traction, pressure, flux, gravity, source)");
    }
    read_loads(s, file, physics, lc);
    out.push_back(std::move(lc));
  }
  return out;
}

AmgOptions read_amg(const Section& solver, const fs::path& file) {
  AmgOptions amg;
  if (!solver.has("amg")) return amg;
  const Section s(file, solver.get("amg"), "'solver.amg'", {"strength_threshold", "smoother", "smoother_degree", "coarse_size", "precision"});
  amg.strength_threshold = s.value_or<double>("strength_threshold", "a number", amg.strength_threshold);
  if (!(amg.strength_threshold >= 0 && amg.strength_threshold < 1))
    s.fail(s.get("strength_threshold"), "'strength_threshold' in 'solver.amg' must be in [0, 1)");
  amg.smoother = choose_choice(s, "smoother", amg.smoother);
  amg.smoother_degree = s.value_or<int>("smoother_degree", "an integer", amg.smoother_degree);
  if (amg.smoother_degree < 1 || amg.smoother_degree > 10)
    s.fail(s.get("smoother_degree"), "'smoother_degree' in 'solver.amg' must be 1 to 10");
  amg.coarse_size = s.value_or<int>("coarse_size", "an integer", amg.coarse_size);
  if (amg.coarse_size < 1 || amg.coarse_size > 8000)
    s.fail(s.get("coarse_size"), "'coarse_size' in 'solver.amg' must be 1 to 8000 (the coarsest level is factored)");
  amg.precision = choose_choice(s, "precision", amg.precision);
  return amg;
}

SolverSpec read_solver(const Section& root, const fs::path& file) {
  SolverSpec sv;
  if (!root.has("solver")) return sv;
  const Section s(file, root.get("solver"), "'solver'",
                  {"method", "device", "renumber", "tolerance", "preconditioner", "max_iterations", "precision", "out_of_core", "spmv", "spmv_tuning", "petsc_options", "amg", "require_convergence"});
  sv.method = *parse_choice<SolverMethodId>(choose_word(s, "method", case_solver_methods(), name_of(sv.method)));
  sv.device = *parse_choice<Device>(choose_word(s, "device", solver_devices(), name_of(sv.device)));
  sv.renumber = choose_word(s, "renumber", kRenumberMethods, sv.renumber);
  sv.preconditioner = choose_choice(s, "preconditioner", sv.preconditioner);
  sv.precision = choose_choice(s, "precision", sv.precision);
  if (s.has("tolerance")) {
    sv.tolerance = s.positive("tolerance");
    if (const std::string problem = tolerance_problem(sv.tolerance); !problem.empty()) s.fail(s.get("tolerance"), problem);
  }
  sv.max_iterations = s.value_or<int>("max_iterations", "an integer", 0);
  if (sv.max_iterations < 0) s.fail(s.get("max_iterations"), "'max_iterations' must not be negative (0: the solver's default)");
  sv.out_of_core = s.value_or<bool>("out_of_core", "true or false", false);
  sv.require_convergence = s.value_or<bool>("require_convergence", "true or false", false);
  sv.spmv = SpmvChoice::parse(s.value_or<std::string>("spmv", "a string", sv.spmv.name()));
  sv.spmv_tuning = choose_choice(s, "spmv_tuning", sv.spmv_tuning);
  sv.petsc_options = s.value_or<std::string>("petsc_options", "a string", sv.petsc_options);
  if (const auto problem = petsc_options_problem(sv.petsc_options); !problem.empty()) s.fail(s.get("petsc_options"), problem);
  sv.amg = read_amg(s, file);
  return sv;
}

// YAML is UTF-8: a file that is not (a Latin-1 title, say) is refused before parsing, at its line.
void check_utf8(const fs::path& file, const std::string& text) {
  int line = 1;
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    const int extra = c < 0x80 ? 0 : (c >> 5) == 0x6 ? 1 : (c >> 4) == 0xE ? 2 : (c >> 3) == 0x1E ? 3 : -1;
    bool ok = extra >= 0 && i + extra < text.size() && !(c == 0xC0 || c == 0xC1 || c > 0xF4);
    for (int k = 1; ok && k <= extra; ++k) ok = (static_cast<unsigned char>(text[i + k]) >> 6) == 0x2;
    if (!ok) throw CaseError(file.string() + ":" + std::to_string(line) + ": not valid UTF-8 text (save the file as UTF-8)");
    if (c == '\n') ++line;
    i += 1 + extra;
  }
}

Case read_case(const fs::path& file, const YAML::Node& doc) {
  const Section root(file, doc, "the case file",
                     {"title", "mesh", "physics", "materials", "boundary", "loads", "load_cases", "solver", "output",
                      "analysis"});
  Case c;
  c.file = fs::absolute(file);
  c.name = file.stem().string();
  const fs::path dir = c.file.parent_path();
  c.title = root.value_or<std::string>("title", "a string", c.name);
  c.mesh = read_mesh(root, dir, file);
  c.physics = read_physics(root, file);
  c.materials = read_materials(root, file, c.physics.type);
  c.boundary = read_boundary(root, file, c.physics.type);
  read_loads(root, file, c.physics.type, c);
  c.load_cases = read_load_cases(root, file, c.physics.type);
  c.solver = read_solver(root, file);
  c.analysis = read_analysis(root, file);
  c.output.directory = dir / "results";
  if (root.has("output")) {
    const Section s(file, root.get("output"), "'output'", {"directory", "fields", "compression", "moments_about"});
    if (s.has("directory")) c.output.directory = dir / s.text("directory");
    if (s.has("moments_about")) {
      const auto point = s.numbers("moments_about", 2, 3);
      std::copy(point.begin(), point.end(), c.output.moments_about.begin());
    }
    c.output.compression = choose_choice(s, "compression", c.output.compression);
    if (s.has("fields")) {
      const YAML::Node f = s.get("fields");
      if (!f.IsSequence()) s.fail(f, "'fields' must be a list of field names");
      static const std::set<std::string> known = {"displacement", "stress", "strain", "von_mises", "principal_stress",
                                                  "tresca", "principal_directions", "reaction", "temperature", "heat_flux"};
      for (const auto& item : f) {
        if (!item.IsScalar()) s.fail(item, "'fields' must be a list of field names");
        const auto w = item.as<std::string>();
        if (!known.count(w))
          s.fail(item, "unknown output field '" + w +
                           "' (expected: displacement, stress, strain, von_mises, principal_stress, tresca, "
                           "principal_directions, reaction, temperature, heat_flux)");
        c.output.fields.push_back(w);
      }
    }
  }
  c.output.directory = fs::weakly_canonical(c.output.directory);
  const bool gravity = c.gravity || std::any_of(c.load_cases.begin(), c.load_cases.end(),
                                                [](const LoadCaseSpec& lc) { return lc.gravity.has_value(); });
  if (c.physics.type == PhysicsType::Elasticity && gravity) {
    for (const auto& m : c.materials)
      if (m.density <= 0)
        throw CaseError(file.string() + ":" + std::to_string(m.line) +
                        ": 'loads.gravity' needs a 'density' for material " + (m.group.empty() ? "(all)" : m.group));
  }
  check_analysis(c);
  return c;
}

}  // namespace

std::vector<const TimeTable*> time_tables(const Case& c) {
  std::vector<const TimeTable*> out;
  const auto add = [&](const std::vector<BoundarySpec>& boundary, const std::optional<TimeTable>& source) {
    for (const auto& b : boundary)
      if (b.table) out.push_back(&*b.table);
    if (source) out.push_back(&*source);
  };
  add(c.boundary, c.source_table);
  for (const auto& lc : c.load_cases) add(lc.boundary, lc.source_table);
  return out;
}

std::vector<const char*> case_solver_methods() {
  std::vector<const char*> methods = solver_methods();
  methods.push_back(name_of(SolverMethodId::Auto));
  return methods;
}

std::string tolerance_problem(double tolerance) {
  std::ostringstream text;
  text << tolerance;
  if (!std::isfinite(tolerance) || !(tolerance > 0)) return "tolerance " + text.str() + " must be a finite number above 0";
  if (tolerance >= 1)
    return "tolerance " + text.str() + " is met by the zero vector (a relative residual of 1) without solving anything; use a tolerance below 1";
  if (tolerance < kSmallestTolerance)
    return "tolerance " + text.str() +
           " is below what double precision can reach (relative residuals stop near 1e-16 times the condition number); "
           "use 1e-15 or more";
  return "";
}

ElementShape parse_element_shape(const std::string& name) {
  if (name == "tri") return ElementShape::Triangle;
  if (name == "quad") return ElementShape::Quadrilateral;
  if (name == "tet") return ElementShape::Tetrahedron;
  if (name == "hex") return ElementShape::Hexahedron;
  throw std::invalid_argument("element '" + name + "' is not one of: tri, quad, tet, hex");
}

Case load_case(const fs::path& file, const std::vector<std::string>& settings) {
  if (!fs::is_regular_file(file))
    throw CaseError(file.string() + (fs::exists(file) ? ": the case file is not a regular file (a device, pipe or folder)" : ": case file not found"));
  std::ifstream in(file, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in && !in.eof()) throw CaseError(file.string() + ": cannot read the case file");
  check_utf8(file, text);
  refuse_alias_cycles(text, file.string());
  YAML::Node doc;
  try {
    doc = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw CaseError(file.string() + ":" + std::to_string(e.mark.line + 1) + ": not valid YAML: " + e.msg);
  }
  if (doc.IsNull()) {
    // yaml-cpp reads some malformed text (a line beginning with ',') as an empty document.
    std::istringstream lines(text);
    std::string line;
    for (int number = 1; std::getline(lines, line); ++number) {
      const auto first = line.find_first_not_of(" \t\r");
      if (first != std::string::npos && line[first] != '#')
        throw CaseError(file.string() + ":" + std::to_string(number) + ": not YAML that holds a case ('" +
                        line.substr(first, 40) + "' gives no key: value); cases/README.md shows what a case holds");
    }
    throw CaseError(file.string() + ":1: the case file is empty (cases/README.md shows what it holds)");
  }
  apply_case_settings(doc, settings);
  try {
    return read_case(file, doc);
  } catch (const YAML::Exception& e) {  // a conversion a Section did not anticipate
    throw CaseError(file.string() + (e.mark.is_null() ? std::string(settings.empty() ? "" : " (--set)")
                                                      : ":" + std::to_string(e.mark.line + 1)) +
                    ": a value of the wrong kind (" + e.msg + ")");
  }
}

}  // namespace fem
