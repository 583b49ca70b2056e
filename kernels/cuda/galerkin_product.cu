// P^T A P's upper blocks on the device (galerkin_product_cuda.hpp). A thread block makes one
// coarse row a at a time, in two steps that each sum in a fixed order (the result does not depend
// on the threads' timing):
//   W_a = R_a A, a row over the fine rows J that A's rows under R_a reach: W_aj = sum over i of
//         P_ia^T A_ij, gathered along A's row j (A symmetric), one thread a j;
//   Ac_ab = sum over j of W_aj P_jb for each coarse column b >= a of P's rows in J, a warp a b,
//         over R_b's rows (P's column b), reduced across the warp.
// J and the columns b are sets in shared memory; W lives in a global scratch slice per thread
// block (it outgrows shared memory: 2048 blocks of 6 x 3 doubles).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/device_buffer.hpp"
#include "kernels/cuda/galerkin_product_cuda.hpp"
#include "kernels/cuda/transfer_shapes.cuh"

namespace fem::kernels::cuda {
namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kFineSlots = 4096;  // the set J of a coarse row's fine rows, at most half full
constexpr int kMaxFine = kFineSlots / 2;
constexpr int kCoarseSlots = 512;  // the set of its upper coarse columns
constexpr int kMaxCoarse = kCoarseSlots / 2;
constexpr int kBlocksPerSm = 4;  // 46 KB of shared memory each

struct Args {
  std::int64_t coarse_rows = 0;
  const std::int64_t* a_ptr = nullptr;
  const std::int32_t* a_col = nullptr;
  const double* a_val = nullptr;
  const std::int64_t* p_ptr = nullptr;
  const std::int32_t* p_col = nullptr;
  const double* p_val = nullptr;
  const std::int64_t* r_ptr = nullptr;
  const std::int32_t* r_col = nullptr;
  std::int32_t* counts = nullptr;         // the pattern pass: each row's upper blocks
  const std::int64_t* offsets = nullptr;  // the value pass: where each row's blocks go
  std::int32_t* out_col = nullptr;
  double* out_val = nullptr;
  double* scratch = nullptr;  // kMaxFine W blocks per thread block
  int* overflow = nullptr;    // set where a row outgrew the sets
};

// A set of row numbers in shared memory (open addressing), each numbered in the order it came;
// `list` holds them by that number. Insertions stop once `limit` are in (the caller checks).
struct SharedSet {
  int* keys;
  int* index;  // null where no lookups are made
  int* list;
  int* count;
  int slots, limit;

