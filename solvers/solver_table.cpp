#include "solvers/solver_table.hpp"

#include <algorithm>

namespace fem {
namespace {

std::string comma_separated(const std::vector<const char*>& names) {
  std::string list;
  for (const char* name : names) list += (list.empty() ? "" : ", ") + std::string(name);
  return list;
}

const SolverDevice* find_device(const SolverMethod& method, Device device) {
  const auto it = std::find_if(method.devices.begin(), method.devices.end(), [&](const SolverDevice& d) { return device == d.device; });
  return it == method.devices.end() ? nullptr : &*it;
}

}  // namespace

bool SolverDevice::built() const {
  return factory != nullptr && std::all_of(needs.begin(), needs.end(), [](const BuildOption& o) { return o.built; });
}

std::string SolverDevice::missing() const {
  std::string how;
  for (const auto& option : needs)
    if (!option.built) how += (how.empty() ? "" : ", and ") + std::string(option.how);
  return how;
}

std::vector<const char*> solver_methods() {
  std::vector<const char*> names;
  for (const auto& method : solver_table()) names.push_back(name_of(method.id));
  return names;
}

std::vector<const char*> solver_devices() {
  std::vector<const char*> names;  // in the order the table first names them
  for (const auto& method : solver_table())
    for (const auto& device : method.devices)
      if (std::none_of(names.begin(), names.end(), [&](const char* n) { return std::string(n) == name_of(device.device); }))
        names.push_back(name_of(device.device));
  return names;
}

const SolverMethod* find_solver_method(SolverMethodId method) {
  const auto& table = solver_table();
  const auto it = std::find_if(table.begin(), table.end(), [&](const SolverMethod& m) { return method == m.id; });
  return it == table.end() ? nullptr : &*it;
}

std::string unknown_solver_name(const std::string& method, const std::string& device) {
  const auto methods = solver_methods();
  if (std::none_of(methods.begin(), methods.end(), [&](const char* m) { return method == m; }))
    return "unknown method '" + method + "' (expected one of: " + comma_separated(solver_methods()) + ")";
  const auto devices = solver_devices();
  if (std::none_of(devices.begin(), devices.end(), [&](const char* d) { return device == d; }))
    return "unknown device '" + device + "' (expected one of: " + comma_separated(devices) + ")";
  return "";
}

std::string solver_unavailable_reason(SolverMethodId method, Device device) {
  const std::string name = name_of(method), device_name = name_of(device);
  if (auto unknown = unknown_solver_name(name, device_name); !unknown.empty()) return unknown;
  const SolverMethod& m = *find_solver_method(method);
  const SolverDevice* d = find_device(m, device);
  if (!d) {
    std::vector<const char*> devices;
    for (const auto& on : m.devices) devices.push_back(name_of(on.device));
    return name + " is not available on " + device_name + " (" + name + " runs on: " + comma_separated(devices) + ")";
  }
  if (!d->built()) return name + " on " + device_name + " is not available in this build (" + d->missing() + ")";
  return "";
}

void require_available_solver(SolverMethodId method, Device device) {
  if (auto why = solver_unavailable_reason(method, device); !why.empty()) throw SolverUnavailable(why);
}

std::vector<std::string> available_solvers() {
  std::vector<std::string> names;
  for (const auto& method : solver_table())
    for (const auto& device : method.devices)
      if (device.built()) names.push_back(std::string(name_of(method.id)) + ":" + name_of(device.device));
  return names;
}

std::string own_ordering_used(SolverMethodId method, const SolveReport& report) {
  const SolverMethod* row = find_solver_method(method);
  if (!row || row->footprint.shape != Footprint::NestedDissectionFactor) return "";
  const auto mumps = report.figures.find("mumps_ordering");
  if (mumps == report.figures.end()) return "nested dissection (METIS)";
  // MUMPS's INFOG(7): the ordering its analysis chose.
  static const char* const names[] = {"AMD", "given", "AMF", "SCOTCH", "PORD", "METIS", "QAMD"};
  const auto code = static_cast<int>(mumps->second);
  return std::string("MUMPS ") + (code >= 0 && code <= 6 ? names[code] : "ordering " + std::to_string(code));
}

bool takes_preconditioner(SolverMethodId method) {
  const SolverMethod* row = find_solver_method(method);
  return row && row->kind == SolverKind::Iterative && row->processes == Processes::One;
}

std::unique_ptr<LinearSolver> make_solver(const SolverOptions& options) {
  require_available_solver(options.method, options.device);
  SolverOptions resolved = options;
  resolved.preconditioner = effective_preconditioner(options.preconditioner);
  return find_device(*find_solver_method(options.method), options.device)->factory(resolved);
}

}  // namespace fem
