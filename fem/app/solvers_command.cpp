#include "fem/app/solvers_command.hpp"

#include <cstdio>
#include <ostream>

#include "solvers/eigen_table.hpp"
#include "solvers/solver_table.hpp"

namespace fem {

std::string solver_lines() {
  std::string text = "Solvers (method, kind, devices; * not in this build: fem solvers says how to add it):\n";
  for (const auto& method : solver_table()) {
    std::string devices;
    for (const auto& device : method.devices) devices += (devices.empty() ? "" : " ") + std::string(device.name()) + (device.built() ? "" : "*");
    char line[300];
    std::snprintf(line, sizeof line, "  %-14s %-10s %-18s %s\n", method.name(), method.kind == SolverKind::Direct ? "direct" : "iterative",
                  devices.c_str(), method.help);
    text += line;
  }
  return text;
}

void list_solvers(std::ostream& out) {
  out << solver_lines() << "\n" << eigen_lines();
  bool header = false;
  for (const auto& method : solver_table())
    for (const auto& device : method.devices)
      if (!device.built()) {
        if (!header) out << "\nNot in this build:\n";
        header = true;
        char line[300];
        std::snprintf(line, sizeof line, "  %-20s %s\n", (std::string(method.name()) + ":" + device.name()).c_str(), device.missing().c_str());
        out << line;
      }
  for (const auto& method : eigen_table())
    if (!method.needs.built) out << (header ? "" : "\nNot in this build:\n") << "  " << method.name << ": " << method.needs.how << "\n";
}

}  // namespace fem
