#include "kernels/cpu/sparse_backend_cpu.hpp"

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "kernels/block_diagonal_check.hpp"
#include "kernels/dense_backend.hpp"
#include "kernels/shared/block_spmv.hpp"
#include "kernels/shared/vector_ops.hpp"

namespace fem::kernels::cpu {
namespace {

// Entries used in place: a row of a host dense matrix (view()), or a HostVector's own.
class HostView : public SparseVector {
 public:
  explicit HostView(std::span<double> values) : values_(values) {}
  std::size_t size() const override { return values_.size(); }
  void upload(std::span<const double> host) override { std::copy(host.begin(), host.end(), values_.begin()); }
  void download(std::span<double> host) const override { std::copy(values_.begin(), values_.end(), host.begin()); }
  std::span<double> host() override { return values_; }

 private:
  std::span<double> values_;
};

// The storage comes first (a base before HostView), so that the view is made over it.
struct OwnedValues {
  std::vector<double> storage;
};

// A vector of its own entries: a view of them.
class HostVector final : private OwnedValues, public HostView {
 public:
  explicit HostVector(std::size_t n) : OwnedValues{std::vector<double>(n)}, HostView(storage) {}
};

class HostMatrix final : public SparseMatrix {
 public:
  explicit HostMatrix(const CsrMatrix& a) : a_(a) {}
  std::size_t device_bytes() const override { return 0; }  // the caller's CSR arrays, used in place
  std::string setting() const override { return "csr"; }
  const CsrMatrix& csr() const { return a_; }

 private:
  const CsrMatrix& a_;
};

// A block matrix in float or double, used in place.
class HostBlockOperator : public SparseMatrix {
 public:
  std::size_t device_bytes() const override { return 0; }  // the caller's arrays, used in place
  virtual void multiply(double alpha, std::span<const double> x, double beta, std::span<double> y) const = 0;
};

template <class Value>
class HostBlockMatrix final : public HostBlockOperator {
 public:
  explicit HostBlockMatrix(const BlockMatrix<Value>& a) : a_(a) {}
  std::string setting() const override {
    return "block " + std::to_string(a_.row_block) + "x" + std::to_string(a_.col_block) +
           (sizeof(Value) == 4 ? " fp32" : " fp64");
  }
  void multiply(double alpha, std::span<const double> x, double beta, std::span<double> y) const override {
    kernels::block_spmv(a_, alpha, x, beta, y);
  }

 private:
  const BlockMatrix<Value>& a_;
};

class HostBlockDiagonal final : public BlockDiagonal {
 public:
  HostBlockDiagonal(std::span<const double> inverse_blocks, int block)
      : values_(inverse_blocks.begin(), inverse_blocks.end()), block_(block) {}
  int block() const override { return block_; }
  std::size_t device_bytes() const override { return values_.size() * sizeof(double); }
  const std::vector<double>& values() const { return values_; }

 private:
  std::vector<double> values_;
  int block_;
};

bool in_host_memory(const DenseBackend& dense) { return dense.uses_host_memory(); }

std::span<const double> in(const SparseVector& v) { return v.host(); }
std::span<double> out(SparseVector& v) { return v.host(); }
const HostBlockDiagonal& host(const BlockDiagonal& m) { return static_cast<const HostBlockDiagonal&>(m); }

// z = M^-1 r for inverse blocks of size B (B = 0: the identity).
void apply_blocks(const HostBlockDiagonal& m, std::span<const double> r, std::span<double> z) {
  const int b = m.block();
  const auto n = static_cast<std::int64_t>(r.size());
  const double* inv = m.values().data();
  if (b == 0) {
    std::copy(r.begin(), r.end(), z.begin());
    return;
  }
#pragma omp parallel for schedule(static) if (n > fem::cpu::kParallelFrom)
  for (std::int64_t block = 0; block < n / b; ++block)
    for (int i = 0; i < b; ++i) {
      double s = 0;
      for (int j = 0; j < b; ++j) s += inv[b * b * block + b * i + j] * r[b * block + j];
      z[b * block + i] = s;
    }
}

class HostSparseBackend final : public SparseBackend {
 public:
  std::string name() const override { return "cpu"; }
  bool on_host() const override { return true; }
  std::unique_ptr<SparseVector> vector(std::size_t n) const override { return std::make_unique<HostVector>(n); }
  std::unique_ptr<SparseMatrix> matrix(const CsrMatrix& a, const std::string&,
                                       std::map<std::string, double>&) const override {
    return std::make_unique<HostMatrix>(a);
  }
  // The host has one format, CSR over OpenMP threads: a device's setting (solver.spmv) is not
  // for it, and one case file serves every device, so any setting means CSR here.
  void check_setting(const std::string&) const override {}
  std::unique_ptr<BlockDiagonal> block_diagonal(std::span<const double> inverse_blocks, int block) const override {
    require_block_diagonal(*this, "cpu", block);
    return std::make_unique<HostBlockDiagonal>(inverse_blocks, block);
  }

