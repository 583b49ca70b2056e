#pragma once
// Launchers of the multifrontal kernels that DeviceFronts uses beside cuBLAS and cuSOLVER: the
// assembly and the substitution's indirect moves. Asynchronous on `stream`.
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

// to[i] = from[position[i]] for i < count.
template <class T>
void gather(const T* from, const std::int64_t* position, std::int64_t count, T* to, cudaStream_t stream);

// The substitution's indirect moves: t[i] = x[rows[i]], and x[rows[i]] -= t[i], for i < n (rows distinct).
template <class T>
void gather_rows(const T* x, const int* rows, int n, T* t, cudaStream_t stream);
template <class T>
void scatter_subtract(T* x, const int* rows, const T* t, int n, cudaStream_t stream);

}  // namespace fem::kernels::cuda
