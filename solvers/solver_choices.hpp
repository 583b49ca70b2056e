#pragma once
// The named choices of a solve, typed once where a case file or the command line gives them
// (fem/case, fem/pipeline/run_overrides) and carried as enums from there on: each with the names
// a user writes, for parsing, messages and summaries (support/named_choice.hpp).
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "support/named_choice.hpp"

namespace fem {

// The methods of the solver table, one per row (solvers/registry.cpp), and auto: a case's default,
// which becomes one of the others once the mesh gives the system's size
// (fem/resources/method_choice.hpp); make_solver refuses it, as it refuses a name it does not know.
enum class SolverMethodId { BandCholesky, BandGauss, BandLdlt, Frontal, Multifrontal, Cg, Bicgstab, Petsc, Mumps, Auto };
// Where a solver runs: the host, or the device of a back-end (kernels/).
enum class Device { Cpu, Cuda, OpenCl };

// solver.spmv: auto (a device picks its SpMV format on the matrix, as spmv_tuning says) or one of
// a device's own settings ("csr/wg64/r8"), which the device's back-end checks when the solver is
// made: each device has its own formats.
struct SpmvChoice {
  std::optional<std::string> setting;  // none: auto
  bool is_auto() const { return !setting; }
  // As a user writes it: "auto" or the setting.
  std::string name() const { return setting.value_or("auto"); }
  static SpmvChoice parse(std::string_view text) {
    return text == "auto" ? SpmvChoice{} : SpmvChoice{std::string(text)};
  }
  bool operator==(const SpmvChoice&) const = default;
};

// Auto is resolved by make_solver (effective_preconditioner); solvers never see it.
enum class Preconditioner { Auto, None, Jacobi, BlockJacobi, Ssor, Amg };
enum class Precision { Double, Mixed };  // direct solvers: Mixed factors in FP32 and refines in FP64
enum class AmgSmoother { Chebyshev, L1Jacobi };
// solver.amg.precision: how the AMG levels' matrices (operators, P, R) are stored on the back-end.
// Single halves the bytes each V-cycle streams; the cycle's vectors and its products' sums stay
// in double, and so does the Krylov method around it (its answer and tolerance are unchanged).
enum class AmgPrecision { Double, Single };
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

// The names in the order usage text lists the table's rows, auto last.
template <>
struct ChoiceNames<SolverMethodId> {
  static constexpr std::pair<SolverMethodId, const char*> names[] = {
      {SolverMethodId::BandCholesky, "band-cholesky"}, {SolverMethodId::BandGauss, "band-gauss"},
      {SolverMethodId::BandLdlt, "band-ldlt"},         {SolverMethodId::Frontal, "frontal"},
      {SolverMethodId::Multifrontal, "multifrontal"},  {SolverMethodId::Cg, "cg"},
      {SolverMethodId::Bicgstab, "bicgstab"},          {SolverMethodId::Petsc, "petsc"},
      {SolverMethodId::Mumps, "mumps"},                {SolverMethodId::Auto, "auto"}};
};

template <>
struct ChoiceNames<Device> {
  static constexpr std::pair<Device, const char*> names[] = {
      {Device::Cpu, "cpu"}, {Device::Cuda, "cuda"}, {Device::OpenCl, "opencl"}};
};

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
struct ChoiceNames<AmgPrecision> {
  static constexpr std::pair<AmgPrecision, const char*> names[] = {{AmgPrecision::Double, "double"},
                                                                   {AmgPrecision::Single, "single"}};
};

template <>
struct ChoiceNames<SpmvTuning> {
  static constexpr std::pair<SpmvTuning, const char*> names[] = {
      {SpmvTuning::Cache, "cache"}, {SpmvTuning::Fresh, "fresh"}, {SpmvTuning::Model, "model"}};
};

}  // namespace fem
