#include "fem/study/energy_probe.hpp"

#include "fem/config.hpp"
#if FEM_WITH_CUDA
#include "kernels/cuda/nvml_energy.hpp"
#endif

namespace fem::study {

#if FEM_WITH_CUDA
struct EnergyProbe::Meter {
  kernels::cuda::EnergyMeter nvml;
};

EnergyProbe::EnergyProbe(const std::string& device) {
  if (device != "cuda") return;
  meter_ = std::make_unique<Meter>();
  if (!meter_->nvml.available()) meter_.reset();
}

void EnergyProbe::start() {
  if (meter_) meter_->nvml.start();
}

std::optional<double> EnergyProbe::stop_joules() {
  if (!meter_) return std::nullopt;
  return meter_->nvml.stop_joules();
}
#else
struct EnergyProbe::Meter {};

EnergyProbe::EnergyProbe(const std::string&) {}
void EnergyProbe::start() {}
std::optional<double> EnergyProbe::stop_joules() { return std::nullopt; }
#endif

EnergyProbe::~EnergyProbe() = default;

}  // namespace fem::study
