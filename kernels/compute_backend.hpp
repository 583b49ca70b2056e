#pragma once
// One compute back-end as the registries see it: the device name that solvers and case files
// use, the dense back-ends it answers to, and the factories its folder provides. The table of
// them (backend_table.cpp) is the one place that knows which back-ends this build has; the
// dense and sparse registries and the device queries read it.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "kernels/dense_backend.hpp"
#include "kernels/sparse_backend.hpp"

namespace fem::kernels {

// What a back-end folder provides (kernels/<folder>/<folder>_factories.hpp): plain C++, no
// device header needed to use it.
struct BackendFactories {
  std::function<std::string()> unavailable_reason;  // empty when a device can be used here
  std::function<std::unique_ptr<DenseBackend>(const std::string& dense_name)> make_dense;
  std::function<std::unique_ptr<SparseBackend>()> make_sparse;
};

struct ComputeBackend {
  std::string device;                     // "cpu", "cuda", "opencl"
  std::vector<std::string> dense_names;   // the dense back-ends it offers
  std::string build_option;               // the CMake option that builds it (empty: always built)
  bool built = false;
  BackendFactories factories;             // empty unless built
};

// Every back-end fem knows, built into this binary or not, in a fixed order.
const std::vector<ComputeBackend>& compute_backends();

// The back-end of `device`, or of the dense back-end `dense_name`; null when none has that name.
const ComputeBackend* find_compute_backend(const std::string& device);
const ComputeBackend* find_dense_owner(const std::string& dense_name);

// Empty when `backend` can run here; otherwise why not (not built, or no device).
std::string unavailable_reason(const ComputeBackend& backend);

}  // namespace fem::kernels
