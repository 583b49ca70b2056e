#pragma once
// One solver of a study: a method on a device, for iterative methods with a preconditioner, as
// written on the command line and in study files ("band-cholesky:cuda", "cg:cpu:amg"); on a
// modal case an eigen method of solvers/eigen_table.hpp, for shift-invert Lanczos with the linear
// method that factorises ("lanczos:cpu:multifrontal", "lobpcg:cpu:amg", "slepc:cpu").
#include <optional>
#include <string>
#include <vector>

#include "solvers/solver_choices.hpp"

namespace fem::study {

struct Combination {
  std::string method;
  std::string device;
  std::optional<Preconditioner> preconditioner;  // none given: the case's
  std::string linear_method;                      // lanczos: the method that factorises K - sigma M
  bool eigen() const;                             // an eigen method (a row of a modal case)
  std::string name() const;
};

// "method:device" or "method:device:preconditioner" (iterative methods) with names from the
// solver table, or an eigen row ("lanczos:device:method", "lobpcg:device[:amg]", "slepc:device"),
// built here or not (a solver this build lacks is a study row marked unavailable); throws
// std::invalid_argument naming the bad entry and what is accepted.
Combination parse_combination(const std::string& text);

// `c` as it runs: an iterative method without a preconditioner of its own gets the case's
// (`fallback`), auto resolved, so that its rows name what they used.
Combination with_preconditioner(Combination c, Preconditioner fallback);

// A comma-separated list of them, in the order given (the first is the reference); duplicates
// are refused.
std::vector<Combination> parse_combinations(const std::string& list);

// Eigen rows for a modal case, linear ones for any other: throws std::invalid_argument naming
// the first row that does not fit (`what` names the case for the message).
void require_rows_fit(const std::vector<Combination>& rows, bool modal, const std::string& what);

}  // namespace fem::study
