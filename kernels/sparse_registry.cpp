// make_sparse_backend: the sparse side of the back-end table (backend_table.cpp).
#include <stdexcept>

#include "kernels/compute_backend.hpp"
#include "kernels/device_matrix.hpp"
#include "kernels/sparse_backend.hpp"

namespace fem::kernels {

const std::vector<std::string>& sparse_backend_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all;
    for (const ComputeBackend& b : compute_backends()) all.push_back(b.device);
    return all;
  }();
  return names;
}

std::unique_ptr<SparseBackend> make_sparse_backend(const std::string& device) {
  const ComputeBackend* backend = find_compute_backend(device);
  if (!backend) {
    std::string known;
    for (const auto& n : sparse_backend_names()) known += (known.empty() ? "" : ", ") + n;
    throw std::invalid_argument("unknown sparse back-end '" + device + "' (known: " + known + ")");
  }
  if (!backend->built) throw BackendUnavailable(unavailable_reason(*backend));
  return backend->factories.make_sparse();
}

}  // namespace fem::kernels
