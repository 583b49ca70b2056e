#pragma once
// What the opencl folder offers the back-end table (kernels/backend_table.cpp).
#include "kernels/compute_backend.hpp"

namespace fem::kernels::opencl {

BackendFactories factories();

}  // namespace fem::kernels::opencl