  bool has_block_diagonal(int block) const override { return block == 0 || block == 1 || block == 3; }
  std::unique_ptr<SparseMatrix> block_matrix(const BlockMatrix<float>& a) const override { return checked(a); }
  std::unique_ptr<SparseMatrix> block_matrix(const BlockMatrix<double>& a) const override { return checked(a); }

  std::unique_ptr<SparseVector> view(const DeviceMatrix<double>& rows, index_t row) const override {
    return std::make_unique<HostView>(std::span<double>(view_start(rows, row, "cpu", in_host_memory), static_cast<std::size_t>(rows.cols)));
  }
  // Contiguous rows are a column-major block: one pass over A for every few of them.
  void spmv_rows(const SparseMatrix& a, const DeviceMatrix<double>& x, const DeviceMatrix<double>& y) const override {
    if (x.rows == 0 || x.rows != y.rows || x.ld != x.cols || y.ld != y.cols || x.cols != y.cols)
      return SparseBackend::spmv_rows(a, x, y);
    const auto values = static_cast<std::size_t>(x.rows * x.cols);
    fem::cpu::spmv_columns(static_cast<const HostMatrix&>(a).csr(), {view_start(x, 0, "cpu", in_host_memory), values},
                           {view_start(y, 0, "cpu", in_host_memory), values});
  }
  void spmv(const SparseMatrix& a, const SparseVector& x, SparseVector& y) const override {
    fem::cpu::spmv(static_cast<const HostMatrix&>(a).csr(), in(x), out(y));
  }
  void block_spmv(const SparseMatrix& a, double alpha, const SparseVector& x, double beta,
                  SparseVector& y) const override {
    static_cast<const HostBlockOperator&>(a).multiply(alpha, in(x), beta, out(y));
  }
  void diagonal_step(double a, const SparseVector& s, const SparseVector& r, double b, SparseVector& d, double c,
                     SparseVector& x) const override {
    const auto n = static_cast<std::int64_t>(r.size());
    const double *sv = in(s).data(), *rv = in(r).data();
    double *dv = out(d).data(), *xv = out(x).data();
#pragma omp parallel for schedule(static) if (n > fem::cpu::kParallelFrom)
    for (std::int64_t i = 0; i < n; ++i) {
      dv[i] = a * sv[i] * rv[i] + (b != 0 ? b * dv[i] : 0.0);
      xv[i] = (c != 0 ? c * xv[i] : 0.0) + dv[i];
    }
  }
  void apply(const BlockDiagonal& m, const SparseVector& r, SparseVector& z) const override {
    apply_blocks(host(m), in(r), out(z));
  }
  double dot(const SparseVector& x, const SparseVector& y) const override { return fem::cpu::dot(in(x), in(y)); }
  void axpby(double a, const SparseVector& x, double b, SparseVector& y) const override {
    fem::cpu::axpby(a, in(x), b, out(y));
  }
  CgSums cg_update(double alpha, const SparseVector& p, const SparseVector& q, SparseVector& u, SparseVector& r,
                   const BlockDiagonal& m) const override {
    fem::cpu::axpy(alpha, in(p), out(u));
    fem::cpu::axpy(-alpha, in(q), out(r));
    // r.(M^-1 r) through a scratch z: the host pays one more pass, which the devices fuse away.
    scratch_.resize(r.size());
    apply_blocks(host(m), in(r), scratch_);
    return {fem::cpu::dot(in(r), scratch_), fem::cpu::dot(in(r), in(r))};
  }
  void cg_direction(double beta, const SparseVector& r, const BlockDiagonal& m, SparseVector& p) const override {
    scratch_.resize(r.size());
    apply_blocks(host(m), in(r), scratch_);
    fem::cpu::axpby(1.0, scratch_, beta, out(p));
  }

 private:
  template <class Value>
  static std::unique_ptr<SparseMatrix> checked(const BlockMatrix<Value>& a) {
    check_block_shape(a, "cpu");
    return std::make_unique<HostBlockMatrix<Value>>(a);
  }

  mutable std::vector<double> scratch_;
};

}  // namespace

std::unique_ptr<SparseBackend> make_host_sparse_backend() { return std::make_unique<HostSparseBackend>(); }

}  // namespace fem::kernels::cpu
