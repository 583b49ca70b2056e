#pragma once
// Picks a dense back-end by name at run time: "serial", "openmp", "cuda", "cuda-naive",
// "cublas", "opencl", "opencl-naive". Back-ends not built, or without a device here, are
// reported by name and reason, never crashed on.

#include "kernels/dense_backend.hpp"

#include <memory>
#include <string>
#include <vector>

namespace fem::kernels {

struct BackendStatus {
  std::string name;
  bool available = false;
  std::string reason;  // why not, when not available
};

// Every name the registry knows, built or not, in a fixed order.
std::vector<std::string> dense_backend_names();

// Whether `name` can run here. Throws std::invalid_argument for an unknown name.
BackendStatus dense_backend_status(const std::string& name);

// Throws std::invalid_argument (unknown name, listing the known ones) or BackendUnavailable
// (not built into this binary, or no device).
std::unique_ptr<DenseBackend> make_dense_backend(const std::string& name);

}  // namespace fem::kernels
