#pragma once
// Choosing a device's SpMV setting for `spmv: auto`, written once for CUDA and OpenCL: the model
// (spmv_model.hpp) ranks the device's candidates, only the first few are timed, each briefly and
// on a bounded sample of the matrix's rows, and the winner is kept in the tuning cache
// (spmv_tuning_cache.hpp) so that the next similar matrix on this device is not timed at all.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kernels/shared/spmv_model.hpp"
#include "kernels/shared/spmv_tuning_cache.hpp"

namespace fem::kernels {

// solver.spmv_tuning: cache (reuse a similar matrix's setting, else time and keep the result),
// fresh (time now and keep the result), model (the model's first pick; no timing, no cache).
enum class SpmvTuning { Cache, Fresh, Model };
// What a back-end's matrix() gets for `spmv: auto` under a mode: "auto", "auto/fresh", "auto/model".
std::string auto_spmv_setting(const std::string& tuning_name);
// The mode of an "auto..." setting, nullopt for a device's own setting; throws
// std::invalid_argument for "auto/<something unknown>".
std::optional<SpmvTuning> auto_spmv_tuning(const std::string& setting);

struct SpmvAutotuneOptions {
  SpmvTuning tuning = SpmvTuning::Cache;
  std::string device;                // the device's name and driver version: part of the cache key
  int timed = 3;                     // candidates timed, best-ranked first
  double budget_seconds = 0.4;       // no candidate is started after this (the first always is)
  double seconds_per_candidate = 0.02;  // products repeated for about this long each
  std::int64_t sample_nonzeros = std::int64_t(1) << 23;  // larger matrices are timed on a sample of rows
  double bandwidth = 0;              // bytes/s the device streams; 0: unknown, no prediction reported
  double saturating_threads = 0;     // work-items the device needs to reach it (rank_by_model); 0: ignored
  SpmvTuningCache cache;
};

// Seconds per product of `setting` on `matrix`, averaged over `repeats` after a warm-up; throws
// FormatRefused when the setting's format does not fit the matrix. Called twice per candidate
// (one product, then enough to last seconds_per_candidate): keep the converted matrix between.
using SpmvTimer = std::function<double(const CsrMatrix& matrix, const std::string& setting, int repeats)>;

struct SpmvAutotuneResult {
  std::string setting;                                   // the choice
  std::string source;                                    // "cache", "timed" or "model"
  std::vector<std::string> ranked;                       // the applicable candidates, best-ranked first
  std::vector<std::pair<std::string, double>> timed;     // seconds per product on the sample
  double predicted_seconds = 0;  // the model's time per product of the choice (0: bandwidth unknown)
  double seconds = 0;            // wall time of it all: statistics, model, sample, timing, cache
  // spmv_tuning_s, spmv_tuning_cached (1/0), spmv_tuning_timed (candidates), spmv_predicted_s
  void record(std::map<std::string, double>& figures) const;
};

// `candidates`: every setting the device has (the model drops those that do not apply).
SpmvAutotuneResult autotune_spmv(const CsrMatrix& a, const std::vector<SpmvCandidate>& candidates,
                                 const SpmvTimer& time, const SpmvAutotuneOptions& options);

// Makes the whole matrix with `make(setting)` in the chosen setting, or in the next in rank where
// a format refuses it (padding over the limit on the whole matrix though not on the sample);
// `choice.setting` becomes the one made. Throws FormatRefused naming every refusal.
template <class Make>
auto make_in_chosen_setting(SpmvAutotuneResult& choice, Make make) -> decltype(make(choice.setting)) {
  std::string refusals;
  const auto& ranked = choice.ranked;
  for (auto it = std::find(ranked.begin(), ranked.end(), choice.setting); it != ranked.end(); ++it) {
    try {
      auto made = make(*it);
      choice.setting = *it;
      return made;
    } catch (const FormatRefused& e) {
      refusals += std::string(refusals.empty() ? "" : "; ") + e.what();
    }
  }
  throw FormatRefused("SpMV: no format fits this matrix (" + refusals + ")");
}

// The matrix candidates are timed on when `a` has more than `max_nonzeros`: a window of rows in
// its middle (multiples of 96 rows: whole 3x3 blocks and warps), square. Its columns inside the
// window are kept (banded and FE matrices keep nearly all their entries and diagonals); when
// that would drop more than a tenth of the window's entries (unstructured matrices), columns
// wrap around the window instead, so every row keeps its length. Nothing when `a` is small.
std::optional<CsrMatrix> timing_sample(const CsrMatrix& a, std::int64_t max_nonzeros);

}  // namespace fem::kernels
