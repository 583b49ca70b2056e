#pragma once
// Times one call on the device that runs it: CUDA events for the CUDA back-ends, wall clock
// between two synchronisations for the others.

#include "kernels/dense_backend.hpp"

#include <functional>

namespace fem::bench {

// Seconds taken by `work` on `backend`, queued work included.
double time_on(fem::kernels::DenseBackend& backend, const std::function<void()>& work);

}  // namespace fem::bench
