#pragma once
// OpenCL platform and device discovery, written once for the dense and sparse back-ends and the
// device description, and the check that turns a failed call into an exception.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <string>

namespace fem::kernels::opencl {

// Throws std::runtime_error naming `what` and the error code unless `status` is CL_SUCCESS.
void check(cl_int status, const char* what);

// The device fem's OpenCL back-ends use: the first GPU of any platform, else the first device of
// any kind. Null when there is none, with the reason in `why_not`.
cl_device_id pick_device(std::string& why_not);

// A string property of a device or of its platform.
std::string device_string(cl_device_id device, cl_device_info what);
std::string platform_string(cl_device_id device, cl_platform_info what);

}  // namespace fem::kernels::opencl
