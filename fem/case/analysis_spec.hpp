#pragma once
// The 'analysis' section of a case file: what is computed from the discretised problem.
#include <optional>

namespace fem {

enum class AnalysisType { Static, Modal };

// How the mass matrix is integrated: consistently (from the shape functions) or lumped onto the diagonal.
enum class MassLumping { Consistent, Lumped };

// The eigen solver of a modal analysis: shift-invert Lanczos on the case's linear solver, or
// LOBPCG preconditioned by AMG (solver.amg), which factorises nothing.
enum class EigenMethod { Lanczos, Lobpcg };

struct AnalysisSpec {
  AnalysisType type = AnalysisType::Static;
  int modes = 10;                      // modal: how many natural frequencies, lowest first
  std::optional<double> shift_hz;      // modal: look for the modes nearest above this frequency
  MassLumping mass = MassLumping::Consistent;  // modal
  EigenMethod method = EigenMethod::Lanczos;   // modal
  int line = 0;                        // where the section was written, for messages
};

}  // namespace fem
