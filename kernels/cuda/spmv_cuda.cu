#include "kernels/cuda/spmv_cuda.hpp"

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/cuda_device.hpp"
#include "kernels/cuda/device_buffer.hpp"

#include <cuda_runtime.h>

#include <limits>
#include <type_traits>
#include <sstream>
#include <stdexcept>

namespace fem::kernels::cuda {
namespace {

// Register caps as launch bounds: the cap follows from the threads that must fit per SM.
template <int Cap> struct Bounds;
template <> struct Bounds<32> { static constexpr int threads = 1024, blocks = 2; };
template <> struct Bounds<64> { static constexpr int threads = 1024, blocks = 1; };
template <> struct Bounds<255> { static constexpr int threads = 256, blocks = 1; };
#define FEM_BOUNDS __launch_bounds__(Bounds<Cap>::threads, Bounds<Cap>::blocks)

// The matrix streams through once (evict-first loads); x is reused and read through the
// read-only cache.
template <class T> __device__ __forceinline__ T stream(const T* p) { return __ldcs(p); }

__device__ __forceinline__ std::int64_t global_thread() {
  return static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}

template <int Cap>
__global__ void FEM_BOUNDS csr_scalar(std::int64_t n, const int* rp, const int* ci, const double* v,
                                      const double* __restrict__ x, double* __restrict__ y) {
  const std::int64_t i = global_thread();
  if (i >= n) return;
  double sum = 0;
  for (int k = rp[i]; k < rp[i + 1]; ++k) sum += stream(v + k) * __ldg(x + stream(ci + k));
  y[i] = sum;
}

// T lanes per row; every lane of the warp takes part in the shuffles (no early return).
template <int Cap, int T>
__global__ void FEM_BOUNDS csr_vector(std::int64_t n, const int* rp, const int* ci, const double* v,
                                      const double* __restrict__ x, double* __restrict__ y) {
  const std::int64_t i = global_thread() / T;
  const int lane = threadIdx.x & (T - 1);
  double sum = 0;
  if (i < n)
    for (int k = rp[i] + lane; k < rp[i + 1]; k += T) sum += stream(v + k) * __ldg(x + stream(ci + k));
#pragma unroll
  for (int s = T / 2; s > 0; s /= 2) sum += __shfl_down_sync(0xffffffffu, sum, s, T);
  if (i < n && lane == 0) y[i] = sum;
}

template <int Cap>
__global__ void FEM_BOUNDS ell(std::int64_t n, std::int64_t width, const int* col, const double* val,
                               const double* __restrict__ x, double* __restrict__ y, bool accumulate) {
  const std::int64_t i = global_thread();
  if (i >= n) return;
  double sum = 0;
  for (std::int64_t k = 0; k < width; ++k) {
    const int c = stream(col + k * n + i);
    if (c < 0) break;  // rows are left-packed: padding only at the end
    sum += stream(val + k * n + i) * __ldg(x + c);
  }
  y[i] = accumulate ? y[i] + sum : sum;
}

template <int Cap>
__global__ void FEM_BOUNDS sell(std::int64_t n, int height, const std::int64_t* slice_ptr, const int* slice_width,
                                const int* col, const double* val, const double* __restrict__ x,
                                double* __restrict__ y) {
  const std::int64_t i = global_thread();
  if (i >= n) return;
  const std::int64_t slice = i / height;
  const std::int64_t base = slice_ptr[slice] + i % height;
  const int width = slice_width[slice];
  double sum = 0;
  for (int k = 0; k < width; ++k) {
    const int c = stream(col + base + static_cast<std::int64_t>(k) * height);
    if (c < 0) break;
    sum += stream(val + base + static_cast<std::int64_t>(k) * height) * __ldg(x + c);
  }
  y[i] = sum;
}

// s += B x_c for the 3x3 block B whose entry e sits at b[e * stride] (the nine planes of the
// blocked formats) and the three entries of x from 3 c.
struct Sums3 {
  double s0 = 0, s1 = 0, s2 = 0;
};
__device__ __forceinline__ void add_block3(Sums3& s, const double* b, std::int64_t stride, const double* x,
                                           std::int64_t c) {
  const double x0 = __ldg(x + 3 * c), x1 = __ldg(x + 3 * c + 1), x2 = __ldg(x + 3 * c + 2);
  s.s0 += stream(b) * x0 + stream(b + stride) * x1 + stream(b + 2 * stride) * x2;
  s.s1 += stream(b + 3 * stride) * x0 + stream(b + 4 * stride) * x1 + stream(b + 5 * stride) * x2;
  s.s2 += stream(b + 6 * stride) * x0 + stream(b + 7 * stride) * x1 + stream(b + 8 * stride) * x2;
}
__device__ __forceinline__ void store3(double* y, std::int64_t br, const Sums3& s) {
  y[3 * br] = s.s0;
  y[3 * br + 1] = s.s1;
  y[3 * br + 2] = s.s2;
}

// 3x3 blocks, T lanes per block row. A block row's values are stored as nine planes, one per
// position in the block (BcsrMatrix::planes), so lane k reads entry e of block k next to lane
// k + 1's: every load of the team is coalesced.
template <int Cap, int T>
__global__ void FEM_BOUNDS bcsr3(std::int64_t block_rows, const int* brp, const int* bcol, const double* val,
                                 const double* __restrict__ x, double* __restrict__ y) {
  const std::int64_t br = global_thread() / T;
  const int lane = threadIdx.x & (T - 1);
  Sums3 s;
  if (br < block_rows) {
    const int first = brp[br], count = brp[br + 1] - first;
    const double* v = val + 9 * static_cast<std::int64_t>(first);
    for (int k = lane; k < count; k += T) add_block3(s, v + k, count, x, stream(bcol + first + k));
  }
#pragma unroll
  for (int d = T / 2; d > 0; d /= 2) {
    s.s0 += __shfl_down_sync(0xffffffffu, s.s0, d, T);
    s.s1 += __shfl_down_sync(0xffffffffu, s.s1, d, T);
    s.s2 += __shfl_down_sync(0xffffffffu, s.s2, d, T);
  }
  if (br < block_rows && lane == 0) store3(y, br, s);
}

// Blocked ELL of 3x3 blocks, one thread per block row; block rows are the fastest index, so a
// warp's loads of one block entry are 32 consecutive doubles.
template <int Cap>
__global__ void FEM_BOUNDS bell3(std::int64_t block_rows, std::int64_t width, const int* bcol, const double* val,
                                 const double* __restrict__ x, double* __restrict__ y) {
  const std::int64_t br = global_thread();
  if (br >= block_rows) return;
  const std::int64_t n = block_rows;
  Sums3 s;
  for (std::int64_t k = 0; k < width; ++k) {
    const int c = stream(bcol + k * n + br);
    if (c < 0) break;  // block rows are left-packed: padding only at the end
    add_block3(s, val + 9 * k * n + br, n, x, c);
  }
  store3(y, br, s);
}

// Block diagonals of 3x3 blocks, one thread per block row: no column indices at all, and both the
// values and x are read contiguously across the warp.
template <int Cap>
__global__ void FEM_BOUNDS cds3(std::int64_t block_rows, int diagonals, const int* offset, const double* val,
                                const double* __restrict__ x, double* __restrict__ y) {
  const std::int64_t br = global_thread();
  if (br >= block_rows) return;
  const std::int64_t n = block_rows;
  Sums3 s;
  for (int d = 0; d < diagonals; ++d) {
    const std::int64_t bc = br + __ldg(offset + d);
    if (bc < 0 || bc >= n) continue;
    add_block3(s, val + 9 * d * n + br, n, x, bc);
  }
  store3(y, br, s);
}

template <int Cap>
__global__ void FEM_BOUNDS dia(std::int64_t n, int diagonals, const int* offset, const double* val,
                               const double* __restrict__ x, double* __restrict__ y) {
  const std::int64_t i = global_thread();
  if (i >= n) return;
  double sum = 0;
  for (int d = 0; d < diagonals; ++d) {
    const std::int64_t j = i + __ldg(offset + d);
    if (j >= 0 && j < n) sum += stream(val + d * n + i) * __ldg(x + j);
  }
  y[i] = sum;
}

__global__ void coo_accumulate(std::int64_t entries, const int* row, const int* col, const double* val,
                               const double* __restrict__ x, double* y) {
  const std::int64_t k = global_thread();
  if (k < entries) atomicAdd(y + row[k], val[k] * __ldg(x + col[k]));
}

std::vector<int> narrow(const std::vector<std::int64_t>& v) { return std::vector<int>(v.begin(), v.end()); }

bool power_of_two(int v) { return v > 0 && (v & (v - 1)) == 0; }

bool blocked(SpmvFormat f) { return f == SpmvFormat::Bcsr || f == SpmvFormat::Bell || f == SpmvFormat::Cds; }

void validate(const SpmvSetting& s) {
  if (s.block_size < 32 || s.block_size > 1024 || s.block_size % 32 != 0)
    throw std::invalid_argument("SpMV setting " + to_string(s) + ": block size must be a multiple of 32 in 32..1024");
  if (s.register_cap != 32 && s.register_cap != 64 && s.register_cap != 255)
    throw std::invalid_argument("SpMV setting " + to_string(s) + ": register cap must be 32, 64 or 255");
  if (s.register_cap == 255 && s.block_size > 256)
    throw std::invalid_argument("SpMV setting " + to_string(s) + ": a register cap of 255 allows at most 256 threads");
  if (!power_of_two(s.threads_per_row) || s.threads_per_row > 32)
    throw std::invalid_argument("SpMV setting " + to_string(s) + ": threads per row must be a power of two up to 32");
  if (s.carveout < -1 || s.carveout > 100)
    throw std::invalid_argument("SpMV setting " + to_string(s) + ": carve-out is a percentage (or -1)");
}

}  // namespace

struct DeviceSpmv::Impl {
  SpmvSetting setting;
  std::int64_t rows = 0, width = 0, entries = 0;
  int height = 0, diagonals = 0;
  DeviceBuffer<int> a_ptr, a_col, a_aux, coo_row, coo_col;
  DeviceBuffer<std::int64_t> slice_ptr;
  DeviceBuffer<double> a_val, coo_val;

