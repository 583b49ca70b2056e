#pragma once
// CUDA SpMV in the nine formats of the format study (scalar CSR, vector CSR, ELL, SELL, HYB,
// BCSR, BELL, DIA, CDS; the blocked ones with 3x3 blocks), each with its launch parameters
// exposed, and the device vectors and fused vector updates the CUDA Krylov solvers need. Plain
// C++: no CUDA header needed to use it (pointers are device pointers).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kernels/shared/sparse_formats.hpp"
#include "kernels/cuda/cuda_backend.hpp"
#include "kernels/cuda/cuda_device.hpp"
#include "kernels/cuda/device_buffer.hpp"
#include "kernels/csr_matrix.hpp"

namespace fem::kernels::cuda {

enum class SpmvFormat { CsrScalar, CsrVector, Ell, Sell, Hyb, Bcsr, Bell, Dia, Cds };
// Every format, in the order above.
const std::vector<SpmvFormat>& all_spmv_formats();

// The launch parameters. Rows per block follow from the two first: block_size / threads_per_row
// rows (block rows for BCSR) per thread block; the other formats run one thread per row (ELL,
// SELL, HYB, DIA) or per block row (BELL, CDS) and ignore threads_per_row.
struct SpmvSetting {
  SpmvFormat format = SpmvFormat::CsrVector;
  int block_size = 256;      // threads per block, 32..1024
  int threads_per_row = 8;   // CsrVector: lanes per row; Bcsr: lanes per block row (1..32, power of 2)
  int register_cap = 64;     // 32, 64 or 255 registers per thread (255 needs block_size <= 256)
  int carveout = -1;         // preferred shared-memory carve-out in percent of the unified L1; -1 = default
};

std::string format_name(SpmvFormat format);  // csr, csr-vector, ell, sell, hyb, bcsr, bell, dia, cds
// "csr-vector/t8/b256/r64/c-1": every field of the setting.
std::string to_string(const SpmvSetting& setting);
// Parses "format[/tN][/bN][/rN][/cN]" (fields in any order after the format); throws
// std::invalid_argument naming the bad part.
SpmvSetting parse_spmv_setting(const std::string& text);

// unavailable_reason() (empty when a CUDA device can be used) is declared in cuda_backend.hpp,
// synchronize() in cuda_device.hpp.

// A matrix resident on the device in one format. Throws FormatRefused when the format's padding
// is over `limit` or the device has too little free memory, std::invalid_argument for a bad
// setting.
class DeviceSpmv {
 public:
  DeviceSpmv(const CsrMatrix& a, const SpmvSetting& setting, const PaddingLimit& limit = {});
  ~DeviceSpmv();
  DeviceSpmv(DeviceSpmv&&) noexcept;
  DeviceSpmv& operator=(DeviceSpmv&&) noexcept;

  void apply(const double* x, double* y) const;  // y = A x on the default stream
  // Changes the launch parameters (block size, threads per row, register cap, carve-out) of the
  // format already on the device; throws std::invalid_argument for another format.
  void relaunch(const SpmvSetting& setting);
  std::size_t device_bytes() const;              // what the format occupies on the device
  // Bytes one product moves: the stored format read once, x read once and y written:
  // device_bytes() + 16 rows. An upper bound for ELL, SELL, HYB and BELL, whose kernels stop at a
  // row's first padding entry (they read its index, not the padded values).
  double bytes_moved() const;
  const SpmvSetting& setting() const;
  std::int64_t rows() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// A vector of doubles on the device.
class DeviceVector {
 public:
  explicit DeviceVector(std::size_t n = 0) : buffer_(n) {}
  void upload(const double* host) { buffer_.upload(host); }
  void download(double* host) const { buffer_.download(host); }
  double* data() { return buffer_.get(); }
  const double* data() const { return buffer_.get(); }
  std::size_t size() const { return buffer_.size(); }

 private:
  DeviceBuffer<double> buffer_;
};

// CG's preconditioner M^-1 on the device: none (data null), Jacobi (block 1: the inverse
// diagonal) or nodal block Jacobi (block 3: the inverse 3x3 diagonal blocks, row-major, 9 per node).
struct DevicePreconditioner {
  const double* data = nullptr;
  int block = 1;
};

// The vector kernels of (preconditioned) CG. Sums are accumulated into a two-entry device array
// `sums` that the caller zeroes (zero_sums) and reads (read_sums: the only copies to the host).
void zero_sums(double* sums);
void read_sums(const double* sums, double out[2]);
void dot(std::int64_t n, const double* x, const double* y, double* sums);  // sums[0] += x.y
// u += alpha p; r -= alpha q; sums[0] += r.(M^-1 r); sums[1] += r.r (one pass)
void cg_update(std::int64_t n, double alpha, const double* p, const double* q, double* u, double* r,
               const DevicePreconditioner& m, double* sums);
// p = M^-1 r + beta p
void cg_direction(std::int64_t n, double beta, const double* r, const DevicePreconditioner& m, double* p);
// y = a x + b y (y is not read when b = 0)
void axpby(std::int64_t n, double a, const double* x, double b, double* y);

// Seconds per SpMV (CUDA events around `repeats` products after one warm-up).
double time_spmv(const DeviceSpmv& spmv, const double* x, double* y, int repeats);

}  // namespace fem::kernels::cuda