  __device__ void clear() const {
    for (int s = threadIdx.x; s < slots; s += blockDim.x) keys[s] = -1;
    if (threadIdx.x == 0) *count = 0;
  }
  __device__ void insert(int key) const {
    if (*static_cast<volatile int*>(count) >= limit) return;  // a few threads more may pass: slots = 2 limit
    unsigned s = (static_cast<unsigned>(key) * 2654435761u) & static_cast<unsigned>(slots - 1);
    for (;;) {
      const int before = atomicCAS(&keys[s], -1, key);
      if (before == key) return;
      if (before == -1) {
        const int n = atomicAdd(count, 1);
        if (index) index[s] = n;
        if (n < limit) list[n] = key;
        return;
      }
      s = (s + 1) & static_cast<unsigned>(slots - 1);
    }
  }
  __device__ int find(int key) const {
    unsigned s = (static_cast<unsigned>(key) * 2654435761u) & static_cast<unsigned>(slots - 1);
    for (;;) {
      const int at = keys[s];
      if (at == key) return index[s];
      if (at == -1) return -1;
      s = (s + 1) & static_cast<unsigned>(slots - 1);
    }
  }
};

// Where `key` is in the ascending col[first, last), or -1.
__device__ std::int64_t find_sorted(const std::int32_t* col, std::int64_t first, std::int64_t end, int key) {
  std::int64_t last = end;
  while (first < last) {
    const std::int64_t mid = first + (last - first) / 2;
    if (col[mid] < key) first = mid + 1;
    else last = mid;
  }
  return first < end && col[first] == key ? first : -1;
}

// W_aj for each j of J (K x B blocks into `w`, by j's number in J).
template <int B, int K>
__device__ void fine_row_of_r_a(const Args& g, int a, const SharedSet& fine, int fine_n, double* w) {
  const std::int64_t r_first = g.r_ptr[a], r_last = g.r_ptr[a + 1];
  for (int s = threadIdx.x; s < fine_n; s += kThreads) {
    const int j = fine.list[s];
    double acc[K * B] = {};
    for (auto e = g.a_ptr[j]; e < g.a_ptr[j + 1]; ++e) {
      const int i = g.a_col[e];
      if (find_sorted(g.r_col, r_first, r_last, i) < 0) continue;
      const std::int64_t k = find_sorted(g.p_col, g.p_ptr[i], g.p_ptr[i + 1], a);  // there: i is under R_a
      const double* pb = g.p_val + k * (B * K);
      const double* ab = g.a_val + e * (B * B);  // A_ji = A_ij^T
#pragma unroll
      for (int r = 0; r < K; ++r)
#pragma unroll
        for (int c = 0; c < B; ++c)
#pragma unroll
          for (int m = 0; m < B; ++m) acc[r * B + c] += pb[m * K + r] * ab[c * B + m];
    }
    double* into = w + static_cast<std::int64_t>(s) * (K * B);
#pragma unroll
    for (int e = 0; e < K * B; ++e) into[e] = acc[e];
  }
}

// Ac_ab for each column b of `sorted` (a warp each), written at the row's offset.
template <int B, int K>
__device__ void coarse_row(const Args& g, int a, const SharedSet& fine, const int* sorted, int coarse_n,
                           const double* w) {
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (int q = warp; q < coarse_n; q += kWarps) {
    const int b = sorted[q];
    double acc[K * K] = {};
    for (auto k = g.r_ptr[b] + lane; k < g.r_ptr[b + 1]; k += 32) {
      const int j = g.r_col[k];
      const int s = fine.find(j);
      if (s < 0) continue;  // W_aj = 0
      const std::int64_t at = find_sorted(g.p_col, g.p_ptr[j], g.p_ptr[j + 1], b);
      const double* pb = g.p_val + at * (B * K);
      const double* wb = w + static_cast<std::int64_t>(s) * (K * B);
#pragma unroll
      for (int r = 0; r < K; ++r)
#pragma unroll
        for (int c = 0; c < K; ++c)
#pragma unroll
          for (int m = 0; m < B; ++m) acc[r * K + c] += wb[r * B + m] * pb[m * K + c];
    }
#pragma unroll
    for (int e = 0; e < K * K; ++e)
      for (int step = 16; step > 0; step /= 2) acc[e] += __shfl_xor_sync(0xffffffffu, acc[e], step);
    if (lane == 0) {
      const std::int64_t at = g.offsets[a] + q;
      g.out_col[at] = b;
#pragma unroll
      for (int e = 0; e < K * K; ++e) g.out_val[at * (K * K) + e] = acc[e];
    }
  }
}

// Each coarse row's upper blocks: counted (Values = false) or made (true).
template <int B, int K, bool Values>
__global__ void __launch_bounds__(kThreads) galerkin_rows(Args g) {
  __shared__ int fine_keys[kFineSlots], fine_index[kFineSlots], fine_list[kMaxFine];
  __shared__ int coarse_keys[kCoarseSlots], coarse_list[kMaxCoarse], coarse_sorted[kMaxCoarse];
  __shared__ int fine_count, coarse_count;
  const SharedSet fine{fine_keys, fine_index, fine_list, &fine_count, kFineSlots, kMaxFine};
  const SharedSet coarse{coarse_keys, nullptr, coarse_list, &coarse_count, kCoarseSlots, kMaxCoarse};
  double* const w = g.scratch + static_cast<std::int64_t>(blockIdx.x) * kMaxFine * (K * B);
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (std::int64_t row = blockIdx.x; row < g.coarse_rows; row += gridDim.x) {
    const int a = static_cast<int>(row);
    __syncthreads();  // the last row's sets are read no more
    fine.clear();
    coarse.clear();
    __syncthreads();
    for (auto k = g.r_ptr[a] + warp; k < g.r_ptr[a + 1]; k += kWarps) {  // J: A's columns in R_a's rows
      const int i = g.r_col[k];
      for (auto e = g.a_ptr[i] + lane; e < g.a_ptr[i + 1]; e += 32) fine.insert(g.a_col[e]);
    }
    __syncthreads();
    const int fine_n = fine_count;
    if (fine_n > kMaxFine) {
      if (threadIdx.x == 0) atomicExch(g.overflow, 1);
      continue;
    }
    for (int s = threadIdx.x; s < fine_n; s += kThreads) {  // P's columns b >= a in J's rows
      const int j = fine_list[s];
      for (auto e = g.p_ptr[j]; e < g.p_ptr[j + 1]; ++e)
        if (g.p_col[e] >= a) coarse.insert(g.p_col[e]);
    }
    __syncthreads();
    const int coarse_n = coarse_count;
    if (coarse_n > kMaxCoarse) {
      if (threadIdx.x == 0) atomicExch(g.overflow, 1);
      continue;
    }
    if constexpr (!Values) {
      if (threadIdx.x == 0) g.counts[a] = coarse_n;
    } else {
      for (int q = threadIdx.x; q < coarse_n; q += kThreads) {  // the columns in order: each one's rank
        const int b = coarse_list[q];
        int rank = 0;
        for (int o = 0; o < coarse_n; ++o) rank += coarse_list[o] < b;
        coarse_sorted[rank] = b;
      }
      fine_row_of_r_a<B, K>(g, a, fine, fine_n, w);
      __syncthreads();  // W and the sorted columns are whole
      coarse_row<B, K>(g, a, fine, coarse_sorted, coarse_n, w);
    }
  }
}

// The thread blocks that stay resident: each owns a slice of the scratch.
unsigned resident_blocks() {
  int device = 0, sms = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute");
  return static_cast<unsigned>(std::max(1, sms * kBlocksPerSm));
}

template <bool Values>
void launch(int b, int k, const Args& g, unsigned blocks) {
  with_transfer_shape(b, k, "galerkin_rows", [&](auto B, auto K) {
    galerkin_rows<decltype(B)::value, decltype(K)::value, Values><<<blocks, kThreads>>>(g);
  });
  check(cudaGetLastError(), "galerkin_rows");
}

}  // namespace

