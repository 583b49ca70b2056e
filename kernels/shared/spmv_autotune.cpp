#include "kernels/shared/spmv_autotune.hpp"
#include "support/stopwatch.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace fem::kernels {
namespace {

constexpr std::int64_t kSampleAlign = 96;  // whole 3x3 block rows and 32-row slices

// Row `i` of the window below, its entries appended to `row` (sorted by column, meeting entries added).
void window_row(const CsrMatrix& a, std::int64_t first, std::int64_t m, bool wrap, std::int64_t i,
                std::vector<std::pair<std::int32_t, double>>& row) {
  row.clear();
  for (auto k = a.row_ptr[first + i]; k < a.row_ptr[first + i + 1]; ++k) {
    const std::int64_t shifted = a.col[k] - first;
    if (wrap) row.push_back({static_cast<std::int32_t>(((shifted % m) + m) % m), a.val[k]});
    else if (shifted >= 0 && shifted < m) row.push_back({static_cast<std::int32_t>(shifted), a.val[k]});
  }
  if (!wrap) return;  // a shift keeps the columns sorted and distinct
  std::sort(row.begin(), row.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  std::size_t kept = 0;
  for (std::size_t k = 0; k < row.size(); ++k) {
    if (kept > 0 && row[kept - 1].first == row[k].first) row[kept - 1].second += row[k].second;
    else row[kept++] = row[k];
  }
  row.resize(kept);
}

// Rows [first, first + m) of `a` with columns shifted by -first: those outside the window
// dropped (`wrap` false) or wrapped around it (`wrap` true). Two parallel passes: count, write.
CsrMatrix window(const CsrMatrix& a, std::int64_t first, std::int64_t m, bool wrap) {
  CsrMatrix w;
  w.rows = m;
  w.row_ptr.assign(static_cast<std::size_t>(m + 1), 0);
#pragma omp parallel
  {
    std::vector<std::pair<std::int32_t, double>> row;
#pragma omp for schedule(static)
    for (std::int64_t i = 0; i < m; ++i) {
      window_row(a, first, m, wrap, i, row);
      w.row_ptr[i + 1] = static_cast<std::int64_t>(row.size());
    }
  }
  for (std::int64_t i = 0; i < m; ++i) w.row_ptr[i + 1] += w.row_ptr[i];
  w.col.resize(static_cast<std::size_t>(w.nnz()));
  w.val.resize(w.col.size());
#pragma omp parallel
  {
    std::vector<std::pair<std::int32_t, double>> row;
#pragma omp for schedule(static)
    for (std::int64_t i = 0; i < m; ++i) {
      window_row(a, first, m, wrap, i, row);
      for (std::size_t k = 0; k < row.size(); ++k) {
        w.col[w.row_ptr[i] + k] = row[k].first;
        w.val[w.row_ptr[i] + k] = row[k].second;
      }
    }
  }
  return w;
}

}  // namespace

std::string auto_spmv_setting(const std::string& tuning_name) {
  return tuning_name == "cache" ? "auto" : "auto/" + tuning_name;
}

std::optional<SpmvTuning> auto_spmv_tuning(const std::string& setting) {
  if (setting == "auto") return SpmvTuning::Cache;
  if (setting.rfind("auto/", 0) != 0) return std::nullopt;
  const std::string mode = setting.substr(5);
  if (mode == "fresh") return SpmvTuning::Fresh;
  if (mode == "model") return SpmvTuning::Model;
  throw std::invalid_argument("SpMV setting '" + setting + "': unknown tuning '" + mode + "' (cache, fresh, model)");
}

void SpmvAutotuneResult::record(std::map<std::string, double>& figures) const {
  figures["spmv_tuning_s"] = seconds;
  figures["spmv_tuning_cached"] = source == "cache" ? 1.0 : 0.0;
  figures["spmv_tuning_timed"] = static_cast<double>(timed.size());
  if (predicted_seconds > 0) figures["spmv_predicted_s"] = predicted_seconds;
}

std::optional<CsrMatrix> timing_sample(const CsrMatrix& a, std::int64_t max_nonzeros) {
  if (a.nnz() <= max_nonzeros || a.rows <= 2 * kSampleAlign) return std::nullopt;
  const double share = static_cast<double>(max_nonzeros) / static_cast<double>(a.nnz());
  const std::int64_t m =
      std::max<std::int64_t>(kSampleAlign, static_cast<std::int64_t>(share * a.rows) / kSampleAlign * kSampleAlign);
  const std::int64_t first = (a.rows - m) / 2 / kSampleAlign * kSampleAlign;
  CsrMatrix kept = window(a, first, m, false);
  const std::int64_t entries = a.row_ptr[first + m] - a.row_ptr[first];
  if (10 * kept.nnz() >= 9 * entries) return kept;
  return window(a, first, m, true);
}

SpmvAutotuneResult autotune_spmv(const CsrMatrix& a, const std::vector<SpmvCandidate>& candidates,
                                 const SpmvTimer& time, const SpmvAutotuneOptions& options) {
  const Stopwatch watch;
  auto elapsed = [&] { return watch.seconds(); };
  const RowStats stats = row_statistics(a);
  SpmvAutotuneResult result;
  const auto ranked =
      rank_by_model(stats, candidates, options.bandwidth > 0 ? options.bandwidth : 1.0, options.saturating_threads);
  for (const auto& r : ranked)
    if (std::isfinite(r.seconds)) result.ranked.push_back(r.candidate.setting);
  if (result.ranked.empty()) throw FormatRefused("SpMV: none of the device's formats fits this matrix");
  auto finish = [&](const std::string& setting, const char* source) {
    result.setting = setting;
    result.source = source;
    if (options.bandwidth > 0)
      for (const auto& r : ranked)
        if (r.candidate.setting == setting) result.predicted_seconds = r.seconds;
    result.seconds = elapsed();
    return result;
  };
  if (options.tuning == SpmvTuning::Model) return finish(result.ranked.front(), "model");
  const std::string shape = spmv_shape_key(stats);
  if (options.tuning == SpmvTuning::Cache)
    if (const auto cached = options.cache.find(options.device, shape);
        cached && std::find(result.ranked.begin(), result.ranked.end(), *cached) != result.ranked.end())
      return finish(*cached, "cache");
  const auto sample = timing_sample(a, options.sample_nonzeros);
  const CsrMatrix& on = sample ? *sample : a;
  std::string best;
  double best_seconds = 0;
  for (const auto& setting : result.ranked) {
    const bool enough = static_cast<int>(result.timed.size()) >= options.timed;
    if (enough || (!best.empty() && elapsed() > options.budget_seconds)) break;
    double seconds = 0;
    try {
      const double once = time(on, setting, 1);
      const int repeats = std::clamp(static_cast<int>(options.seconds_per_candidate / std::max(once, 1e-7)), 2, 50);
      seconds = time(on, setting, repeats);
    } catch (const FormatRefused&) {
      continue;  // the sample's padding is over the limit: the next in rank instead
    }
    result.timed.push_back({setting, seconds});
    if (best.empty() || seconds < best_seconds) best = setting, best_seconds = seconds;
  }
  if (best.empty()) return finish(result.ranked.front(), "model");
  options.cache.store(options.device, shape, best);
  return finish(best, "timed");
}

}  // namespace fem::kernels
