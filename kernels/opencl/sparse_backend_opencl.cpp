#include "kernels/opencl/sparse_backend_opencl.hpp"

#include <optional>
#include <stdexcept>

#include "kernels/block_diagonal_check.hpp"
#include "kernels/opencl/spmv_opencl.hpp"

namespace fem::kernels::opencl {
namespace {

// What "auto" may spend timing (WG, R) pairs before the first product.
constexpr double kTuningBudgetSeconds = 1.0;

class OpenClVector final : public SparseVector {
 public:
  OpenClVector(const ClSparseDevice& device, std::size_t n) : data_(device, n) {}
  std::size_t size() const override { return data_.size(); }
  void upload(std::span<const double> host) override { data_.upload(host.data()); }
  void download(std::span<double> host) const override { data_.download(host.data()); }
  const ClVector& data() const { return data_; }
  ClVector& data() { return data_; }

 private:
  ClVector data_;
};

class OpenClMatrix final : public SparseMatrix {
 public:
  OpenClMatrix(const ClSparseDevice& device, const CsrMatrix& a, const ClSpmvSetting& setting) : spmv_(device, a, setting) {}
  std::size_t device_bytes() const override { return spmv_.device_bytes(); }
  std::string setting() const override { return to_string(spmv_.setting()); }
  const ClSpmv& spmv() const { return spmv_; }

 private:
  ClSpmv spmv_;
};

// The inverse diagonal (block 1) or nothing (block 0: the identity).
class OpenClBlockDiagonal final : public BlockDiagonal {
 public:
  OpenClBlockDiagonal(const ClSparseDevice& device, std::span<const double> inverse_diagonal, int block) : block_(block) {
    if (block == 0) return;
    values_.emplace(device, inverse_diagonal.size());
    values_->upload(inverse_diagonal.data());
  }
  int block() const override { return block_; }
  std::size_t device_bytes() const override { return values_ ? values_->size() * sizeof(double) : 0; }
  const ClVector* inverse_diagonal() const { return values_ ? &*values_ : nullptr; }

 private:
  std::optional<ClVector> values_;
  int block_;
};

const ClVector& in(const SparseVector& v) { return static_cast<const OpenClVector&>(v).data(); }
ClVector& out(SparseVector& v) { return static_cast<OpenClVector&>(v).data(); }
const ClVector* diagonal(const BlockDiagonal& m) { return static_cast<const OpenClBlockDiagonal&>(m).inverse_diagonal(); }

class OpenClSparseBackend final : public SparseBackend {
 public:
  std::string name() const override { return "opencl (" + device_.name() + ")"; }
  std::unique_ptr<SparseVector> vector(std::size_t n) const override { return std::make_unique<OpenClVector>(device_, n); }
  std::unique_ptr<SparseMatrix> matrix(const CsrMatrix& a, const std::string& setting,
                                       std::map<std::string, double>& figures) const override {
    if (setting != "auto") return std::make_unique<OpenClMatrix>(device_, a, parse_cl_spmv_setting(setting));
    const auto tuning = tune_cl_csr(device_, a, kTuningBudgetSeconds);
    figures["spmv_tuned_seconds"] = tuning.best_seconds;
    figures["spmv_model_seconds"] = tuning.model_seconds;
    return std::make_unique<OpenClMatrix>(device_, a, tuning.best);
  }
  void check_setting(const std::string& setting) const override {
    if (setting != "auto") parse_cl_spmv_setting(setting);
  }
  std::unique_ptr<BlockDiagonal> block_diagonal(std::span<const double> inverse_blocks, int block) const override {
    require_block_diagonal(*this, "opencl", block);
    return std::make_unique<OpenClBlockDiagonal>(device_, inverse_blocks, block);
  }
  bool has_block_diagonal(int block) const override { return block == 0 || block == 1; }

  void spmv(const SparseMatrix& a, const SparseVector& x, SparseVector& y) const override {
    static_cast<const OpenClMatrix&>(a).spmv().apply(in(x), out(y));
  }
  void apply(const BlockDiagonal& m, const SparseVector& r, SparseVector& z) const override {
    ops(r).cg_direction(0.0, in(r), diagonal(m), out(z));
  }
  double dot(const SparseVector& x, const SparseVector& y) const override { return ops(x).dot(in(x), in(y)); }
  void axpby(double a, const SparseVector& x, double b, SparseVector& y) const override {
    ops(x).axpby(a, in(x), b, out(y));
  }
  CgSums cg_update(double alpha, const SparseVector& p, const SparseVector& q, SparseVector& u, SparseVector& r,
                   const BlockDiagonal& m) const override {
    const auto [rz, rr] = ops(p).cg_update(alpha, in(p), in(q), out(u), out(r), diagonal(m));
    return {rz, rr};
  }
  void cg_direction(double beta, const SparseVector& r, const BlockDiagonal& m, SparseVector& p) const override {
    ops(r).cg_direction(beta, in(r), diagonal(m), out(p));
  }

 private:
  // The vector kernels are built for one length; a solve uses one, so they are remade only when it changes.
  ClKrylovOps& ops(const SparseVector& v) const {
    if (!ops_ || ops_length_ != v.size()) {
      ops_ = std::make_unique<ClKrylovOps>(device_, static_cast<std::int64_t>(v.size()));
      ops_length_ = v.size();
    }
    return *ops_;
  }

  ClSparseDevice device_;  // throws BackendUnavailable when there is none
  mutable std::unique_ptr<ClKrylovOps> ops_;
  mutable std::size_t ops_length_ = 0;
};

}  // namespace

std::unique_ptr<SparseBackend> make_opencl_sparse_backend() { return std::make_unique<OpenClSparseBackend>(); }

}  // namespace fem::kernels::opencl