struct DeviceGalerkinProduct::Inputs {
  Args args;
  int b = 1, k = 1;
  unsigned blocks = 1;
  DeviceBuffer<int> overflow{1};
};

DeviceGalerkinProduct::DeviceGalerkinProduct(const DeviceBlockMatrix& a, const DeviceBlockMatrix& p,
                                             const DeviceBlockMatrix& r)
    : inputs_(std::make_unique<Inputs>()) {
  Inputs& in = *inputs_;
  in.b = a.row_block;
  in.k = p.col_block;
  if (!a.double_values || !p.double_values || a.col_block != in.b || p.row_block != in.b || !has_transfer_kernel(in.b, in.k))
    return;
  const std::int64_t coarse_rows = r.block_rows;
  in.overflow.zero();
  in.blocks = resident_blocks();
  Args& g = in.args;
  g = Args{coarse_rows, a.row_ptr, a.col, static_cast<const double*>(a.val), p.row_ptr, p.col,
           static_cast<const double*>(p.val), r.row_ptr, r.col};
  g.overflow = in.overflow.get();
  DeviceBuffer<std::int32_t> counts(static_cast<std::size_t>(std::max<std::int64_t>(coarse_rows, 1)));
  g.counts = counts.get();
  launch<false>(in.b, in.k, g, in.blocks);
  int overflow = 0;
  in.overflow.download(&overflow);  // waits for the kernel
  g.counts = nullptr;
  if (overflow) return;
  std::vector<std::int32_t> count(static_cast<std::size_t>(coarse_rows));
  if (coarse_rows > 0) copy_bytes_to_host(count.data(), counts.get(), count.size() * sizeof(std::int32_t));
  row_ptr_.assign(count.size() + 1, 0);
  for (std::size_t i = 0; i < count.size(); ++i) row_ptr_[i + 1] = row_ptr_[i] + count[i];
  fits_ = true;
}

DeviceGalerkinProduct::~DeviceGalerkinProduct() = default;

bool DeviceGalerkinProduct::compute(std::int32_t* col, double* val) const {
  if (!fits_) return false;
  const Inputs& in = *inputs_;
  const auto blocks = static_cast<std::size_t>(row_ptr_.back());
  const auto block_values = static_cast<std::size_t>(in.k) * static_cast<std::size_t>(in.k);
  const std::size_t scratch = static_cast<std::size_t>(in.blocks) * kMaxFine * in.k * in.b;
  const std::size_t needed = row_ptr_.size() * sizeof(std::int64_t) + blocks * sizeof(std::int32_t) +
                             (blocks * block_values + scratch) * sizeof(double);
  std::size_t free = 0, total = 0;
  check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
  if (needed + (std::size_t{256} << 20) > free) return false;  // a margin for the other streams' work
  DeviceBuffer<std::int64_t> offsets(row_ptr_);
  DeviceBuffer<std::int32_t> out_col(std::max<std::size_t>(blocks, 1));
  DeviceBuffer<double> out_val(std::max<std::size_t>(blocks * block_values, 1)), w(std::max<std::size_t>(scratch, 1));
  Args g = in.args;
  g.offsets = offsets.get();
  g.out_col = out_col.get();
  g.out_val = out_val.get();
  g.scratch = w.get();
  launch<true>(in.b, in.k, g, in.blocks);
  check(cudaStreamSynchronize(0), "galerkin_rows (values)");
  if (blocks == 0) return true;
  copy_bytes_to_host(col, out_col.get(), blocks * sizeof(std::int32_t));
  copy_bytes_to_host(val, out_val.get(), blocks * block_values * sizeof(double));
  return true;
}

}  // namespace fem::kernels::cuda
