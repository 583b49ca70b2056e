#pragma once
// The energy a device draws during a solve, where the device measures it: NVIDIA GPUs through
// NVML's energy counter (read only). Elsewhere it measures nothing, and says so.
#include <memory>
#include <optional>
#include <string>

namespace fem::study {

class EnergyProbe {
 public:
  explicit EnergyProbe(const std::string& device);  // "cuda" is measured when NVML answers
  ~EnergyProbe();
  void start();
  std::optional<double> stop_joules();  // nothing where the device has no counter

 private:
  struct Meter;
  std::unique_ptr<Meter> meter_;
};

}  // namespace fem::study
