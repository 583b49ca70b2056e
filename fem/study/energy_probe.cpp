#include "fem/study/energy_probe.hpp"

namespace fem::study {

EnergyProbe::EnergyProbe(Device device) {
  if (device == Device::Cuda) meter_ = kernels::cuda_energy_meter();
}

void EnergyProbe::start() {
  if (meter_) meter_->start();
}

std::optional<double> EnergyProbe::stop_joules() {
  if (!meter_) return std::nullopt;
  return meter_->stop_joules();
}

}  // namespace fem::study
