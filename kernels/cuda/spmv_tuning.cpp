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

// A padded or diagonal format storing at most this many entries per nonzero counts as dense.
constexpr double kDenseFill = 1.25;
// DIA reads 8 bytes per stored entry and no index, CSR 12 per nonzero; on the H100 DIA streams at
// about 94 % of the copy ceiling, the CSR kernels at about 80 % (bench/RESULTS.md), so DIA wins
// up to a fill of about 12 / 8 x 94 / 80 = 1.8.
constexpr double kDiaFill = 1.8;

}  // namespace

SpmvSetting model_setting(const RowStats& stats) {
  SpmvSetting s;
  s.threads_per_row = 1;
  if (stats.rows == 0 || stats.nnz == 0) return s;
  const double nnz = static_cast<double>(stats.nnz);
  if (stats.block3) {
    // Whole 3x3 blocks: one index per 9 values (BCSR, BELL) or none at all (CDS).
    const double cds_fill = 9.0 * static_cast<double>(stats.block_diagonals) * static_cast<double>(stats.rows / 3) / nnz;
    const double bell_fill = static_cast<double>(stats.block_max) / stats.block_mean;
    if (cds_fill <= kDenseFill) {
      s.format = SpmvFormat::Cds;
    } else if (bell_fill <= kDenseFill) {
      s.format = SpmvFormat::Bell;
    } else {
      s.format = SpmvFormat::Bcsr;  // uneven block rows: a team per block row, about one block per lane
      s.threads_per_row = power_of_two_at_most(stats.block_mean, 1, 32);
    }
    return s;
  }
  const double dia_fill = static_cast<double>(stats.diagonals) * static_cast<double>(stats.rows) / nnz;
  if (dia_fill <= kDiaFill) {  // structured grids: DIA needs no column indices at all
    s.format = SpmvFormat::Dia;
  } else if (static_cast<double>(stats.max) <= kDenseFill * stats.mean + 4) {  // near-uniform rows
    s.format = SpmvFormat::Sell;
  } else {
    s.format = SpmvFormat::CsrVector;
    s.threads_per_row = power_of_two_at_most(stats.mean / 2, 1, 32);
  }
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
  if (stats.nnz > 0 && static_cast<double>(stats.diagonals) * static_cast<double>(stats.rows) <= 3.0 * stats.nnz)
    add(SpmvFormat::Dia, 1);
  if (stats.block3) {
    for (int t : {1, 2, 4, 8, 16, 32}) add(SpmvFormat::Bcsr, t);
    add(SpmvFormat::Bell, 1);
    if (9.0 * static_cast<double>(stats.block_diagonals) * static_cast<double>(stats.rows / 3) <= 3.0 * stats.nnz)
      add(SpmvFormat::Cds, 1);
  }
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
  auto time_on = [&](DeviceSpmv& spmv, const SpmvSetting& s) {
    spmv.relaunch(s);
    const double seconds = time_spmv(spmv, x.data(), y.data(), repeats);
    report.tried.push_back({s, seconds, {}});
    return seconds;
  };
  std::shared_ptr<DeviceSpmv> best;
  // One conversion per format (the model's first), its settings timed by relaunching.
  std::vector<SpmvSetting> candidates = {report.model};
  for (const auto& s : candidate_settings(stats))
    if (!same(s, report.model)) candidates.push_back(s);
  std::vector<SpmvFormat> formats;
  for (const auto& s : candidates)
    if (std::find(formats.begin(), formats.end(), s.format) == formats.end()) formats.push_back(s.format);
  for (const SpmvFormat format : formats) {
    if (best && elapsed() > budget_seconds) break;
    const auto first = std::find_if(candidates.begin(), candidates.end(), [&](const auto& s) { return s.format == format; });
    std::shared_ptr<DeviceSpmv> spmv;
    try {
      spmv = std::make_shared<DeviceSpmv>(a, *first);
    } catch (const FormatRefused& e) {
      report.tried.push_back({*first, 0.0, e.what()});
      continue;
    }
    for (const auto& s : candidates) {
      if (s.format != format) continue;
      const double seconds = time_on(*spmv, s);
      if (same(s, report.model)) report.model_seconds = seconds;
      if (report.best_seconds == 0 || seconds < report.best_seconds) {
        report.best = s;
        report.best_seconds = seconds;
        best = spmv;
      }
    }
  }
  if (!best) throw FormatRefused("CUDA SpMV: no format fits this matrix (" + report.tried.back().refused + ")");
  // Then the launch parameters of the best format, on the matrix already there.
  const SpmvSetting base = report.best;
  for (int block : {128, 256, 512})
    for (int cap : {32, 64, 255}) {
      if (elapsed() > budget_seconds) break;
      if (cap == 255 && block > 256) continue;
      SpmvSetting s = base;
      s.block_size = block;
      s.register_cap = cap;
      if (const double seconds = time_on(*best, s); seconds < report.best_seconds) report.best = s, report.best_seconds = seconds;
    }
  best->relaunch(report.best);
  report.best_matrix = best;
  report.elapsed_seconds = elapsed();
  return report;
}

}  // namespace fem::kernels::cuda
