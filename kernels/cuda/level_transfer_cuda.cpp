#include "kernels/cuda/level_transfer_cuda.hpp"

#include <algorithm>
#include <stdexcept>

#include "kernels/cuda/device_buffer.hpp"
#include "kernels/cuda/galerkin_product_cuda.hpp"
#include "kernels/cuda/smoothed_transfer_cuda.hpp"
#include "kernels/uninitialized_allocator.hpp"

namespace fem::kernels::cuda {
namespace {

// T as the device's kernels read it: a column and a block for every fine block row.
std::unique_ptr<DeviceTentative> tentative_on_device(const BlockMatrix<double>& t) {
  const auto rows = static_cast<std::size_t>(t.block_rows);
  const auto size = static_cast<std::size_t>(t.block_size());
  // Written once, by the threads of the loop (no zero fill on one thread beforehand).
  UninitializedVector<std::int32_t> col(rows);
  UninitializedVector<double> val(rows * size);
  bool two_blocks = false;
#pragma omp parallel for schedule(static) reduction(|| : two_blocks) if (rows > 100000)
  for (std::int64_t i = 0; i < t.block_rows; ++i) {
    const auto k = t.row_ptr[i];
    two_blocks = two_blocks || t.row_ptr[i + 1] - k > 1;
    double* const block = &val[i * size];
    if (t.row_ptr[i + 1] != k) {
      col[i] = t.col[k];
      std::copy(t.block(k), t.block(k) + size, block);
    } else {
      col[i] = -1;
      std::fill(block, block + size, 0.0);
    }
  }
  if (two_blocks) throw std::invalid_argument("cuda level_transfer: a tentative prolongator with two blocks in a row");
  return std::make_unique<DeviceTentative>(DeviceTentative{t.row_block, t.col_block, t.block_rows, t.block_cols,
                                                           DeviceBytes(col.data(), col.size() * sizeof(std::int32_t)),
                                                           DeviceBytes(val.data(), val.size() * sizeof(double))});
}

BlockMatrix<double> on_host(const DeviceBlocks& m, std::int64_t block_cols) {
  BlockMatrix<double> h;
  h.row_block = m.form.row_block;
  h.col_block = m.form.col_block;
  h.block_rows = m.form.block_rows;
  h.block_cols = block_cols;
  h.row_ptr.resize(static_cast<std::size_t>(h.block_rows) + 1);
  h.col.resize(m.col.bytes() / sizeof(std::int32_t));
  h.val.resize(m.val.bytes() / sizeof(double));
  copy_bytes_to_host(h.row_ptr.data(), m.row_ptr.data(), m.row_ptr.bytes());
  copy_bytes_to_host(h.col.data(), m.col.data(), m.col.bytes());
  copy_bytes_to_host(h.val.data(), m.val.data(), m.val.bytes());
  return h;
}

class CudaLevelTransfer final : public LevelTransfer {
 public:
  CudaLevelTransfer(const CudaBlockMatrix& a, std::unique_ptr<DeviceTentative> t, std::unique_ptr<DeviceBlocks> at)
      : a_(a), t_(std::move(t)), coarse_rows_(t_->block_cols), p_(std::move(at)) {}

  void smooth(std::span<const double> inv_diag, double omega) override {
    const DeviceBuffer<double> d(inv_diag);
    damp(*p_, *t_, d.get(), omega);
    r_ = transpose(*p_, coarse_rows_);
    t_.reset();  // spent
  }
  std::optional<BlockMatrix<double>> upper_galerkin_product() const override {
    const DeviceGalerkinProduct product(a_.form(), smoothed().form, r_->form);
    if (!product.fits()) return std::nullopt;
    BlockMatrix<double> upper;
    upper.row_block = upper.col_block = p_->form.col_block;
    upper.block_rows = upper.block_cols = coarse_rows_;
    upper.row_ptr.assign(product.row_ptr().begin(), product.row_ptr().end());
    upper.col.resize(static_cast<std::size_t>(upper.row_ptr.back()));
    upper.val.resize(upper.col.size() * static_cast<std::size_t>(upper.block_size()));
    if (!product.compute(upper.col.data(), upper.val.data())) return std::nullopt;
    return upper;
  }
  BlockMatrix<double> prolongator() const override { return on_host(smoothed(), coarse_rows_); }
  BlockMatrix<double> restriction() const override {
    smoothed();
    return on_host(*r_, p_->form.block_rows);
  }
  std::pair<std::unique_ptr<SparseMatrix>, std::unique_ptr<SparseMatrix>> single_copies() override {
    smoothed();
    auto p = std::make_unique<CudaBlockMatrix>(std::move(*p_), CudaBlockMatrix::Narrowed{});
    auto r = std::make_unique<CudaBlockMatrix>(std::move(*r_), CudaBlockMatrix::Narrowed{});
    p_.reset();
    r_.reset();
    return {std::move(p), std::move(r)};
  }

 private:
  // P, once smooth() has made it (and R).
  const DeviceBlocks& smoothed() const {
    if (!r_ || !p_) throw std::logic_error("cuda level_transfer: P and R are asked for before smooth() or after single_copies()");
    return *p_;
  }

  const CudaBlockMatrix& a_;
  std::unique_ptr<DeviceTentative> t_;  // until smooth()
  std::int64_t coarse_rows_;
  std::unique_ptr<DeviceBlocks> p_, r_;  // A T until smooth() makes it P
};

}  // namespace

std::unique_ptr<LevelTransfer> make_level_transfer(const CudaBlockMatrix& a, const BlockMatrix<double>& t) {
  auto on_device = tentative_on_device(t);
  auto at = tentative_product(a.form(), *on_device);
  if (!at) return nullptr;
  return std::make_unique<CudaLevelTransfer>(a, std::move(on_device), std::move(at));
}

}  // namespace fem::kernels::cuda
