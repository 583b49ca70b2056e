#include "kernels/cuda/sparse_backend_cuda.hpp"

#include <memory>
#include <stdexcept>
#include <string>

#include "kernels/block_diagonal_check.hpp"
#include "kernels/cuda/csr_block_product.hpp"
#include "kernels/cuda/cuda_backend.hpp"
#include "kernels/cuda/device_buffer.hpp"
#include "kernels/cuda/cuda_block_matrix.hpp"
#include "kernels/cuda/level_transfer_cuda.hpp"
#include "kernels/cuda/level_values_cuda.hpp"
#include "kernels/cuda/sparse_backend_kernels.hpp"
#include "kernels/cuda/spmv_cuda.hpp"
#include "kernels/cuda/spmv_tuning.hpp"
#include "kernels/device_matrix.hpp"

namespace fem::kernels::cuda {
namespace {

// A vector in its own device memory, or a view of entries another owns (a row of a dense matrix).
class CudaVector final : public SparseVector {
 public:
  explicit CudaVector(std::size_t n) : owned_(std::in_place, n), data_(owned_->data()), size_(n) {}
  CudaVector(double* entries, std::size_t n) : data_(entries), size_(n) {}
  std::size_t size() const override { return size_; }
  void upload(std::span<const double> host) override { copy_bytes_to_device(data_, host.data(), size_ * sizeof(double)); }
  void download(std::span<double> host) const override {
    copy_bytes_to_host(host.data(), data_, size_ * sizeof(double));
  }
  const double* data() const { return data_; }
  double* data() { return data_; }

 private:
  std::optional<DeviceVector> owned_;  // none for a view (a DeviceVector of 0 still allocates)
  double* data_;
  std::size_t size_;
};

class CudaMatrix final : public SparseMatrix {
 public:
  explicit CudaMatrix(std::shared_ptr<const DeviceSpmv> spmv) : spmv_(std::move(spmv)) {}
  std::size_t device_bytes() const override { return spmv_->device_bytes(); }
  std::string setting() const override { return to_string(spmv_->setting()); }
  const DeviceSpmv& spmv() const { return *spmv_; }

 private:
  std::shared_ptr<const DeviceSpmv> spmv_;
};

// A CSR matrix for spmv_rows(): cuSPARSE's SpMM on column-major blocks.
class CudaRowsMatrix final : public SparseMatrix {
 public:
  explicit CudaRowsMatrix(const CsrMatrix& a) : product_(a) {}
  std::size_t device_bytes() const override { return product_.device_bytes(); }
  std::string setting() const override { return "csr (cuSPARSE SpMM)"; }
  const CsrBlockProduct& product() const { return product_; }

 private:
  CsrBlockProduct product_;
};

template <class Value>
std::unique_ptr<SparseMatrix> checked_block_matrix(const BlockMatrix<Value>& a) {
  check_block_shape(a, "cuda");
  return std::make_unique<CudaBlockMatrix>(a);
}

class CudaBlockDiagonal final : public BlockDiagonal {
 public:
  CudaBlockDiagonal(std::span<const double> inverse_blocks, int block) : values_(inverse_blocks.size()), block_(block) {
    if (!inverse_blocks.empty()) values_.upload(inverse_blocks.data());
  }
  int block() const override { return block_; }
  std::size_t device_bytes() const override { return values_.size() * sizeof(double); }
  // The form the fused kernels read: no data for the identity.
  DevicePreconditioner kernel_form() const {
    return {block_ == 0 ? nullptr : values_.data(), block_ == 3 ? 3 : 1};
  }

