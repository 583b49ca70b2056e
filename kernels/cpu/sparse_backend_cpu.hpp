#pragma once
// The sparse back-end on the host: vectors in host memory, CSR products and vector steps over
// OpenMP threads (one thread below the size where threads pay).
#include <memory>

#include "kernels/sparse_backend.hpp"

namespace fem::kernels::cpu {

// The host back-end keeps a reference to the matrices it is handed: they must outlive it.
std::unique_ptr<SparseBackend> make_host_sparse_backend();

}  // namespace fem::kernels::cpu
