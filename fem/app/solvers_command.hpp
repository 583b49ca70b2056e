#pragma once
// `fem solvers`: the solver table as this build has it. One line per method (its kind, its
// devices with those this build lacks starred, what it is), which also ends the --help of the
// commands that take a solver, and then how to configure each starred one.
#include <iosfwd>
#include <string>

namespace fem {

std::string solver_lines();

void list_solvers(std::ostream& out);

}  // namespace fem
