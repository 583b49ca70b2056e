#include "bench/pipeline/pipeline_row.hpp"

#include <algorithm>
#include <map>

#include "support/statistics.hpp"

namespace fem::bench {
namespace {

double median_of(const std::vector<nlohmann::json>& summaries, const nlohmann::json::json_pointer& at) {
  std::vector<double> values;
  for (const auto& s : summaries) values.push_back(s.contains(at) ? s.at(at).get<double>() : 0.0);
  return spread_of(values).median;
}

double entry_or_zero(const std::map<std::string, double>& values, const std::string& name) {
  const auto it = values.find(name);
  return it == values.end() ? 0 : it->second;
}

}  // namespace

double PipelineRow::phase(const std::string& name) const { return entry_or_zero(phase_s, name); }

double PipelineRow::peak_after(const std::string& name) const { return entry_or_zero(peak_after_phase_bytes, name); }

void summarise_runs(PipelineRow& row, const std::vector<nlohmann::json>& summaries, const std::vector<double>& walls) {
  using pointer = nlohmann::json::json_pointer;
  const nlohmann::json& first = summaries.front();
  row.repeats = static_cast<int>(summaries.size());
  row.sizes.elements = first.at("elements").get<std::int64_t>();
  row.sizes.nodes = first.at("nodes").get<std::int64_t>();
  row.sizes.dofs = first.at("dofs").get<std::int64_t>();
  row.sizes.nnz = first.at("nnz").get<std::int64_t>();
  row.iterations = first.at("iterations").get<int>();
  for (const auto& [phase, seconds] : first.at("time_s").items()) row.phase_s[phase] = median_of(summaries, pointer("/time_s/" + phase));
  std::vector<double> totals;
  for (const auto& s : summaries) {
    double total = 0;
    for (const auto& [phase, seconds] : s.at("time_s").items()) total += seconds.get<double>();
    totals.push_back(total);
    row.peak_host_bytes = std::max(row.peak_host_bytes, s.at("peak_memory_bytes").get<double>());
    if (s.contains("peak_memory_after_phase_bytes"))
      for (const auto& [phase, bytes] : s.at("peak_memory_after_phase_bytes").items())
        row.peak_after_phase_bytes[phase] = std::max(row.peak_after_phase_bytes[phase], bytes.get<double>());
  }
  row.total_s = spread_of(totals).median;
  row.wall_s = spread_of(walls).median;
  row.setup_s = median_of(summaries, pointer("/solver_time_s/setup"));
  row.iterate_s = median_of(summaries, pointer("/solver_time_s/solve"));
  row.write_bytes = first.contains("write") ? first.at("write").at("bytes").get<double>() : 0;
  row.device_bytes = median_of(summaries, pointer("/solver_figures/device_memory_bytes"));
}

}  // namespace fem::bench