 private:
  DeviceVector values_;
  int block_;
};

const double* in(const SparseVector& v) { return static_cast<const CudaVector&>(v).data(); }
double* out(SparseVector& v) { return static_cast<CudaVector&>(v).data(); }
DevicePreconditioner form(const BlockDiagonal& m) { return static_cast<const CudaBlockDiagonal&>(m).kernel_form(); }
std::int64_t length(const SparseVector& v) { return static_cast<std::int64_t>(v.size()); }

// The device sums' length, once a device is known to be there.
std::size_t sums_on_a_device() {
  if (const auto why = unavailable_reason(); !why.empty()) throw BackendUnavailable(why);
  return 2;
}

class CudaSparseBackend final : public SparseBackend {
 public:
  CudaSparseBackend() : sums_(sums_on_a_device()) {}
  std::string name() const override { return "cuda"; }
  std::unique_ptr<SparseVector> vector(std::size_t n) const override { return std::make_unique<CudaVector>(n); }
  std::unique_ptr<SparseMatrix> matrix(const CsrMatrix& a, const std::string& setting,
                                       std::map<std::string, double>& figures) const override {
    const auto tuning = auto_spmv_tuning(setting);
    if (!tuning) return std::make_unique<CudaMatrix>(std::make_shared<DeviceSpmv>(a, parse_spmv_setting(setting)));
    const auto tuned = tune_spmv(a, *tuning);
    tuned.choice.record(figures);
    figures["spmv_format_s"] = tuned.convert_seconds;
    return std::make_unique<CudaMatrix>(tuned.matrix);
  }
  void check_setting(const std::string& setting) const override {
    if (!auto_spmv_tuning(setting)) parse_spmv_setting(setting);
  }
  std::unique_ptr<BlockDiagonal> block_diagonal(std::span<const double> inverse_blocks, int block) const override {
    require_block_diagonal(*this, "cuda", block);
    return std::make_unique<CudaBlockDiagonal>(inverse_blocks, block);
  }
  bool has_block_diagonal(int block) const override { return block == 0 || block == 1 || block == 3; }
  std::unique_ptr<SparseMatrix> block_matrix(const BlockMatrix<float>& a) const override {
    return checked_block_matrix(a);
  }
  std::unique_ptr<SparseMatrix> block_matrix(const BlockMatrix<double>& a) const override {
    return checked_block_matrix(a);
  }
  bool makes_single_copies() const override { return true; }
  std::optional<LevelValues> level_values(const SparseMatrix& a, double threshold) const override {
    const auto* doubles = dynamic_cast<const CudaBlockMatrix*>(&a);
    if (!doubles || !doubles->form().double_values || doubles->form().row_block != doubles->form().col_block)
      throw std::invalid_argument("cuda level_values: A is not a double-precision square-block matrix of this back-end");
    const DeviceBlockMatrix& form = doubles->form();
    const auto equations = static_cast<std::size_t>(form.block_rows) * static_cast<std::size_t>(form.row_block);
    LevelValues values{std::vector<double>(equations), std::vector<char>(equations), {}, {}};
    // The strong marks stay on the device for the join (a bit a block: 1/32 of A's blocks' count
    // in words comes to the host).
    auto strong = std::make_shared<cuda::DeviceBuffer<std::uint32_t>>();
    cuda::level_values(form, threshold, values.diagonal.data(), values.decoupled.data(), *strong);
    values.strong.resize(strong->size());
    strong->download(values.strong.data());
    values.join_leftovers = [form, strong](std::span<const std::int32_t> of, std::span<std::int32_t> joined) {
      if (of.size() != static_cast<std::size_t>(form.block_rows) || joined.size() != of.size())
        throw std::invalid_argument("cuda join_leftovers: " + std::to_string(of.size()) + " nodes for " +
                                    std::to_string(form.block_rows) + " block rows");
      const cuda::DeviceBuffer<std::int32_t> of_there(of);
      cuda::DeviceBuffer<std::int32_t> joined_there(of.size());
      cuda::join_leftovers(form, strong->get(), of_there.get(), joined_there.get());
      joined_there.download(joined.data());
    };
    return values;
  }
  std::unique_ptr<LevelTransfer> level_transfer(const SparseMatrix& a, const BlockMatrix<double>& t) const override {
    const auto* doubles = dynamic_cast<const CudaBlockMatrix*>(&a);
    if (!doubles || !doubles->form().double_values)
      throw std::invalid_argument("cuda level_transfer: A is not a double-precision block matrix of this back-end");
    return make_level_transfer(*doubles, t);
  }
  std::unique_ptr<SparseMatrix> single_copy(const SparseMatrix& double_blocks) const override {
    const auto* doubles = dynamic_cast<const CudaBlockMatrix*>(&double_blocks);
    if (!doubles || !doubles->form().double_values)
      throw std::invalid_argument("cuda single_copy: not a double-precision block matrix of this back-end");
    return std::make_unique<CudaBlockMatrix>(*doubles, CudaBlockMatrix::Narrowed{});
  }

