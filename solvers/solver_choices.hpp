#pragma once
// The named choices of a solve, typed once where a case file or the command line gives them
// (fem/case, fem/pipeline/run_overrides) and carried as enums from there on: each with the names
// a user writes, for parsing, messages and summaries (support/named_choice.hpp).
#include <utility>

#include "support/named_choice.hpp"

namespace fem {

// Auto is resolved by make_solver (effective_preconditioner); solvers never see it.
enum class Preconditioner { Auto, None, Jacobi, BlockJacobi, Ssor, Amg };
enum class Precision { Double, Mixed };  // direct solvers: Mixed factors in FP32 and refines in FP64
enum class AmgSmoother { Chebyshev, L1Jacobi };
enum class SpmvTuning { Cache, Fresh, Model };  // spmv: auto (kernels/shared/spmv_autotune.hpp)

template <>
struct ChoiceNames<Preconditioner> {
  static constexpr std::pair<Preconditioner, const char*> names[] = {{Preconditioner::Auto, "auto"},
                                                                     {Preconditioner::None, "none"},
                                                                     {Preconditioner::Jacobi, "jacobi"},
                                                                     {Preconditioner::BlockJacobi, "block-jacobi"},
                                                                     {Preconditioner::Ssor, "ssor"},
                                                                     {Preconditioner::Amg, "amg"}};
};

// What `auto` means: smoothed-aggregation AMG, which applies to every system fem assembles
// (elasticity with its rigid-body modes, heat with the constant) on every device and takes
// iterations that hardly grow with the mesh; Jacobi and the others remain to compare against.
constexpr Preconditioner effective_preconditioner(Preconditioner chosen) {
  return chosen == Preconditioner::Auto ? Preconditioner::Amg : chosen;
}

template <>
struct ChoiceNames<Precision> {
  static constexpr std::pair<Precision, const char*> names[] = {{Precision::Double, "double"}, {Precision::Mixed, "mixed"}};
};

template <>
struct ChoiceNames<AmgSmoother> {
  static constexpr std::pair<AmgSmoother, const char*> names[] = {{AmgSmoother::Chebyshev, "chebyshev"},
                                                                  {AmgSmoother::L1Jacobi, "l1-jacobi"}};
};

template <>
struct ChoiceNames<SpmvTuning> {
  static constexpr std::pair<SpmvTuning, const char*> names[] = {
      {SpmvTuning::Cache, "cache"}, {SpmvTuning::Fresh, "fresh"}, {SpmvTuning::Model, "model"}};
};

}  // namespace fem
