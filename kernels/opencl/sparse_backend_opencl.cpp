#include "kernels/opencl/sparse_backend_opencl.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <utility>

#include "kernels/block_diagonal_check.hpp"
#include "kernels/opencl/spmv_opencl.hpp"

namespace fem::kernels::opencl {
namespace {

constexpr std::size_t kVectorGroup = 256;  // work-group of the element-wise kernels run here
const std::string kVectorDefinitions = "-D GROUP=256";

std::size_t round_up(std::size_t n, std::size_t group) { return (std::max<std::size_t>(n, 1) + group - 1) / group * group; }

// A kernel argument: the bytes of a scalar or of a cl_mem handle (an lvalue that outlives the launch call).
template <class T>
ClKernelArg arg(const T& value) {
  return {&value, sizeof(T)};
}

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
  explicit OpenClMatrix(std::unique_ptr<ClSpmv> spmv) : spmv_(std::move(spmv)) {}
  std::size_t device_bytes() const override { return spmv_->device_bytes(); }
  std::string setting() const override { return to_string(spmv_->setting()); }
  const ClSpmv& spmv() const { return *spmv_; }

 private:
  std::unique_ptr<ClSpmv> spmv_;
};

// A block matrix for block_spmv: its arrays on the device and the kernel built for its block shape.
class OpenClBlockMatrix final : public SparseMatrix {
 public:
  template <class Value>
  OpenClBlockMatrix(const ClSparseDevice& device, const BlockMatrix<Value>& a)
      : block_rows_(a.block_rows), lanes_(lanes_per_block_row(a)),
        row_ptr_(device, a.row_ptr.data(), a.row_ptr.size() * sizeof(std::int64_t)),
        col_(device, a.col.data(), a.col.size() * sizeof(std::int32_t)),
        val_(device, a.val.data(), a.val.size() * sizeof(Value)),
        definitions_("-D BLOCK_R=" + std::to_string(a.row_block) + " -D BLOCK_C=" + std::to_string(a.col_block) +
                     " -D BLOCK_VALUE=" + (sizeof(Value) == sizeof(float) ? "float" : "double") +
                     " -D LANES=" + std::to_string(lanes_) + " -D BLOCK_GROUP=" + std::to_string(kBlockGroup)),
        setting_("block " + std::to_string(a.row_block) + "x" + std::to_string(a.col_block) +
                 (sizeof(Value) == sizeof(float) ? " fp32" : " fp64") + "/t" + std::to_string(lanes_)) {}
  std::size_t device_bytes() const override { return row_ptr_.bytes() + col_.bytes() + val_.bytes(); }
  std::string setting() const override { return setting_; }

  void multiply(const ClSparseDevice& device, double alpha, const ClVector& x, double beta, ClVector& y) const {
    void* const handles[] = {row_ptr_.handle(), col_.handle(), val_.handle(), x.handle(), y.handle()};
    const auto work_items = static_cast<std::size_t>(block_rows_) * static_cast<std::size_t>(lanes_);
    device.run(definitions_, "block_spmv",
               {arg(block_rows_), arg(handles[0]), arg(handles[1]), arg(handles[2]), arg(alpha), arg(handles[3]),
                arg(beta), arg(handles[4])},
               round_up(work_items, kBlockGroup), kBlockGroup);
  }
 private:
  static constexpr std::size_t kBlockGroup = 128;
  std::int64_t block_rows_;
  int lanes_;
  ClBuffer row_ptr_, col_, val_;
  std::string definitions_, setting_;
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
    const auto tuning = auto_spmv_tuning(setting);
    if (!tuning) return std::make_unique<OpenClMatrix>(std::make_unique<ClSpmv>(device_, a, parse_cl_spmv_setting(setting)));
    auto tuned = tune_cl_spmv(device_, a, *tuning);
    tuned.choice.record(figures);
    figures["spmv_format_s"] = tuned.convert_seconds;
    return std::make_unique<OpenClMatrix>(std::move(tuned.matrix));
  }
  void check_setting(const std::string& setting) const override {
    if (!auto_spmv_tuning(setting)) parse_cl_spmv_setting(setting);
  }
  std::unique_ptr<BlockDiagonal> block_diagonal(std::span<const double> inverse_blocks, int block) const override {
    require_block_diagonal(*this, "opencl", block);
    return std::make_unique<OpenClBlockDiagonal>(device_, inverse_blocks, block);
  }
  bool has_block_diagonal(int block) const override { return block == 0 || block == 1; }
  std::unique_ptr<SparseMatrix> block_matrix(const BlockMatrix<float>& a) const override { return checked(a); }
  std::unique_ptr<SparseMatrix> block_matrix(const BlockMatrix<double>& a) const override { return checked(a); }

  void spmv(const SparseMatrix& a, const SparseVector& x, SparseVector& y) const override {
    static_cast<const OpenClMatrix&>(a).spmv().apply(in(x), out(y));
  }
  void block_spmv(const SparseMatrix& a, double alpha, const SparseVector& x, double beta,
                  SparseVector& y) const override {
    static_cast<const OpenClBlockMatrix&>(a).multiply(device_, alpha, in(x), beta, out(y));
  }
  void diagonal_step(double a, const SparseVector& s, const SparseVector& r, double b, SparseVector& d, double c,
                     SparseVector& x) const override {
    const auto n = static_cast<std::int64_t>(r.size());
    void* const handles[] = {in(s).handle(), in(r).handle(), out(d).handle(), out(x).handle()};
    device_.run(kVectorDefinitions, "diagonal_step",
                {arg(n), arg(a), arg(handles[0]), arg(handles[1]), arg(b), arg(handles[2]), arg(c), arg(handles[3])},
                round_up(r.size(), kVectorGroup), kVectorGroup);
  }
  void apply(const BlockDiagonal& m, const SparseVector& r, SparseVector& z) const override {
    ops(r).cg_direction(0.0, in(r), diagonal(m), out(z));
  }
  double dot(const SparseVector& x, const SparseVector& y) const override { return ops(x).dot(in(x), in(y)); }
  // Any length without remaking the CG kernels (the V-cycle's levels each have their own).
  void axpby(double a, const SparseVector& x, double b, SparseVector& y) const override {
    const auto n = static_cast<std::int64_t>(x.size());
    void* const handles[] = {in(x).handle(), out(y).handle()};
    device_.run(kVectorDefinitions, "axpby", {arg(n), arg(a), arg(handles[0]), arg(b), arg(handles[1])},
                round_up(x.size(), kVectorGroup), kVectorGroup);
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
  template <class Value>
  std::unique_ptr<SparseMatrix> checked(const BlockMatrix<Value>& a) const {
    check_block_shape(a, "opencl");
    return std::make_unique<OpenClBlockMatrix>(device_, a);
  }

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
