// The multifrontal method's own kernels on the device: the original entries scattered into the
// panels; the extend-add of a child's update matrix, one thread per entry of its lower triangle
// with the threads of a warp along a row (contiguous in the child and, mostly, in the front);
// and the gathers and scatters of the substitution, one thread per entry.

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/front_kernels.hpp"

namespace fem::kernels::cuda {

namespace {

constexpr int block_x = 32, block_y = 8, line_block = 256;

template <class T>
__global__ void scatter_add_kernel(T* target, const std::int64_t* position, const T* value, std::int64_t count) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * line_block + threadIdx.x;
  if (i < count) atomicAdd(target + position[i], value[i]);
}

template <class T>
__global__ void extend_add_kernel(const T* child, int rc, const int* relative, int into_panel, T* panel, int k,
                                  T* update, int r) {
  const int y = blockIdx.x * block_x + threadIdx.x;
  const int x = blockIdx.y * block_y + threadIdx.y;
  if (x >= rc || y > x) return;
  const T v = child[static_cast<long long>(x) * rc + y];
  const long long row = relative[x], col = relative[y];
  if (y < into_panel)
    panel[row * k + col] += v;
  else
    update[(row - k) * r + (col - k)] += v;
}

template <class T>
__global__ void gather_kernel(const T* from, const std::int64_t* position, std::int64_t count, T* to) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * line_block + threadIdx.x;
  if (i < count) to[i] = from[position[i]];
}

template <class T>
__global__ void gather_rows_kernel(const T* x, const int* rows, int n, T* t) {
  const int i = blockIdx.x * line_block + threadIdx.x;
  if (i < n) t[i] = x[rows[i]];
}

template <class T>
__global__ void scatter_subtract_kernel(T* x, const int* rows, const T* t, int n) {
  const int i = blockIdx.x * line_block + threadIdx.x;
  if (i < n) x[rows[i]] -= t[i];
}

unsigned blocks_for(std::int64_t n) { return static_cast<unsigned>((n + line_block - 1) / line_block); }

}  // namespace

template <class T>
void scatter_add(T* target, const std::int64_t* position, const T* value, std::int64_t count, cudaStream_t stream) {
  if (count == 0) return;
  scatter_add_kernel<<<blocks_for(count), line_block, 0, stream>>>(target, position, value, count);
  check(cudaGetLastError(), "scatter_add launch");
}

template <class T>
void extend_add(const T* child, int rc, const int* relative, int into_panel, T* panel, int k, T* update, int r,
                cudaStream_t stream) {
  if (rc == 0) return;
  const dim3 block(block_x, block_y);
  const dim3 grid((rc + block_x - 1) / block_x, (rc + block_y - 1) / block_y);
  extend_add_kernel<<<grid, block, 0, stream>>>(child, rc, relative, into_panel, panel, k, update, r);
  check(cudaGetLastError(), "extend_add launch");
}

template <class T>
void gather(const T* from, const std::int64_t* position, std::int64_t count, T* to, cudaStream_t stream) {
  if (count == 0) return;
  gather_kernel<<<blocks_for(count), line_block, 0, stream>>>(from, position, count, to);
  check(cudaGetLastError(), "gather launch");
}

template <class T>
void gather_rows(const T* x, const int* rows, int n, T* t, cudaStream_t stream) {
  if (n == 0) return;
  gather_rows_kernel<<<blocks_for(n), line_block, 0, stream>>>(x, rows, n, t);
  check(cudaGetLastError(), "gather_rows launch");
}

template <class T>
void scatter_subtract(T* x, const int* rows, const T* t, int n, cudaStream_t stream) {
  if (n == 0) return;
  scatter_subtract_kernel<<<blocks_for(n), line_block, 0, stream>>>(x, rows, t, n);
  check(cudaGetLastError(), "scatter_subtract launch");
}

template void scatter_add<double>(double*, const std::int64_t*, const double*, std::int64_t, cudaStream_t);
template void scatter_add<float>(float*, const std::int64_t*, const float*, std::int64_t, cudaStream_t);
template void extend_add<double>(const double*, int, const int*, int, double*, int, double*, int, cudaStream_t);
template void extend_add<float>(const float*, int, const int*, int, float*, int, float*, int, cudaStream_t);

template void gather<double>(const double*, const std::int64_t*, std::int64_t, double*, cudaStream_t);
template void gather<float>(const float*, const std::int64_t*, std::int64_t, float*, cudaStream_t);
template void gather_rows<double>(const double*, const int*, int, double*, cudaStream_t);
template void gather_rows<float>(const float*, const int*, int, float*, cudaStream_t);
template void scatter_subtract<double>(double*, const int*, const double*, int, cudaStream_t);
template void scatter_subtract<float>(float*, const int*, const float*, int, cudaStream_t);

}  // namespace fem::kernels::cuda
