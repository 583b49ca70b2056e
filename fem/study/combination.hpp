#pragma once
// One solver of a study: a method on a device, for iterative methods with a preconditioner, as
// written on the command line and in study files ("band-cholesky:cuda", "cg:cpu:amg"); on a
// modal case an eigen method of solvers/eigen_table.hpp, for shift-invert Lanczos with the linear
// method that factorises ("lanczos:cpu:multifrontal", "lobpcg:cpu:amg", "slepc:cpu").
#include <optional>
#include <string>
#include <vector>

#include "fem/case/analysis_spec.hpp"
#include "solvers/solver_choices.hpp"

namespace fem::study {

struct Combination {
  // A linear row's method. An eigen row's linear method: for lanczos the one that factorises
  // K - sigma M; for the others the one whose numbering goal and own ordering the row follows
  // (mumps for slepc, cg for lobpcg).
  SolverMethodId method = SolverMethodId::Cg;
  std::optional<EigenMethod> eigen_method;        // an eigen row (of a modal case)
  Device device = Device::Cpu;
  std::optional<Preconditioner> preconditioner;  // none given: the case's
  bool eigen() const { return eigen_method.has_value(); }
  // The method that factorises K - sigma M where the row names one (lanczos).
  std::optional<SolverMethodId> factorising_method() const;
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
