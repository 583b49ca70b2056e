#include "kernels/cuda/green_stream.hpp"

#include <cuda.h>
#include <cudaTypedefs.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/cuda/cuda_check.hpp"

namespace fem::kernels::cuda {

namespace {

// The driver entry point `name` of the version of its typedef.
template <class F>
F driver_entry(const char* name, unsigned version) {
  void* f = nullptr;
  cudaDriverEntryPointQueryResult found{};
  check(cudaGetDriverEntryPointByVersion(name, &f, version, cudaEnableDefault, &found), name);
  if (found != cudaDriverEntryPointSuccess || f == nullptr)
    throw std::runtime_error(std::string("CUDA driver: no ") + name);
  return reinterpret_cast<F>(f);
}

void check_driver(CUresult status, const char* what) {
  if (status != CUDA_SUCCESS)
    throw std::runtime_error(std::string("CUDA driver: ") + what + " failed with error " + std::to_string(status));
}

}  // namespace

GreenStream::GreenStream(int spare_sms, int part, int parts) {
  const auto device_get = driver_entry<PFN_cuDeviceGet_v2000>("cuDeviceGet", 2000);
  const auto get_resource = driver_entry<PFN_cuDeviceGetDevResource_v12040>("cuDeviceGetDevResource", 12040);
  const auto split = driver_entry<PFN_cuDevSmResourceSplitByCount_v12040>("cuDevSmResourceSplitByCount", 12040);
  const auto describe = driver_entry<PFN_cuDevResourceGenerateDesc_v12040>("cuDevResourceGenerateDesc", 12040);
  const auto create = driver_entry<PFN_cuGreenCtxCreate_v12040>("cuGreenCtxCreate", 12040);
  const auto create_stream = driver_entry<PFN_cuGreenCtxStreamCreate_v12050>("cuGreenCtxStreamCreate", 12050);
  int ordinal = 0;
  check(cudaGetDevice(&ordinal), "cudaGetDevice");
  check(cudaFree(nullptr), "cudaFree (the primary context)");
  CUdevice device{};
  check_driver(device_get(&device, ordinal), "cuDeviceGet");
  CUdevResource all{};
  check_driver(get_resource(device, &all, CU_DEV_RESOURCE_TYPE_SM), "cuDeviceGetDevResource");
  // Groups of the smallest size the driver allows, as many of them as leave `spare_sms` out; of
  // those, share `part` of `parts`. (The driver splits a device the same way every time, so the
  // shares of streams made alike do not overlap.)
  const unsigned flags = CU_DEV_SM_RESOURCE_SPLIT_IGNORE_SM_COSCHEDULING;
  unsigned count = 0;
  check_driver(split(nullptr, &count, &all, nullptr, flags, 1), "cuDevSmResourceSplitByCount (count)");
  std::vector<CUdevResource> groups(count);
  check_driver(split(groups.data(), &count, &all, nullptr, flags, 1), "cuDevSmResourceSplitByCount");
  const unsigned per_group = count > 0 ? groups[0].sm.smCount : 0;
  const unsigned wanted = all.sm.smCount > static_cast<unsigned>(spare_sms) ? all.sm.smCount - spare_sms : 0;
  const unsigned left = per_group > 0 ? std::min(count, wanted / per_group) : 0;
  if (parts < 1 || part < 0 || part >= parts)
    throw std::runtime_error("GreenStream: no share " + std::to_string(part) + " of " + std::to_string(parts));
  const unsigned used = left / static_cast<unsigned>(parts);
  if (used == 0)
    throw std::runtime_error("GreenStream: cannot keep " + std::to_string(spare_sms) + " of " +
                             std::to_string(all.sm.smCount) + " multiprocessors out and share the rest " +
                             std::to_string(parts) + " ways");
  CUdevResourceDesc desc{};
  check_driver(describe(&desc, groups.data() + static_cast<std::size_t>(part) * used, used),
               "cuDevResourceGenerateDesc");
  CUgreenCtx context{};
  check_driver(create(&context, desc, device, CU_GREEN_CTX_DEFAULT_STREAM), "cuGreenCtxCreate");
  context_ = context;
  CUstream stream{};
  const CUresult made = create_stream(&stream, context, CU_STREAM_NON_BLOCKING, 0);
  if (made != CUDA_SUCCESS) {
    driver_entry<PFN_cuGreenCtxDestroy_v12040>("cuGreenCtxDestroy", 12040)(context);
    check_driver(made, "cuGreenCtxStreamCreate");
  }
  stream_ = stream;
  multiprocessors_ = static_cast<int>(used * per_group);
}

GreenStream::~GreenStream() {
  cudaStreamDestroy(stream_);
  const auto destroy = driver_entry<PFN_cuGreenCtxDestroy_v12040>("cuGreenCtxDestroy", 12040);
  destroy(static_cast<CUgreenCtx>(context_));
}

}  // namespace fem::kernels::cuda
