#pragma once
// Launchers of the multifrontal assembly kernels (DeviceFronts uses them); asynchronous on `stream`.
#include <cuda_runtime.h>

#include <cstdint>

namespace fem::kernels::cuda {

// target[position[i]] += value[i] for i < count.
template <class T>
void scatter_add(T* target, const std::int64_t* position, const T* value, std::int64_t count, cudaStream_t stream);

// The lower triangle of the child's rc x rc update matrix added into a front: child row x goes to
// front row relative[x]; columns y < into_panel into the panel (ld k), the others into the update
// matrix (ld r, row and column less k).
template <class T>
void extend_add(const T* child, int rc, const int* relative, int into_panel, T* panel, int k, T* update, int r,
                cudaStream_t stream);

}  // namespace fem::kernels::cuda
