#include "fem/study/study_file.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>

#include "fem/case/case.hpp"
#include "fem/case/yaml_aliases.hpp"
#include "fem/case/yaml_section.hpp"
#include "fem/study/combination.hpp"

namespace fem::study {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> words(const Section& s, const char* key) {
  const YAML::Node n = s.get(key);
  std::vector<std::string> out;
  if (n.IsScalar()) return {n.as<std::string>()};
  if (!n.IsSequence() || n.size() == 0) s.fail(n, "'" + std::string(key) + "' must be a word or a list of words");
  for (const auto& item : n) {
    if (!item.IsScalar()) s.fail(item, "'" + std::string(key) + "' must be a list of words");
    out.push_back(item.as<std::string>());
  }
  return out;
}

std::vector<Combination> read_solvers(const Section& s) {
  if (!s.has("solvers")) s.fail(s.get("solvers"), "the study needs 'solvers': a list such as [band-cholesky:cpu, cg:cpu]");
  std::vector<Combination> out;
  const YAML::Node list = s.get("solvers");
  std::size_t i = 0;
  for (const auto& w : words(s, "solvers")) {
    const YAML::Node at = list.IsSequence() ? list[i++] : list;
    try {
      Combination c = parse_combination(w);
      if (std::any_of(out.begin(), out.end(), [&](const Combination& o) { return o.name() == c.name(); }))
        s.fail(at, "'" + w + "' is listed twice in 'solvers'");
      out.push_back(std::move(c));
    } catch (const std::invalid_argument& e) {
      s.fail(at, std::string("in 'solvers': ") + e.what());
    }
  }
  return out;
}

std::vector<StudySize> read_sizes(const Section& s, const Case& c) {
  const YAML::Node list = s.get("sizes");
  if (!list || !list.IsSequence() || list.size() == 0)
    s.fail(list ? list : YAML::Node(), "the study needs 'sizes': box divisions such as [[20, 4, 4], [40, 8, 8]] or element "
                                       "sizes such as [0.1, 0.05]");
  const bool box = c.mesh.source == MeshSpec::Source::Box;
  if (c.mesh.source == MeshSpec::Source::Msh)
    s.fail(list, "the case's mesh is a .msh file, which has one size; a sweep needs a 'box' or 'geo' mesh");
  std::vector<StudySize> sizes;
  for (const auto& item : list) {
    StudySize size;
    if (box) {
      const std::size_t dims = c.mesh.box.size.size();
      if (!item.IsSequence() || item.size() != dims)
        s.fail(item, "each size of a box case is its divisions: a list of " + std::to_string(dims) + " positive integers");
      double cells = 1;
      for (const auto& d : item) {
        int v = 0;
        try {
          v = d.as<int>();
        } catch (const YAML::Exception&) {
          s.fail(d, "box divisions must be positive integers");
        }
        if (v < 1) s.fail(d, "box divisions must be positive integers");
        size.divisions.push_back(v);
        size.label += (size.label.empty() ? "" : "x") + std::to_string(v);
        cells *= v;
      }
      size.smallness = cells;
    } else {
      double h = 0;
      try {
        if (!item.IsScalar()) throw YAML::Exception(item.Mark(), "");
        h = item.as<double>();
      } catch (const YAML::Exception&) {
        s.fail(item, "each size of a geo case is a target element size (a positive number)");
      }
      if (!(h > 0)) s.fail(item, "element sizes must be positive");
      size.element_size = h;
      char label[32];
      std::snprintf(label, sizeof label, "h=%g", h);
      size.label = label;
      size.smallness = 1 / h;
    }
    if (std::any_of(sizes.begin(), sizes.end(), [&](const StudySize& o) { return o.label == size.label; }))
      s.fail(item, "size " + size.label + " is listed twice");
    sizes.push_back(std::move(size));
  }
  std::stable_sort(sizes.begin(), sizes.end(), [](const StudySize& a, const StudySize& b) { return a.smallness < b.smallness; });
  return sizes;
}

}  // namespace

StudyFile load_study(const fs::path& file) {
  if (!fs::is_regular_file(file))
    throw CaseError(file.string() + (fs::exists(file) ? ": the study file is not a regular file (a device, pipe or folder)" : ": study file not found"));
  std::ifstream in(file, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in && !in.eof()) throw CaseError(file.string() + ": cannot read the study file");
  refuse_alias_cycles(text, file.string());
  YAML::Node doc;
  try {
    doc = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw CaseError(file.string() + ":" + std::to_string(e.mark.line + 1) + ": not valid YAML: " + e.msg);
  }
  const Section root(file, doc, "the study file",
                     {"title", "case", "solvers", "renumber", "sizes", "repeat", "tolerance", "budget", "solver", "output"});
  StudyFile study;
  study.file = fs::absolute(file);
  study.name = file.stem().string();
  const fs::path dir = study.file.parent_path();
  study.title = root.value_or<std::string>("title", "a string", study.name);

  study.case_file = fs::weakly_canonical(dir / root.text("case"));
  Case c;
  try {
    c = load_case(study.case_file);
  } catch (const CaseError& e) {
    root.fail(root.get("case"), std::string("the case does not load: ") + e.what());
  }
  study.settings.combinations = read_solvers(root);
  study.settings.renumberings = root.has("renumber") ? words(root, "renumber") : std::vector<std::string>{c.solver.renumber};
  for (const auto& r : study.settings.renumberings)
    if (std::none_of(kRenumberMethods.begin(), kRenumberMethods.end(), [&](const char* m) { return r == m; }))
      root.fail(root.get("renumber"), "'renumber' has '" + r + "'; expected none, rcm, gps, sloan or auto");
  study.sizes = read_sizes(root, c);
  study.settings.repeat = root.value_or<int>("repeat", "a positive integer", 1);
  if (study.settings.repeat < 1 || study.settings.repeat > kMaxRepeat)
    root.fail(root.get("repeat"), "'repeat' must be 1 to " + std::to_string(kMaxRepeat));
  if (root.has("tolerance")) study.settings.tolerance = root.positive("tolerance");
  if (root.has("budget")) {
    const Section b(file, root.get("budget"), "'budget'", {"time_s", "memory_bytes"});
    if (b.has("time_s")) study.settings.budget.time_s = b.positive("time_s");
    if (b.has("memory_bytes")) study.settings.budget.memory_bytes = b.positive("memory_bytes");
  }
  if (root.has("solver")) {
    const Section s(file, root.get("solver"), "'solver'", {"tolerance", "preconditioner", "precision"});
    if (s.has("tolerance")) {
      study.solver.tolerance = s.positive("tolerance");
      if (const std::string problem = tolerance_problem(*study.solver.tolerance); !problem.empty()) s.fail(s.get("tolerance"), problem);
    }
    if (s.has("preconditioner")) study.solver.preconditioner = s.text("preconditioner");
    if (s.has("precision")) study.solver.precision = s.text("precision");
    try {
      apply_overrides(c, study.solver);
    } catch (const CaseError& e) {
      s.fail(root.get("solver"), e.what());
    }
  }
  study.output = fs::weakly_canonical(dir / root.value_or<std::string>("output", "a string", "results/" + study.name));
  return study;
}

}  // namespace fem::study
