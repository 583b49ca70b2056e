// The benchmark's band made where it is factored: filling 36 GB through PCIe would cost more
// than the factorisation it is made for.
#include "bench/band/band_test_matrix.hpp"
#include "kernels/cuda/cuda_device.hpp"

namespace fem::bench {

namespace {

// reflected_n > 0: the rows of the reflection of a band of reflected_n equations.
template <class T>
__global__ void fill_kernel(T* rows, std::int64_t first, std::int64_t count, std::int64_t b, std::int64_t window,
                            std::int64_t reflected_n) {
  const std::int64_t pitch = window + 1;
  for (std::int64_t e = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; e < count * pitch;
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t row = first + e / pitch, slot = e % pitch;
    rows[e] = static_cast<T>(reflected_n > 0 ? reflected_band_slot(row, slot, b, window, reflected_n)
                                             : band_slot(row, slot, b, window));
  }
}

}  // namespace

template <class T>
void fill_band_on_device(T* rows, std::int64_t first, std::int64_t last, std::int64_t b, std::int64_t window) {
  fill_kernel<<<4096, 256>>>(rows, first, last - first, b, window, 0);
  kernels::cuda::synchronize();
}

template <class T>
void fill_reflected_band_on_device(T* rows, std::int64_t n, std::int64_t first, std::int64_t b, std::int64_t window) {
  fill_kernel<<<4096, 256>>>(rows, 0, n - first, b, window, n);
  kernels::cuda::synchronize();
}

template void fill_band_on_device<double>(double*, std::int64_t, std::int64_t, std::int64_t, std::int64_t);
template void fill_band_on_device<float>(float*, std::int64_t, std::int64_t, std::int64_t, std::int64_t);
template void fill_reflected_band_on_device<double>(double*, std::int64_t, std::int64_t, std::int64_t, std::int64_t);
template void fill_reflected_band_on_device<float>(float*, std::int64_t, std::int64_t, std::int64_t, std::int64_t);

}  // namespace fem::bench