  std::size_t bytes() const {
    return a_ptr.bytes() + a_col.bytes() + a_aux.bytes() + coo_row.bytes() + coo_col.bytes() + slice_ptr.bytes() +
           a_val.bytes() + coo_val.bytes();
  }

  // Calls use(kernel, threads, arguments...) for each kernel the setting launches, in order, with
  // the threads it needs: the one place that maps a format, its threads per row and the register
  // cap to kernels. Launching and setting the carve-out both go through it.
  template <class Use> void for_each_kernel(const double* x, double* y, const Use& use) const {
    switch (setting.register_cap) {
      case 32: kernels_with_cap<32>(x, y, use); break;
      case 64: kernels_with_cap<64>(x, y, use); break;
      default: kernels_with_cap<255>(x, y, use); break;
    }
  }
  template <int Cap, class Use> void kernels_with_cap(const double* x, double* y, const Use& use) const;

  void launch(const double* x, double* y) const {
    const int b = setting.block_size;
    for_each_kernel(x, y, [b](auto kernel, std::int64_t threads, auto... arguments) {
      kernel<<<static_cast<unsigned>((threads + b - 1) / b), b>>>(arguments...);
    });
    check(cudaGetLastError(), "SpMV kernel launch");
  }

  void apply_carveout() const {
    // -1 is cudaSharedmemCarveoutDefault: setting it undoes an earlier preference.
    for_each_kernel(nullptr, nullptr, [percent = setting.carveout](auto kernel, auto...) {
      check(cudaFuncSetAttribute(reinterpret_cast<const void*>(kernel), cudaFuncAttributePreferredSharedMemoryCarveout,
                                 percent),
            "cudaFuncSetAttribute (carve-out)");
    });
  }
};

// Calls f with std::integral_constant<int, t> for the threads per row t (a power of two up to 32).
template <class F>
void with_threads_per_row(int t, const F& f) {
  switch (t) {
    case 1: f(std::integral_constant<int, 1>{}); break;
    case 2: f(std::integral_constant<int, 2>{}); break;
    case 4: f(std::integral_constant<int, 4>{}); break;
    case 8: f(std::integral_constant<int, 8>{}); break;
    case 16: f(std::integral_constant<int, 16>{}); break;
    default: f(std::integral_constant<int, 32>{}); break;
  }
}

template <int Cap, class Use>
void DeviceSpmv::Impl::kernels_with_cap(const double* x, double* y, const Use& use) const {
  const std::int64_t block_rows = rows / 3;
  const int *rp = a_ptr.get(), *ci = a_col.get();
  const double* v = a_val.get();
  switch (setting.format) {
    case SpmvFormat::CsrScalar: use(csr_scalar<Cap>, rows, rows, rp, ci, v, x, y); break;
    case SpmvFormat::CsrVector:
      with_threads_per_row(setting.threads_per_row, [&](auto per_row) {
        constexpr int t = decltype(per_row)::value;
        if constexpr (t == 1) use(csr_scalar<Cap>, rows, rows, rp, ci, v, x, y);
        else use(csr_vector<Cap, t>, rows * t, rows, rp, ci, v, x, y);
      });
      break;
    case SpmvFormat::Ell: use(ell<Cap>, rows, rows, width, ci, v, x, y, false); break;
    case SpmvFormat::Sell: use(sell<Cap>, rows, rows, height, slice_ptr.get(), a_aux.get(), ci, v, x, y); break;
    case SpmvFormat::Hyb:
      use(ell<Cap>, rows, rows, width, ci, v, x, y, false);
      if (entries > 0) use(coo_accumulate, entries, entries, coo_row.get(), coo_col.get(), coo_val.get(), x, y);
      break;
    case SpmvFormat::Bcsr:
      with_threads_per_row(setting.threads_per_row, [&](auto per_row) {
        constexpr int t = decltype(per_row)::value;
        use(bcsr3<Cap, t>, block_rows * t, block_rows, rp, ci, v, x, y);
      });
      break;
    case SpmvFormat::Bell: use(bell3<Cap>, block_rows, block_rows, width, ci, v, x, y); break;
    case SpmvFormat::Dia: use(dia<Cap>, rows, rows, diagonals, a_aux.get(), v, x, y); break;
    case SpmvFormat::Cds: use(cds3<Cap>, block_rows, block_rows, diagonals, a_aux.get(), v, x, y); break;
  }
}

DeviceSpmv::DeviceSpmv(const CsrMatrix& a, const SpmvSetting& setting, const PaddingLimit& limit)
    : impl_(std::make_unique<Impl>()) {
  validate(setting);
  check_csr(a);
  if (a.nnz() > std::numeric_limits<int>::max())
    throw FormatRefused("CUDA SpMV: " + std::to_string(a.nnz()) + " nonzeros exceed the 32-bit indices of the kernels");
  if (blocked(setting.format) && a.rows % 3 != 0)
    throw FormatRefused(format_name(setting.format) + " refused: " + std::to_string(a.rows) +
                        " rows are not whole 3x3 block rows");
  Impl& m = *impl_;
  m.setting = setting;
  m.rows = a.rows;
  // The host copy of the format decides the device bytes; check them against free memory first.
  auto fits = [&](std::size_t bytes) {
    const std::size_t free = free_memory();
    if (bytes > free * 9 / 10)
      throw FormatRefused(format_name(setting.format) + " refused: needs " + std::to_string(bytes >> 20) +
                          " MiB on the device, which has " + std::to_string(free >> 20) + " MiB free");
  };
  switch (setting.format) {
    case SpmvFormat::CsrScalar:
    case SpmvFormat::CsrVector: {
      fits(a.col.size() * 12 + a.row_ptr.size() * 4);
      m.a_ptr = DeviceBuffer<int>(narrow(a.row_ptr));
      m.a_col = DeviceBuffer<int>(a.col);
      m.a_val = DeviceBuffer<double>(a.val);
      break;
    }
    case SpmvFormat::Ell: {
      const EllMatrix e = to_ell(a, limit);
      fits(e.col.size() * 12);
      m.width = e.width;
      m.a_col = DeviceBuffer<int>(e.col);
      m.a_val = DeviceBuffer<double>(e.val);
      break;
    }
    case SpmvFormat::Sell: {
      const SellMatrix s = to_sell(a, 32, limit);
      fits(s.col.size() * 12);
      m.height = s.slice_height;
      m.slice_ptr = DeviceBuffer<std::int64_t>(s.slice_ptr);
      m.a_aux = DeviceBuffer<int>(s.slice_width);
      m.a_col = DeviceBuffer<int>(s.col);
      m.a_val = DeviceBuffer<double>(s.val);
      break;
    }
    case SpmvFormat::Hyb: {
      const HybMatrix h = to_hyb(a, limit);
      fits(h.ell.col.size() * 12 + h.coo_val.size() * 16);
      m.width = h.ell.width;
      m.entries = static_cast<std::int64_t>(h.coo_val.size());
      m.a_col = DeviceBuffer<int>(h.ell.col);
      m.a_val = DeviceBuffer<double>(h.ell.val);
      m.coo_row = DeviceBuffer<int>(h.coo_row);
      m.coo_col = DeviceBuffer<int>(h.coo_col);
      m.coo_val = DeviceBuffer<double>(h.coo_val);
      break;
    }
    case SpmvFormat::Bcsr: {
      const BcsrMatrix b = to_bcsr(a, 3, limit, /*planes=*/true);  // the order bcsr3 reads
      fits(b.val.size() * 8 + b.block_col.size() * 4);
      m.a_ptr = DeviceBuffer<int>(narrow(b.block_row_ptr));
      m.a_col = DeviceBuffer<int>(b.block_col);
      m.a_val = DeviceBuffer<double>(b.val);
      break;
    }
    case SpmvFormat::Bell: {
      const BellMatrix b = to_bell(a, 3, limit);
      fits(b.val.size() * 8 + b.col.size() * 4);
      m.width = b.width;
      m.a_col = DeviceBuffer<int>(b.col);
      m.a_val = DeviceBuffer<double>(b.val);
      break;
    }
    case SpmvFormat::Dia: {
      const DiaMatrix d = to_dia(a, limit);
      fits(d.val.size() * 8);
      m.diagonals = static_cast<int>(d.offset.size());
      m.a_aux = DeviceBuffer<int>(d.offset);
      m.a_val = DeviceBuffer<double>(d.val);
      break;
    }
    case SpmvFormat::Cds: {
      const CdsMatrix d = to_cds(a, 3, limit);
      fits(d.val.size() * 8);
      m.diagonals = static_cast<int>(d.offset.size());
      m.a_aux = DeviceBuffer<int>(d.offset);
      m.a_val = DeviceBuffer<double>(d.val);
      break;
    }
  }
  m.apply_carveout();
}

void DeviceSpmv::relaunch(const SpmvSetting& setting) {
  validate(setting);
  if (setting.format != impl_->setting.format)
    throw std::invalid_argument("SpMV relaunch: " + to_string(setting) + " is not the format on the device (" +
                                format_name(impl_->setting.format) + ")");
  impl_->setting = setting;
  impl_->apply_carveout();
}

DeviceSpmv::~DeviceSpmv() = default;
DeviceSpmv::DeviceSpmv(DeviceSpmv&&) noexcept = default;
DeviceSpmv& DeviceSpmv::operator=(DeviceSpmv&&) noexcept = default;

void DeviceSpmv::apply(const double* x, double* y) const {
  if (impl_->rows == 0) return;
  impl_->launch(x, y);
}
std::size_t DeviceSpmv::device_bytes() const { return impl_->bytes(); }
double DeviceSpmv::bytes_moved() const { return static_cast<double>(impl_->bytes()) + 16.0 * impl_->rows; }
const SpmvSetting& DeviceSpmv::setting() const { return impl_->setting; }
std::int64_t DeviceSpmv::rows() const { return impl_->rows; }

std::string format_name(SpmvFormat format) {
  switch (format) {
    case SpmvFormat::CsrScalar: return "csr";
    case SpmvFormat::CsrVector: return "csr-vector";
    case SpmvFormat::Ell: return "ell";
    case SpmvFormat::Sell: return "sell";
    case SpmvFormat::Hyb: return "hyb";
    case SpmvFormat::Bcsr: return "bcsr";
    case SpmvFormat::Bell: return "bell";
    case SpmvFormat::Dia: return "dia";
    case SpmvFormat::Cds: return "cds";
  }
  return "?";
}

const std::vector<SpmvFormat>& all_spmv_formats() {
  static const std::vector<SpmvFormat> formats = {SpmvFormat::CsrScalar, SpmvFormat::CsrVector, SpmvFormat::Ell,
                                                  SpmvFormat::Sell,      SpmvFormat::Hyb,       SpmvFormat::Bcsr,
                                                  SpmvFormat::Bell,      SpmvFormat::Dia,       SpmvFormat::Cds};
  return formats;
}

std::string to_string(const SpmvSetting& s) {
  return format_name(s.format) + "/t" + std::to_string(s.threads_per_row) + "/b" + std::to_string(s.block_size) +
         "/r" + std::to_string(s.register_cap) + "/c" + std::to_string(s.carveout);
}

SpmvSetting parse_spmv_setting(const std::string& text) {
  std::stringstream in(text);
  std::string part;
  std::getline(in, part, '/');
  SpmvSetting s;
  bool known = false;
  for (auto f : all_spmv_formats())
    if (format_name(f) == part) s.format = f, known = true;
  if (!known)
    throw std::invalid_argument("SpMV setting '" + text + "': unknown format '" + part +
                                "' (csr, csr-vector, ell, sell, hyb, bcsr, bell, dia, cds)");
  while (std::getline(in, part, '/')) {
    int value = 0;
    try {
      value = std::stoi(part.substr(1));
    } catch (const std::exception&) {
      throw std::invalid_argument("SpMV setting '" + text + "': '" + part + "' is not a letter and a number");
    }
    switch (part.empty() ? ' ' : part[0]) {
      case 't': s.threads_per_row = value; break;
      case 'b': s.block_size = value; break;
      case 'r': s.register_cap = value; break;
      case 'c': s.carveout = value; break;
      default:
        throw std::invalid_argument("SpMV setting '" + text + "': unknown field '" + part +
                                    "' (t threads per row, b block size, r register cap, c carve-out)");
    }
  }
  validate(s);
  return s;
}

double time_spmv(const DeviceSpmv& spmv, const double* x, double* y, int repeats) {
  return seconds_per_call([&] { spmv.apply(x, y); }, repeats);
}

}  // namespace fem::kernels::cuda
