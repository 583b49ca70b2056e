#pragma once
// What the cuda folder offers the back-end table (kernels/backend_table.cpp).
#include "kernels/compute_backend.hpp"

namespace fem::kernels::cuda {

BackendFactories factories();

}  // namespace fem::kernels::cuda
