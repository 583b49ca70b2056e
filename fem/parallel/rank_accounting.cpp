#include "fem/parallel/rank_accounting.hpp"

#include <algorithm>

#include "fem/parallel/rank_reductions.hpp"
#include "fem/pipeline/memory_watermark.hpp"

namespace fem {

void describe_rank_holdings(nlohmann::json& summary, std::int64_t cells) {
  const auto as_counts = [](const std::vector<double>& values) {
    return std::vector<std::int64_t>(values.begin(), values.end());
  };
  const std::vector<double> memory = per_rank(static_cast<double>(peak_memory_bytes()));
  summary["peak_memory_bytes_per_rank"] = as_counts(memory);
  summary["peak_memory_bytes"] = static_cast<std::int64_t>(*std::max_element(memory.begin(), memory.end()));
  summary["cells_per_rank"] = as_counts(per_rank(static_cast<double>(cells)));
}

void describe_rank_times(nlohmann::json& summary, const nlohmann::json& phase_times) {
  nlohmann::json slowest = nlohmann::json::object(), spread = nlohmann::json::object();
  for (const auto& [phase, seconds] : phase_times.items()) {
    const std::vector<double> times = per_rank(seconds.get<double>());
    const auto [quickest, slowest_time] = std::minmax_element(times.begin(), times.end());
    slowest[phase] = *slowest_time;
    spread[phase] = *slowest_time - *quickest;
  }
  summary["time_s"] = slowest;
  summary["time_spread_s"] = spread;
}

}  // namespace fem