  std::unique_ptr<SparseVector> view(const DeviceMatrix<double>& rows, index_t row) const override {
    return std::make_unique<CudaVector>(view_start(rows, row, "cuda", is_cuda_backend), static_cast<std::size_t>(rows.cols));
  }
  std::unique_ptr<SparseMatrix> rows_matrix(const CsrMatrix& a) const override {
    return std::make_unique<CudaRowsMatrix>(a);
  }
  // A dense matrix's rows (vectors, one after another at its leading dimension) are the columns
  // of a column-major block.
  void spmv_rows(const SparseMatrix& a, const DeviceMatrix<double>& x, const DeviceMatrix<double>& y) const override {
    const auto* rows = dynamic_cast<const CudaRowsMatrix*>(&a);
    if (!rows) return SparseBackend::spmv_rows(a, x, y);
    if (x.rows != y.rows || x.cols != y.cols)
      throw std::invalid_argument("cuda spmv_rows: the blocks differ in shape");
    if (x.rows == 0) return;
    rows->product().apply(view_start(x, 0, "cuda", is_cuda_backend), x.ld, view_start(y, 0, "cuda", is_cuda_backend), y.ld, static_cast<int>(x.rows));
  }
  void spmv(const SparseMatrix& a, const SparseVector& x, SparseVector& y) const override {
    if (const auto* rows = dynamic_cast<const CudaRowsMatrix*>(&a))
      return rows->product().apply(in(x), length(x), out(y), length(y), 1);
    static_cast<const CudaMatrix&>(a).spmv().apply(in(x), out(y));
  }
  void block_spmv(const SparseMatrix& a, double alpha, const SparseVector& x, double beta,
                  SparseVector& y) const override {
    cuda::block_spmv(static_cast<const CudaBlockMatrix&>(a).form(), alpha, in(x), beta, out(y));
  }
  void diagonal_step(double a, const SparseVector& s, const SparseVector& r, double b, SparseVector& d, double c,
                     SparseVector& x) const override {
    cuda::diagonal_step(length(r), a, in(s), in(r), b, out(d), c, out(x));
  }
  void apply(const BlockDiagonal& m, const SparseVector& r, SparseVector& z) const override {
    cuda::cg_direction(length(r), 0.0, in(r), form(m), out(z));
  }
  double dot(const SparseVector& x, const SparseVector& y) const override {
    double sums[2];
    zero_sums(sums_.data());
    cuda::dot(length(x), in(x), in(y), sums_.data());
    read_sums(sums_.data(), sums);
    return sums[0];
  }
  void axpby(double a, const SparseVector& x, double b, SparseVector& y) const override {
    cuda::axpby(length(x), a, in(x), b, out(y));
  }
  CgSums cg_update(double alpha, const SparseVector& p, const SparseVector& q, SparseVector& u, SparseVector& r,
                   const BlockDiagonal& m) const override {
    double sums[2];
    zero_sums(sums_.data());
    cuda::cg_update(length(p), alpha, in(p), in(q), out(u), out(r), form(m), sums_.data());
    read_sums(sums_.data(), sums);
    return {sums[0], sums[1]};
  }
  void cg_direction(double beta, const SparseVector& r, const BlockDiagonal& m, SparseVector& p) const override {
    cuda::cg_direction(length(r), beta, in(r), form(m), out(p));
  }

 private:
  mutable DeviceVector sums_;  // the two device-side sums every reduction reads back
};

}  // namespace

std::unique_ptr<SparseBackend> make_cuda_sparse_backend() { return std::make_unique<CudaSparseBackend>(); }

}  // namespace fem::kernels::cuda
