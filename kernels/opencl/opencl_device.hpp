#pragma once
// The OpenCL device as the rest of fem sees it (kernels/device_queries.hpp). Plain C++.
#include <optional>

#include "kernels/device_queries.hpp"

namespace fem::kernels::opencl {

// The device pick_device chooses (cl_device.hpp), described; none without one.
std::optional<OpenclDeviceDescription> describe_device();

}  // namespace fem::kernels::opencl
