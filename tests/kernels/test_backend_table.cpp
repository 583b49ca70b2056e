// The table of compute back-ends (kernels/backend_table.cpp) and what reads it: the dense and
// sparse registries and the device queries.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>

#include "fem/config.hpp"
#include "kernels/compute_backend.hpp"
#include "kernels/dense_registry.hpp"
#include "kernels/device_queries.hpp"

using namespace fem::kernels;

TEST_CASE("every dense back-end name belongs to exactly one compute back-end, and the sparse names are its devices") {
  const auto& table = compute_backends();
  REQUIRE(table.size() == 3);
  std::set<std::string> devices, dense;
  for (const ComputeBackend& b : table) {
    CHECK(devices.insert(b.device).second);
    for (const auto& name : b.dense_names) {
      CHECK(dense.insert(name).second);
      CHECK(find_dense_owner(name) == &b);
    }
    CHECK(find_compute_backend(b.device) == &b);
    CHECK(b.built == static_cast<bool>(b.factories.make_sparse));
  }
  const auto names = dense_backend_names();
  CHECK(std::set<std::string>(names.begin(), names.end()) == dense);
  CHECK(names.front() == "serial");
  const auto& sparse = sparse_backend_names();
  CHECK(std::set<std::string>(sparse.begin(), sparse.end()) == devices);
  CHECK(find_compute_backend("vulkan") == nullptr);
  CHECK(find_dense_owner("cuda-tiled") == nullptr);
}

TEST_CASE("the table says which back-ends this build has, and why one cannot run") {
  CHECK(find_compute_backend("cpu")->built);
  CHECK(find_compute_backend("cuda")->built == bool(FEM_WITH_CUDA));
  CHECK(find_compute_backend("opencl")->built == bool(FEM_WITH_OPENCL));
  CHECK(unavailable_reason(*find_compute_backend("cpu")).empty());
  for (const ComputeBackend& b : compute_backends()) {
    if (b.built) continue;
    const std::string why = unavailable_reason(b);
    CHECK(why.find(b.build_option + "=ON") != std::string::npos);
    CHECK_THROWS_AS(make_sparse_backend(b.device), BackendUnavailable);
    for (const auto& name : b.dense_names) {
      CHECK_FALSE(dense_backend_status(name).available);
      CHECK_THROWS_AS(make_dense_backend(name), BackendUnavailable);
    }
  }
  CHECK_THROWS_AS(dense_backend_status("no-such-backend"), std::invalid_argument);
  CHECK_THROWS_AS(make_sparse_backend("no-such-device"), std::invalid_argument);
}

TEST_CASE("the device queries answer 'none' for a back-end this build lacks") {
  if (!FEM_WITH_CUDA) {
    CHECK(cuda_free_memory() == 0);
    CHECK(cuda_runtime_version().empty());
  }
  if (!FEM_WITH_OPENCL) CHECK_FALSE(opencl_device_description().has_value());
  // With OpenCL built (PoCL here), the description is the device the back-ends pick.
  if (const auto device = opencl_device_description(); device && dense_backend_status("opencl").available) {
    CHECK_FALSE(device->device.empty());
    CHECK(make_dense_backend("opencl")->description().find(device->device) != std::string::npos);
  }
}
