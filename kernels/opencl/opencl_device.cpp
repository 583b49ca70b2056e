#include "kernels/opencl/opencl_device.hpp"

#include <stdexcept>
#include <vector>

#include "kernels/opencl/cl_device.hpp"

namespace fem::kernels::opencl {

void check(cl_int status, const char* what) {
  if (status != CL_SUCCESS)
    throw std::runtime_error(std::string("OpenCL: ") + what + " failed with error " + std::to_string(status));
}

cl_device_id pick_device(std::string& why_not) {
  cl_uint platforms = 0;
  const cl_int status = clGetPlatformIDs(0, nullptr, &platforms);
  if (status != CL_SUCCESS || platforms == 0) {
    why_not = "no OpenCL platform found (clGetPlatformIDs returned " + std::to_string(status) +
              "; is an ICD such as PoCL installed?)";
    return nullptr;
  }
  std::vector<cl_platform_id> ids(platforms);
  check(clGetPlatformIDs(platforms, ids.data(), nullptr), "clGetPlatformIDs");
  for (const cl_device_type type : {cl_device_type{CL_DEVICE_TYPE_GPU}, cl_device_type{CL_DEVICE_TYPE_ALL}})
    for (cl_platform_id platform : ids) {
      cl_device_id device = nullptr;
      cl_uint found = 0;
      if (clGetDeviceIDs(platform, type, 1, &device, &found) == CL_SUCCESS && found > 0) return device;
    }
  why_not = "the OpenCL platforms have no device";
  return nullptr;
}

namespace {

// A string property read through `get(size, value, size_ret)` (clGetDeviceInfo or
// clGetPlatformInfo for one object and property), without its terminating zero.
template <class Get>
std::string info_string(const Get& get, const char* what) {
  std::size_t size = 0;
  check(get(0, nullptr, &size), what);
  std::string s(size, '\0');
  check(get(size, s.data(), nullptr), what);
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

}  // namespace

std::string device_string(cl_device_id device, cl_device_info what) {
  return info_string([&](std::size_t n, void* v, std::size_t* r) { return clGetDeviceInfo(device, what, n, v, r); },
                     "clGetDeviceInfo");
}

std::string platform_string(cl_device_id device, cl_platform_info what) {
  cl_platform_id platform = nullptr;
  check(clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof platform, &platform, nullptr), "clGetDeviceInfo");
  return info_string([&](std::size_t n, void* v, std::size_t* r) { return clGetPlatformInfo(platform, what, n, v, r); },
                     "clGetPlatformInfo");
}

std::optional<OpenclDeviceDescription> describe_device() {
  std::string why_not;
  const cl_device_id device = pick_device(why_not);
  if (!device) return std::nullopt;
  return OpenclDeviceDescription{platform_string(device, CL_PLATFORM_NAME), device_string(device, CL_DEVICE_NAME),
                                 device_string(device, CL_DRIVER_VERSION)};
}

}  // namespace fem::kernels::opencl
