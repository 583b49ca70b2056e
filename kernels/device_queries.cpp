// Each query asks its back-end folder only when the build has it: a call in a discarded
// `if constexpr` branch is left out of the binary.
#include "kernels/device_queries.hpp"

#include "fem/config.hpp"
#include "kernels/cuda/cuda_device.hpp"
#include "kernels/cuda/nvml_energy.hpp"
#include "kernels/opencl/opencl_device.hpp"

namespace fem::kernels {

std::size_t cuda_free_memory() {
  if constexpr (FEM_WITH_CUDA) return cuda::free_memory();
  else return 0;
}

std::future<void> start_cuda_context() {
  if constexpr (FEM_WITH_CUDA) return std::async(std::launch::async, [] { cuda::start_context(); });
  else return {};
}

std::string cuda_runtime_version() {
  if constexpr (FEM_WITH_CUDA) return cuda::runtime_version();
  else return {};
}

std::optional<OpenclDeviceDescription> opencl_device_description() {
  if constexpr (FEM_WITH_OPENCL) return opencl::describe_device();
  else return std::nullopt;
}

namespace {

class NvmlEnergyMeter final : public DeviceEnergyMeter {
 public:
  bool available() const { return nvml_.available(); }
  void start() override { nvml_.start(); }
  double stop_joules() override { return nvml_.stop_joules(); }

 private:
  cuda::EnergyMeter nvml_;
};

}  // namespace

std::unique_ptr<DeviceEnergyMeter> cuda_energy_meter() {
  if constexpr (FEM_WITH_CUDA) {
    auto meter = std::make_unique<NvmlEnergyMeter>();
    if (meter->available()) return meter;
  }
  return nullptr;
}

}  // namespace fem::kernels
