#pragma once
// How many bytes a solver may still allocate where a back-end computes: the host's available
// memory (support/host_memory.hpp) for host back-ends, the CUDA device's free memory
// (kernels/device_queries.hpp) for the CUDA ones.
#include <cstddef>
#include <string>

#include "kernels/dense_backend.hpp"

namespace fem::band {

std::size_t available_memory(const kernels::DenseBackend& backend);

// Throws SolveFailure naming what was asked, where, and what is available when `bytes` is
// more than `available`, followed by `advice` (what the user can do instead).
inline constexpr const char* kBandMemoryAdvice = "renumber to reduce the bandwidth, or use an iterative or frontal solver";
void require_memory(std::size_t bytes, std::size_t available, const std::string& what, const std::string& where,
                    const std::string& advice = kBandMemoryAdvice);
void require_memory(const kernels::DenseBackend& backend, std::size_t bytes, const std::string& what);

}  // namespace fem::band
