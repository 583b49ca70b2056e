#include "kernels/cuda/spmv_tuning.hpp"
#include "support/stopwatch.hpp"

#include <cuda_runtime_api.h>

namespace fem::kernels::cuda {
namespace {

// An attribute of the current device (clock in kHz, bus width in bits, ...); 0 when it cannot be read.
double device_attribute(cudaDeviceAttr attribute) {
  int device = 0, value = 0;
  if (cudaGetDevice(&device) != cudaSuccess || cudaDeviceGetAttribute(&value, attribute, device) != cudaSuccess)
    return 0;
  return value;
}

}  // namespace

std::vector<SpmvCandidate> cuda_candidates() {
  std::vector<SpmvCandidate> c;
  auto add = [&](SpmvFormat format, SpmvLayout layout, double efficiency, int lanes = 1) {
    SpmvSetting s;
    s.format = format;
    s.threads_per_row = lanes;
    c.push_back({to_string(s), layout, lanes, efficiency});
  };
  // Blocked and diagonal formats stream at 92-99 % of the copy ceiling, the CSR kernels at about
  // 80 %, SELL/ELL between; HYB's COO part and one thread per CSR row fall well short.
  add(SpmvFormat::Cds, SpmvLayout::Cds, 0.97);
  add(SpmvFormat::Bell, SpmvLayout::Bell, 0.95);
  for (int t : {32, 16, 8, 4, 2, 1}) add(SpmvFormat::Bcsr, SpmvLayout::Bcsr, 0.92, t);
  add(SpmvFormat::Dia, SpmvLayout::Dia, 0.94);
  add(SpmvFormat::Sell, SpmvLayout::Sell, 0.85);
  add(SpmvFormat::Ell, SpmvLayout::Ell, 0.80);
  for (int t : {32, 16, 8, 4, 2}) add(SpmvFormat::CsrVector, SpmvLayout::Csr, 0.80, t);
  add(SpmvFormat::Hyb, SpmvLayout::Hyb, 0.70);
  add(SpmvFormat::CsrScalar, SpmvLayout::Csr, 0.30);
  return c;
}

SpmvSetting model_setting(const RowStats& stats) {
  return parse_spmv_setting(
      rank_by_model(stats, cuda_candidates(), 1.0, device_saturating_threads()).front().candidate.setting);
}

std::string device_identity() {
  int device = 0, driver = 0;
  cudaDeviceProp properties{};
  if (cudaGetDevice(&device) != cudaSuccess || cudaGetDeviceProperties(&properties, device) != cudaSuccess)
    return "CUDA device";
  cudaDriverGetVersion(&driver);
  return std::string(properties.name) + ", CUDA driver " + std::to_string(driver / 1000) + "." +
         std::to_string(driver % 1000 / 10);
}

double device_bandwidth() {
  // Double data rate: two transfers of the bus width per memory clock.
  return 2.0 * device_attribute(cudaDevAttrMemoryClockRate) * 1e3 *
         device_attribute(cudaDevAttrGlobalMemoryBusWidth) / 8;
}

double device_saturating_threads() {
  return 0.25 * device_attribute(cudaDevAttrMultiProcessorCount) *
         device_attribute(cudaDevAttrMaxThreadsPerMultiProcessor);
}

TuningReport tune_spmv(const CsrMatrix& a, SpmvTuning tuning) {
  TuningReport report;
  // The timer keeps the sample on the device in the last format it converted, for relaunches.
  std::unique_ptr<DeviceSpmv> on_device;
  const CsrMatrix* converted = nullptr;
  DeviceVector x, y;
  const SpmvTimer time = [&](const CsrMatrix& m, const std::string& text, int repeats) {
    const SpmvSetting setting = parse_spmv_setting(text);
    if (converted != &m || !on_device || on_device->setting().format != setting.format) {
      on_device.reset();
      on_device = std::make_unique<DeviceSpmv>(m, setting);
      converted = &m;
    }
    on_device->relaunch(setting);
    if (x.size() != static_cast<std::size_t>(m.rows)) {
      const std::vector<double> ones(static_cast<std::size_t>(m.rows), 1.0);
      x = DeviceVector(ones.size());
      y = DeviceVector(ones.size());
      x.upload(ones.data());
    }
    return time_spmv(*on_device, x.data(), y.data(), repeats);
  };
  SpmvAutotuneOptions options;
  options.tuning = tuning;
  options.device = device_identity();
  options.bandwidth = device_bandwidth();
  options.saturating_threads = device_saturating_threads();
  report.choice = autotune_spmv(a, cuda_candidates(), time, options);
  on_device.reset();  // the sample's memory back before the whole matrix goes up
  const Stopwatch converting;
  report.matrix = make_in_chosen_setting(report.choice, [&](const std::string& setting) {
    return std::make_shared<DeviceSpmv>(a, parse_spmv_setting(setting));
  });
  report.convert_seconds = converting.seconds();
  return report;
}

}  // namespace fem::kernels::cuda
