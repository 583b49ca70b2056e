#pragma once
// The energy a device draws during a solve, where the device measures it: NVIDIA GPUs through
// NVML's energy counter (read only). Elsewhere it measures nothing, and says so.
#include <memory>
#include <optional>
#include <string>

#include "kernels/device_queries.hpp"
#include "solvers/solver_choices.hpp"

namespace fem::study {

class EnergyProbe {
 public:
  explicit EnergyProbe(Device device);  // cuda is measured when NVML answers
  void start();
  std::optional<double> stop_joules();  // nothing where the device has no counter

 private:
  std::unique_ptr<kernels::DeviceEnergyMeter> meter_;  // null: nothing to measure
};

}  // namespace fem::study
