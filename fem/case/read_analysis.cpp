#include "fem/case/read_analysis.hpp"

#include <cmath>

namespace fem {
namespace {

// Which analysis types take a key besides 'type', as the message names them.
std::string types_of(const std::string& key) {
  if (key == "mass") return "'type: modal' or 'type: transient'";
  if (key == "modes" || key == "shift" || key == "method") return "'type: modal'";
  return "'type: transient'";
}

void read_transient(const Section& s, AnalysisSpec& a) {
  s.require("end_time", "a transient analysis needs 'end_time' (seconds)");
  s.require("time_step", "a transient analysis needs 'time_step' (seconds)");
  s.require("initial_temperature", "a transient analysis needs 'initial_temperature'");
  a.end_time = s.positive("end_time");
  a.time_step = s.positive("time_step");
  const double steps = a.end_time / a.time_step;
  // One step length throughout: the matrix C/dt + theta K is prepared once.
  if (steps < 0.5 || std::abs(steps - std::round(steps)) > 1e-6 * steps)
    s.fail(s.get("time_step"), "'end_time' must be a whole number of 'time_step's (the step is fixed: its matrix is "
                               "prepared once)");
  if (steps > 1e7) s.fail(s.get("time_step"), "'end_time' / 'time_step' is more than 10 million steps");
  a.initial_temperature = s.number("initial_temperature");
  if (s.has("theta")) a.theta = s.number("theta");
  if (!(a.theta >= 0.5 && a.theta <= 1))
    s.fail(s.get("theta"), "'theta' must lie in [0.5, 1] (1 backward Euler, 0.5 Crank-Nicolson; below 0.5 the "
                           "method is only conditionally stable)");
  a.output_every = s.value_or<int>("output_every", "an integer", 0);
  if (s.has("output_every") && a.output_every < 1) s.fail(s.get("output_every"), "'output_every' must be at least 1");
}

}  // namespace

int transient_steps(const AnalysisSpec& a) {
  return static_cast<int>(std::lround(a.end_time / a.time_step));
}

AnalysisSpec read_analysis(const Section& root, const std::filesystem::path& file) {
  AnalysisSpec a;
  if (!root.has("analysis")) return a;
  const Section s(file, root.get("analysis"), "'analysis'",
                  {"type", "modes", "shift", "mass", "method", "end_time", "time_step", "theta", "initial_temperature",
                   "output_every"});
  a.line = s.line();
  const auto type = s.value_or<std::string>("type", "a string", "static");
  if (type == "modal") a.type = AnalysisType::Modal;
  else if (type == "transient") a.type = AnalysisType::Transient;
  else if (type != "static") s.fail(s.get("type"), "'type' is '" + type + "'; expected one of: static, modal, transient");
  for (const char* key : {"modes", "shift", "mass", "method", "end_time", "time_step", "theta", "initial_temperature",
                          "output_every"})
    if (s.has(key) && types_of(key).find("'type: " + type + "'") == std::string::npos)
      s.fail(s.get(key), "'" + std::string(key) + "' goes with " + types_of(key));
  a.modes = s.value_or<int>("modes", "an integer", a.modes);
  if (a.modes < 1) s.fail(s.get("modes"), "'modes' must be at least 1");
  if (s.has("shift")) a.shift_hz = s.number("shift");
  const auto mass = s.value_or<std::string>("mass", "a string", "consistent");
  if (mass == "lumped") a.mass = MassLumping::Lumped;
  else if (mass != "consistent") s.fail(s.get("mass"), "'mass' is '" + mass + "'; expected one of: consistent, lumped");
  const auto method = s.value_or<std::string>("method", "a string", "lanczos");
  if (const auto parsed = parse_eigen_method(method)) a.method = *parsed;
  else s.fail(s.get("method"), "'method' is '" + method + "'; expected one of: lanczos, lobpcg, slepc");
  if (a.type == AnalysisType::Transient) read_transient(s, a);
  return a;
}

void check_analysis(const Case& c) {
  const std::string at = c.file.string() + ":";
  const auto tables = time_tables(c);
  if (!tables.empty() && c.analysis.type != AnalysisType::Transient)
    throw CaseError(at + std::to_string(tables.front()->line) + ": '" + tables.front()->key +
                    "' is a table of (t, value) pairs, which only a transient analysis follows (analysis: {type: "
                    "transient, ...}); a " + (c.analysis.type == AnalysisType::Modal ? "modal" : "static") +
                    " analysis takes a number");
  if (c.analysis.type == AnalysisType::Static) return;
  const bool modal = c.analysis.type == AnalysisType::Modal;
  if (modal && c.physics.type != PhysicsType::Elasticity)
    throw CaseError(at + std::to_string(c.analysis.line) +
                    ": a modal analysis needs elasticity physics (heat has no natural frequencies; its time response "
                    "is a transient analysis)");
  if (!modal && c.physics.type != PhysicsType::Heat)
    throw CaseError(at + std::to_string(c.analysis.line) +
                    ": a transient analysis needs heat physics (elastic dynamics is not implemented)");
  if (!modal && !c.load_cases.empty())
    throw CaseError(at + std::to_string(c.analysis.line) + ": a transient analysis takes no 'load_cases'");
  for (const auto& m : c.materials) {
    const std::string name = m.group.empty() ? "(all)" : m.group;
    if (!(m.density > 0))
      throw CaseError(at + std::to_string(m.line) + ": a " + (modal ? "modal" : "transient") +
                      " analysis needs a 'density' for material " + name);
    if (!modal && !(m.specific_heat > 0))
      throw CaseError(at + std::to_string(m.line) + ": a transient analysis needs a 'specific_heat' for material " + name);
  }
}

}  // namespace fem
