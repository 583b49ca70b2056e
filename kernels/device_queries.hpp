#pragma once
// What the rest of fem asks of the devices (memory checks, a study's environment record) without
// a device API of its own. Each answer is "none" in a build without that back-end or on a
// machine without the device.
#include <cstddef>
#include <future>
#include <memory>
#include <optional>
#include <string>

namespace fem::kernels {

// Bytes free on the current CUDA device; 0 without one.
std::size_t cuda_free_memory();

// Creates the CUDA device's context on a thread of its own: a run that will use the device calls
// it first, so that the context (a few tenths of a second) is made while the mesh is. The future
// waits for it when destroyed; it does nothing in a build without CUDA or without a device.
std::future<void> start_cuda_context();

// The CUDA runtime this binary was built with, as "12.4"; empty in a build without CUDA.
std::string cuda_runtime_version();

struct OpenclDeviceDescription {
  std::string platform, device, driver;
};
// The device fem's OpenCL back-ends pick (the first GPU of any platform, else the first device).
std::optional<OpenclDeviceDescription> opencl_device_description();

// The energy a device draws over a window, read from the device's own counter.
class DeviceEnergyMeter {
 public:
  virtual ~DeviceEnergyMeter() = default;
  virtual void start() = 0;
  virtual double stop_joules() = 0;  // energy since start()
};
// The CUDA device's meter (NVML's counter, read only); null in a build without CUDA or where the
// driver's NVML library does not answer.
std::unique_ptr<DeviceEnergyMeter> cuda_energy_meter();

}  // namespace fem::kernels
