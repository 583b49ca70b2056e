#include "fem/study/budget.hpp"

#include <cmath>
#include <cstdio>

#include "fem/pipeline/number_format.hpp"
#include "fem/study/power_law_fit.hpp"

namespace fem::study {
namespace {

std::string seconds_text(double s) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g s", s);
  return text;
}

}  // namespace

double BudgetLedger::predicted_seconds(const std::string& key, std::int64_t dofs) const {
  const auto it = times_.find(key);
  if (it == times_.end() || it->second.empty()) return 0;
  const auto& [last_dofs, last_seconds] = it->second.back();
  double exponent = 1;  // no solver grows slower than the system it reads
  if (it->second.size() >= 2) {
    std::vector<double> x, y;
    for (const auto& [d, s] : it->second) x.push_back(d), y.push_back(s);
    const PowerFit fit = fit_power_law(x, y);
    if (fit.points >= 2) exponent = std::max(1.0, fit.exponent);
  }
  // From the largest solve so far: the fit's slope, anchored where the measurement is.
  return last_seconds * std::pow(static_cast<double>(dofs) / last_dofs, exponent);
}

std::string BudgetLedger::refusal(const std::string& key, std::int64_t dofs) const {
  if (const auto it = dropped_.find(key); it != dropped_.end()) return it->second;
  if (budget_.time_s <= 0) return "";
  const double predicted = predicted_seconds(key, dofs);
  if (predicted <= budget_.time_s) return "";
  return "predicted " + seconds_text(predicted) + " at " + with_commas(dofs) + " dofs from the growth so far, over the time budget (" +
         seconds_text(budget_.time_s) + ")";
}

std::string BudgetLedger::record(const std::string& key, std::int64_t dofs, double seconds, double memory_bytes) {
  times_[key].emplace_back(static_cast<double>(dofs), seconds);
  std::string why;
  if (budget_.time_s > 0 && seconds > budget_.time_s)
    why = "passed the time budget (" + seconds_text(seconds) + " > " + seconds_text(budget_.time_s) + ")";
  else if (budget_.memory_bytes > 0 && memory_bytes > budget_.memory_bytes)
    why = "passed the memory budget (" + human_bytes(memory_bytes) + " > " + human_bytes(budget_.memory_bytes) + ")";
  if (why.empty()) return "";
  dropped_[key] = why + " at " + with_commas(dofs) + " dofs";
  return why + ": no larger sizes";
}

void BudgetLedger::record_stopped(const std::string& key, std::int64_t dofs, double seconds) {
  dropped_[key] = "stopped over the time budget (" + seconds_text(seconds) + " > " + seconds_text(budget_.time_s) + ") at " +
                  with_commas(dofs) + " dofs";
}

}  // namespace fem::study
