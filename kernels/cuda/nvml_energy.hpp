#pragma once
// Energy drawn by the GPU over a window, from NVML's millijoule counter (read only: nothing here
// changes clocks or limits). libnvidia-ml is opened at run time, so the benchmark runs (without
// energy figures) where the driver library is missing.
#include <memory>
#include <string>

namespace fem::kernels::cuda {

class EnergyMeter {
 public:
  EnergyMeter();  // never throws: available() says whether it works
  ~EnergyMeter();
  bool available() const;
  std::string why_not() const;
  void start();
  double stop_joules();  // energy since start(), in joules

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace fem::kernels::cuda
