#pragma once
// The 'analysis' section of a case file: what is computed from the discretised problem.
#include <optional>
#include <string>
#include <utility>

#include "support/named_choice.hpp"

namespace fem {

enum class AnalysisType { Static, Modal, Transient };

// How the mass matrix is integrated: consistently (from the shape functions) or lumped onto the diagonal.
enum class MassLumping { Consistent, Lumped };

// The eigen solver of a modal analysis: shift-invert Lanczos on the case's linear solver,
// LOBPCG preconditioned by AMG (solver.amg), which factorises nothing, or SLEPc's Krylov-Schur
// with MUMPS shift-invert (solvers/eigen_table.hpp).
enum class EigenMethod { Lanczos, Lobpcg, Slepc };

// analysis.method's names: lanczos, lobpcg, slepc (the eigen table's, solvers/eigen_table.hpp).
template <>
struct ChoiceNames<EigenMethod> {
  static constexpr std::pair<EigenMethod, const char*> names[] = {
      {EigenMethod::Lanczos, "lanczos"}, {EigenMethod::Lobpcg, "lobpcg"}, {EigenMethod::Slepc, "slepc"}};
};

inline std::optional<EigenMethod> parse_eigen_method(const std::string& name) { return parse_choice<EigenMethod>(name); }

struct AnalysisSpec {
  AnalysisType type = AnalysisType::Static;
  int modes = 10;                      // modal: how many natural frequencies, lowest first
  std::optional<double> shift_hz;      // modal: look for the modes nearest above this frequency
  MassLumping mass = MassLumping::Consistent;  // modal, transient
  EigenMethod method = EigenMethod::Lanczos;   // modal
  // transient (heat, theta-method): steps of time_step up to end_time from a uniform
  // initial_temperature; theta 1 backward Euler, 0.5 Crank-Nicolson; fields every output_every steps.
  double end_time = 0, time_step = 0, theta = 1, initial_temperature = 0;
  int output_every = 0;                // 0: chosen so that about 20 steps are written
  int line = 0;                        // where the section was written, for messages
};

}  // namespace fem
