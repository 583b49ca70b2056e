#include "kernels/cuda/nvml_energy.hpp"

#include <dlfcn.h>

namespace fem::kernels::cuda {

// The few NVML entry points used, declared by their documented C signatures.
struct EnergyMeter::Impl {
  using Device = void*;
  using InitFn = int (*)();
  using HandleFn = int (*)(unsigned, Device*);
  using EnergyFn = int (*)(Device, unsigned long long*);
  void* library = nullptr;
  Device device = nullptr;
  EnergyFn energy = nullptr;
  InitFn shutdown = nullptr;
  unsigned long long start_mj = 0;
  std::string why_not;
};

EnergyMeter::EnergyMeter() : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!m.library) {
    m.why_not = "libnvidia-ml.so.1 not found";
    return;
  }
  const auto init = reinterpret_cast<Impl::InitFn>(dlsym(m.library, "nvmlInit_v2"));
  const auto handle = reinterpret_cast<Impl::HandleFn>(dlsym(m.library, "nvmlDeviceGetHandleByIndex_v2"));
  m.energy = reinterpret_cast<Impl::EnergyFn>(dlsym(m.library, "nvmlDeviceGetTotalEnergyConsumption"));
  m.shutdown = reinterpret_cast<Impl::InitFn>(dlsym(m.library, "nvmlShutdown"));
  unsigned long long probe = 0;
  if (!init || !handle || !m.energy || init() != 0 || handle(0, &m.device) != 0 || m.energy(m.device, &probe) != 0) {
    m.why_not = "NVML has no energy counter for device 0";
    m.energy = nullptr;
  }
}

EnergyMeter::~EnergyMeter() {
  if (impl_->energy && impl_->shutdown) impl_->shutdown();
  if (impl_->library) dlclose(impl_->library);
}
bool EnergyMeter::available() const { return impl_->energy != nullptr; }
std::string EnergyMeter::why_not() const { return impl_->why_not; }
void EnergyMeter::start() {
  if (available()) impl_->energy(impl_->device, &impl_->start_mj);
}
double EnergyMeter::stop_joules() {
  unsigned long long now = 0;
  if (!available() || impl_->energy(impl_->device, &now) != 0) return 0.0;
  return 1e-3 * static_cast<double>(now - impl_->start_mj);
}

}  // namespace fem::kernels::cuda
