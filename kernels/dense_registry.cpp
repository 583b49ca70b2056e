#include "kernels/dense_registry.hpp"

#include "kernels/compute_backend.hpp"

namespace fem::kernels {

namespace {

const ComputeBackend& owner_of(const std::string& name) {
  if (const ComputeBackend* owner = find_dense_owner(name)) return *owner;
  std::string known;
  for (const auto& n : dense_backend_names()) known += (known.empty() ? "" : ", ") + n;
  throw std::invalid_argument("unknown dense back-end '" + name + "' (known: " + known + ")");
}

}  // namespace

std::vector<std::string> dense_backend_names() {
  std::vector<std::string> names;
  for (const ComputeBackend& b : compute_backends()) names.insert(names.end(), b.dense_names.begin(), b.dense_names.end());
  return names;
}

BackendStatus dense_backend_status(const std::string& name) {
  const std::string reason = unavailable_reason(owner_of(name));
  return {name, reason.empty(), reason};
}

std::unique_ptr<DenseBackend> make_dense_backend(const std::string& name) {
  const BackendStatus status = dense_backend_status(name);
  if (!status.available)
    throw BackendUnavailable("dense back-end '" + name + "' is not available: " + status.reason);
  return owner_of(name).factories.make_dense(name);
}

}  // namespace fem::kernels
