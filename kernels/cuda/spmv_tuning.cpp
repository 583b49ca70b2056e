#include "kernels/cuda/spmv_tuning.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace fem::kernels::cuda {
namespace {

int power_of_two_at_most(double v, int lo, int hi) {
  int p = lo;
  while (p * 2 <= hi && p * 2 <= v) p *= 2;
  return p;
}

bool same(const SpmvSetting& a, const SpmvSetting& b) { return to_string(a) == to_string(b); }

}  // namespace

SpmvSetting model_setting(const RowStats& stats) {
  SpmvSetting s;
  if (stats.block3) {
    // One lane per block, a team about half as wide as a block row is long.
    s.format = SpmvFormat::Bcsr;
    s.threads_per_row = power_of_two_at_most(stats.mean / 3 / 2, 1, 32);
    return s;
  }
  const bool uniform = stats.mean > 0 && stats.stddev < 0.2 * stats.mean && stats.max < 2 * stats.mean + 4;
  if (uniform && stats.mean < 16) {
    s.format = SpmvFormat::Sell;
    return s;
  }
  // The tunable-CSR paper's observation: a team of a quarter of the mean row length.
  s.format = SpmvFormat::CsrVector;
  s.threads_per_row = power_of_two_at_most(stats.mean / 4, 1, 32);
  return s;
}

std::vector<SpmvSetting> candidate_settings(const RowStats& stats) {
  std::vector<SpmvSetting> c;
  auto add = [&](SpmvFormat f, int t) {
    SpmvSetting s;
    s.format = f;
    s.threads_per_row = t;
    c.push_back(s);
  };
  for (int t : {2, 4, 8, 16, 32}) add(SpmvFormat::CsrVector, t);
  add(SpmvFormat::CsrScalar, 1);
  add(SpmvFormat::Sell, 1);
  add(SpmvFormat::Ell, 1);
  add(SpmvFormat::Hyb, 1);
  if (stats.diagonals <= 64) add(SpmvFormat::Dia, 1);
  if (stats.block3)
    for (int t : {1, 2, 4, 8, 16, 32}) add(SpmvFormat::Bcsr, t);
  return c;
}

TuningReport tune_spmv(const CsrMatrix& a, double budget_seconds) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - t0).count(); };
  const RowStats stats = row_statistics(a);
  TuningReport report;
  report.model = model_setting(stats);
  std::vector<double> ones(static_cast<std::size_t>(a.rows), 1.0);
  DeviceVector x(ones.size()), y(ones.size());
  x.upload(ones.data());
  // Enough repeats to cover launch noise, fewer on big matrices.
  const int repeats = std::clamp(static_cast<int>(2e8 / std::max<double>(1.0, 12.0 * a.nnz())), 3, 50);
  auto time_one = [&](const SpmvSetting& s) {
    TimedSetting t{s, 0.0, {}};
    try {
      const DeviceSpmv spmv(a, s);
      t.seconds = time_spmv(spmv, x.data(), y.data(), repeats);
    } catch (const FormatRefused& e) {
      t.refused = e.what();
    }
    report.tried.push_back(t);
    return t;
  };
  auto consider = [&](const TimedSetting& t) {
    if (t.seconds > 0 && (report.best_seconds == 0 || t.seconds < report.best_seconds)) {
      report.best = t.setting;
      report.best_seconds = t.seconds;
    }
  };
  const TimedSetting model = time_one(report.model);
  report.model_seconds = model.seconds;
  consider(model);
  for (const auto& s : candidate_settings(stats)) {
    if (elapsed() > budget_seconds) break;
    if (!same(s, report.model)) consider(time_one(s));
  }
  // Then the launch parameters of the best format.
  const SpmvSetting base = report.best;
  for (int block : {128, 512, 1024})
    for (int cap : {32, 64, 255}) {
      if (elapsed() > budget_seconds) break;
      if (cap == 255 && block > 256) continue;
      SpmvSetting s = base;
      s.block_size = block;
      s.register_cap = cap;
      consider(time_one(s));
    }
  for (int carveout : {0, 50, 100}) {
    if (elapsed() > budget_seconds) break;
    SpmvSetting s = report.best;
    s.carveout = carveout;
    consider(time_one(s));
  }
  report.elapsed_seconds = elapsed();
  return report;
}

}  // namespace fem::kernels::cuda
