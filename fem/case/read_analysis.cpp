#include "fem/case/read_analysis.hpp"

namespace fem {

AnalysisSpec read_analysis(const Section& root, const std::filesystem::path& file) {
  AnalysisSpec a;
  if (!root.has("analysis")) return a;
  const Section s(file, root.get("analysis"), "'analysis'", {"type", "modes", "shift", "mass", "method"});
  a.line = s.line();
  const auto type = s.value_or<std::string>("type", "a string", "static");
  if (type == "modal") a.type = AnalysisType::Modal;
  else if (type != "static") s.fail(s.get("type"), "'type' is '" + type + "'; expected one of: static, modal");
  for (const char* key : {"modes", "shift", "mass", "method"})
    if (s.has(key) && a.type != AnalysisType::Modal)
      s.fail(s.get(key), "'" + std::string(key) + "' goes with 'type: modal'");
  a.modes = s.value_or<int>("modes", "an integer", a.modes);
  if (a.modes < 1) s.fail(s.get("modes"), "'modes' must be at least 1");
  if (s.has("shift")) a.shift_hz = s.number("shift");
  const auto mass = s.value_or<std::string>("mass", "a string", "consistent");
  if (mass == "lumped") a.mass = MassLumping::Lumped;
  else if (mass != "consistent") s.fail(s.get("mass"), "'mass' is '" + mass + "'; expected one of: consistent, lumped");
  const auto method = s.value_or<std::string>("method", "a string", "lanczos");
  if (method == "lobpcg") a.method = EigenMethod::Lobpcg;
  else if (method != "lanczos") s.fail(s.get("method"), "'method' is '" + method + "'; expected one of: lanczos, lobpcg");
  return a;
}

void check_analysis(const Case& c) {
  if (c.analysis.type != AnalysisType::Modal) return;
  const std::string at = c.file.string() + ":";
  if (c.physics.type != PhysicsType::Elasticity)
    throw CaseError(at + std::to_string(c.analysis.line) +
                    ": a modal analysis needs elasticity physics (heat has no natural frequencies; its time response "
                    "will be a transient analysis)");
  for (const auto& m : c.materials)
    if (!(m.density > 0))
      throw CaseError(at + std::to_string(m.line) + ": a modal analysis needs a 'density' for material " +
                      (m.group.empty() ? "(all)" : m.group));
}

}  // namespace fem
