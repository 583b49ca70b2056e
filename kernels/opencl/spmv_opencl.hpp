#pragma once
// OpenCL SpMV: the tunable CSR kernel (work-group size and rows per work-group as compile-time
// definitions), ELL and SELL; the vector kernels of CG; the device's candidates for the shared
// tuner (kernels/shared/spmv_autotune.hpp). Plain C++: no OpenCL header needed to use it.
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "kernels/shared/sparse_formats.hpp"
#include "kernels/shared/spmv_autotune.hpp"
#include "kernels/csr_matrix.hpp"

namespace fem::kernels::opencl {

enum class ClSpmvFormat { Csr, Ell, Sell };

struct ClSpmvSetting {
  ClSpmvFormat format = ClSpmvFormat::Csr;
  int group_size = 128;     // WG: work-items per work-group (power of two, 1..256)
  int rows_per_group = 8;   // R: rows per work-group (CSR; power of two, 1..WG); T = WG / R per row
};
std::string to_string(const ClSpmvSetting& s);          // "csr/wg128/r8", "ell/wg128"
ClSpmvSetting parse_cl_spmv_setting(const std::string& text);  // throws std::invalid_argument

// An argument of a kernel launched by ClSparseDevice::run: its bytes (a scalar, or a cl_mem handle).
struct ClKernelArg {
  const void* value;
  std::size_t bytes;
};

// One OpenCL device (the first GPU, else the first device): its context, queue and the programs
// built so far, one per set of definitions. Throws BackendUnavailable when there is none.
class ClSparseDevice {
 public:
  ClSparseDevice();
  ~ClSparseDevice();
  std::string name() const;
  // Queues the kernel `entry` of sparse_vector.cl built with `definitions` (built once per set):
  // `global` work-items (a multiple of `local`) in work-groups of `local`, with `args` in order.
  void run(const std::string& definitions, const char* entry, std::initializer_list<ClKernelArg> args,
           std::size_t global, std::size_t local) const;
  std::string identity() const;  // "<name>, <driver version>": the device in the tuning cache
  struct Impl;
  Impl& impl() const { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
};

// Device memory holding a copy of host bytes: the index and value arrays of a block matrix.
class ClBuffer {
 public:
  ClBuffer(const ClSparseDevice& device, const void* host, std::size_t bytes);
  ~ClBuffer();
  ClBuffer(const ClBuffer&) = delete;
  ClBuffer& operator=(const ClBuffer&) = delete;
  void* handle() const { return buffer_; }  // the cl_mem
  std::size_t bytes() const { return bytes_; }

 private:
  void* buffer_ = nullptr;
  std::size_t bytes_ = 0;
};

class ClVector {
 public:
  ClVector(const ClSparseDevice& device, std::size_t n);
  ~ClVector();
  ClVector(ClVector&&) noexcept;
  ClVector& operator=(ClVector&&) noexcept;
  void upload(const double* host);
  void download(double* host) const;
  std::size_t size() const { return size_; }
  void* handle() const { return buffer_; }  // the cl_mem

 private:
  const ClSparseDevice* device_;
  void* buffer_ = nullptr;
  std::size_t size_ = 0;
};

// A matrix on the device in one format. Throws FormatRefused (padding), std::invalid_argument.
class ClSpmv {
 public:
  ClSpmv(const ClSparseDevice& device, const CsrMatrix& a, const ClSpmvSetting& setting,
         const PaddingLimit& limit = {});
  ~ClSpmv();
  void apply(const ClVector& x, ClVector& y) const;  // y = A x, queued
  // Another work-group size (and for CSR rows per work-group: the kernel is built for it) on the
  // matrix already on the device; throws std::invalid_argument for another format.
  void relaunch(const ClSpmvSetting& setting);
  std::size_t device_bytes() const;
  const ClSpmvSetting& setting() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The CG vector kernels for vectors of n entries; each sum is read back as one scalar.
class ClKrylovOps {
 public:
  ClKrylovOps(const ClSparseDevice& device, std::int64_t n);
  ~ClKrylovOps();
  double dot(const ClVector& x, const ClVector& y);
  // u += alpha p; r -= alpha q; returns {r.(D r), r.r}; inv_diag null = no preconditioner
  std::pair<double, double> cg_update(double alpha, const ClVector& p, const ClVector& q, ClVector& u, ClVector& r,
                                      const ClVector* inv_diag);
  void cg_direction(double beta, const ClVector& r, const ClVector* inv_diag, ClVector& p);  // p = D r + beta p
  void axpby(double a, const ClVector& x, double b, ClVector& y);  // y = a x + b y (y not read when b = 0)

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Seconds per SpMV: host wall clock around `repeats` queued products and a clFinish, after a
// warm-up (the paper's method: launches included).
double time_spmv(const ClSparseDevice& device, const ClSpmv& spmv, const ClVector& x, ClVector& y, int repeats);

// Every setting the tuner may pick, as the model sees it: CSR with WG = 128 and teams of 1..32
// work-items per row (R = 128 / team), ELL and SELL.
std::vector<SpmvCandidate> opencl_candidates();
// The model's best CSR setting for these statistics: no timing.
ClSpmvSetting model_cl_setting(const RowStats& stats);

struct ClTuning {
  SpmvAutotuneResult choice;
  std::unique_ptr<ClSpmv> matrix;  // the whole matrix on the device in the chosen setting
  double convert_seconds = 0;      // converting and uploading it (as any fixed setting would)
};
// Picks the setting for `a` (`tuning`: the cache, fresh timing or the model alone) and puts `a`
// on the device in it; a format that refuses the whole matrix gives way to the next in rank.
ClTuning tune_cl_spmv(const ClSparseDevice& device, const CsrMatrix& a, SpmvTuning tuning);

}  // namespace fem::kernels::opencl
