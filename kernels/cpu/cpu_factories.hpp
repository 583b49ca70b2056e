#pragma once
// What the cpu folder offers the back-end table (kernels/backend_table.cpp).
#include "kernels/compute_backend.hpp"

namespace fem::kernels::cpu {

BackendFactories factories();

}  // namespace fem::kernels::cpu
