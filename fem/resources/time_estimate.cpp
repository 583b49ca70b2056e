#include "fem/resources/time_estimate.hpp"

#include <algorithm>
#include <cmath>

#include "solvers/direct/dense_flop_rate.hpp"
#include "solvers/solver_table.hpp"
#include "support/parallel_latency.hpp"
#include "support/stream_triad.hpp"

namespace fem::resources {
namespace {

// The fraction of the DGEMM rate each factorisation reaches, and the bytes an AMG-CG iteration
// and set-up move per nonzero, fitted to fem compare runs beside the rate probes
// (bench/results/2026-12-06-time-estimates.md).
constexpr double kBandEfficiency = 0.8;
constexpr double kFrontalEfficiency = 0.15;
constexpr double kNestedDissectionEfficiency3d = 0.5;  // 2D separators make smaller fronts
constexpr double kNestedDissectionEfficiency2d = 0.25;
constexpr double kAmgIterationBytesPerNonzero = 18;
constexpr double kAmgSetupBytesPerNonzero = 190;
constexpr double kGamgIterationFactor = 1.4;  // PETSc's GAMG: iterations against our AMG's
// How many empty parallel regions' time an AMG-CG iteration, its set-up and a one-level
// iteration lose when other processes hold the cores (fitted as above; nothing on idle cores).
constexpr double kAmgRegionsPerIteration = 5;
constexpr double kAmgSetupRegions = 30;
constexpr double kOneLevelRegionsPerIteration = 1;

// Iterations to reduce the residual by `tolerance`: a V-cycle's about 0.3 a step whatever the
// mesh; a one-level preconditioner's grow with the condition number, as the mesh's n^(1/dim).
double iterations(Preconditioner preconditioner, double tolerance, double dofs, int dimension) {
  const double digits = std::max(1.0, -std::log10(std::clamp(tolerance, 1e-16, 0.1)));
  if (preconditioner == Preconditioner::Amg || preconditioner == Preconditioner::Auto) return std::max(5.0, 1.6 * digits);
  return std::max(10.0, 0.95 * digits * std::pow(dofs, 1.0 / std::max(dimension, 1)));
}

// The flops of a nested-dissection factorisation, fitted as nested_dissection_entries is.
double nested_dissection_flops(const SystemSize& s) {
  const double n = static_cast<double>(s.dofs), d = s.dofs_per_node;
  return s.dimension == 3 ? 6.3 * d * n * n : 23 * std::pow(d, 1.5) * std::pow(n, 1.5);
}

}  // namespace

const MachineRates& machine_rates() {
  static const MachineRates rates{band::dense_flops_per_second(), stream_triad_bytes_per_second(std::size_t{1} << 23, 3),
                                  parallel_region_seconds()};
  return rates;
}

TimeEstimate estimate_time(SolverMethodId method, const SystemSize& s, const SolveWork& work,
                           const MachineRates& rates) {
  TimeEstimate e;
  const SolverMethod* row = find_solver_method(method);
  if (!row) {
    e.basis = "no estimate for this method";
    return e;
  }
  const double n = static_cast<double>(s.dofs), b = static_cast<double>(s.bandwidth), nnz = static_cast<double>(s.nnz);
  const double flops = std::max(rates.flops_per_second, 1e6), bandwidth = std::max(rates.bytes_per_second, 1e6);
  const Footprint& f = row->footprint;
  switch (f.shape) {
    case Footprint::Band:
    case Footprint::BandBothTriangles: {
      const bool lu = f.shape == Footprint::BandBothTriangles;
      e.flops = (lu ? 2 : 1) * n * b * b;
      e.prepare_s = e.flops / (kBandEfficiency * flops);
      e.per_solve_s = 2 * 8 * n * (lu ? 3 * b + 1 : b + 1) / bandwidth;
      e.basis = "n b^2 flops";
      if (lu) {  // the baselines factorise again for every right-hand side
        e.per_solve_s += e.prepare_s;
        e.prepare_s = 0;
      }
      break;
    }
    case Footprint::ProfileAndFront:  // eliminates the elements again for every right-hand side
      e.flops = n * s.rms_wavefront * s.rms_wavefront;
      e.per_solve_s = e.flops / (kFrontalEfficiency * flops) + 2 * 8 * static_cast<double>(s.profile) / bandwidth;
      e.basis = "n (rms wavefront)^2 flops";
      break;
    case Footprint::NestedDissectionFactor:
      e.flops = nested_dissection_flops(s);
      e.prepare_s =
          e.flops / ((s.dimension == 3 ? kNestedDissectionEfficiency3d : kNestedDissectionEfficiency2d) * flops);
      e.per_solve_s = 2 * 8.5 * nested_dissection_entries(s) / bandwidth;
      e.basis = std::string("nested-dissection factor of a ") + (s.dimension == 3 ? "3D" : "2D") + " mesh";
      break;
    case Footprint::KrylovVectors: {
      const bool own_preconditioner = takes_preconditioner(method);
      const Preconditioner p = own_preconditioner ? work.preconditioner : Preconditioner::Amg;
      const bool multigrid = p == Preconditioner::Amg || p == Preconditioner::Auto;
      e.iterations = iterations(p, work.tolerance, n, s.dimension) * (own_preconditioner ? 1 : kGamgIterationFactor);
      const double vector_bytes = 8.0 * f.vectors * n;
      const double latency = rates.parallel_region_s;
      const double per_iteration =
          multigrid ? (f.products * kAmgIterationBytesPerNonzero * nnz + vector_bytes) / bandwidth +
                          f.products * kAmgRegionsPerIteration * latency
                    : (f.products * 12 * nnz + vector_bytes) / bandwidth + f.products * kOneLevelRegionsPerIteration * latency;
      e.prepare_s = multigrid ? kAmgSetupBytesPerNonzero * nnz / bandwidth + kAmgSetupRegions * latency : 0;
      e.per_solve_s = e.iterations * per_iteration;
      e.basis = "about " + std::to_string(static_cast<long long>(std::lround(e.iterations))) + " iterations" +
                (multigrid ? (own_preconditioner ? " with AMG" : " with GAMG") : " with " + std::string(name_of(p)));
      break;
    }
  }
  return e;
}

}  // namespace fem::resources
