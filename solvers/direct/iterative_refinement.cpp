#include "solvers/direct/iterative_refinement.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace fem {

double relative_residual(const CsrMatrix& a, std::span<const double> b, std::span<const double> x, std::vector<double>& r) {
  r.resize(b.size());
  double rr = 0, bb = 0;
#pragma omp parallel for reduction(+ : rr, bb) schedule(static)
  for (std::int64_t i = 0; i < a.rows; ++i) {
    double sum = b[i];
    for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) sum -= a.val[k] * x[a.col[k]];
    r[i] = sum;
    rr += sum * sum;
    bb += b[i] * b[i];
  }
  return bb > 0 ? std::sqrt(rr / bb) : std::sqrt(rr);
}

bool refine(const CsrMatrix& a, std::span<const double> b, std::span<double> x,
            const std::function<void(std::vector<double>& r)>& correct, const SolverOptions& options, SolveReport& report) {
  constexpr int max_steps = 30;
  std::fill(x.begin(), x.end(), 0.0);
  std::vector<double> r(b.begin(), b.end());
  double previous = 1;
  for (int step = 1; step <= max_steps; ++step) {
    correct(r);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] += r[i];
    const double rel = relative_residual(a, b, x, r);
    report.residual_history.push_back(rel);
    report.residual = rel;
    report.figures["refinement_steps"] = step;
    if (options.progress) {
      char line[96];
      std::snprintf(line, sizeof line, "refinement step %d, residual %.2e", step, rel);
      options.progress(line);
    }
    if (rel <= options.tolerance) return true;
    if (!(rel < 0.5 * previous)) return false;  // stalled or diverging: FP32 is not enough here
    previous = rel;
  }
  return false;
}

}  // namespace fem
