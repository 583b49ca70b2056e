#include "kernels/cuda/lower_update.hpp"

#include <stdexcept>
#include <string>

#include "kernels/cuda/lower_leaves.hpp"
#include "kernels/cuda/row_major_cublas.hpp"

namespace fem::kernels::cuda {

namespace {

int as_int(std::int64_t v) {
  if (v > 0x7fffffff) throw std::invalid_argument("lower update: dimension " + std::to_string(v) + " exceeds 32 bits");
  return static_cast<int>(v);
}

}  // namespace

LowerUpdate::LowerUpdate(const LowerUpdatePlan& plan, const std::vector<cudaStream_t>& streams)
    : plan_(plan), streams_(streams) {
  if (plan.streams < 1 || static_cast<std::size_t>(plan.streams) != streams.size())
    throw std::invalid_argument("lower update: " + std::to_string(plan.streams) + " streams planned, " +
                                std::to_string(streams.size()) + " given");
  for (const cudaStream_t s : streams) blas_.push_back(std::make_unique<BlasHandle>(s));
  for (std::size_t s = 1; s < streams.size(); ++s) joined_.emplace_back();
}

template <class T>
void LowerUpdate::run(std::int64_t n, int k, const T* x, T* c, std::int64_t ld) {
  if (streams_.size() > 1) {
    forked_.record(streams_[0]);
    for (std::size_t s = 1; s < streams_.size(); ++s) forked_.wait_in(streams_[s]);
  }
  const int l = as_int(ld);
  std::vector<LowerPiece> leaves;  // leaves_by_gemm: every leaf, on one stream
  for (const LowerPiece& p : lower_pieces(n, plan_)) {
    cublasHandle_t h = *blas_[static_cast<std::size_t>(p.stream)];
    if (p.on_diagonal() && plan_.leaves_by_gemm && plan_.leaf > 0)
      leaves.push_back(p);
    else if (p.on_diagonal())
      check(syrk(h, as_int(p.rows), k, x + p.row * ld, c + p.row * ld + p.col, l), "syrk (lower update)");
    else
      check(gemm_nt(h, as_int(p.rows), as_int(p.cols), k, x + p.row * ld, x + p.col * ld, c + p.row * ld + p.col, l),
            "gemm (lower update)");
  }
  if (!leaves.empty()) subtract_leaves(leaves, k, x, c, ld);
  for (std::size_t s = 1; s < streams_.size(); ++s) {
    joined_[s - 1].record(streams_[s]);
    joined_[s - 1].wait_in(streams_[0]);
  }
}

// The leaves (every one `leaf` rows from row 0 on, the last maybe fewer) as squares into the
// scratch memory by one batched GEMM (and one more for a shorter last leaf), then their lower
// triangles subtracted from C.
template <class T>
void LowerUpdate::subtract_leaves(const std::vector<LowerPiece>& leaves, int k, const T* x, T* c, std::int64_t ld) {
  const int leaf = plan_.leaf, count = static_cast<int>(leaves.size());
  const std::size_t square = static_cast<std::size_t>(leaf) * static_cast<std::size_t>(leaf);
  const std::size_t bytes = square * static_cast<std::size_t>(count) * sizeof(T);
  if (squares_.bytes() < bytes) squares_ = DeviceBuffer<double>((bytes + sizeof(double) - 1) / sizeof(double));
  T* s = reinterpret_cast<T*>(squares_.get());
  const std::size_t stream = static_cast<std::size_t>(leaves.front().stream);
  cublasHandle_t h = *blas_[stream];
  const LowerPiece& last = leaves.back();
  const int full = last.rows == leaf ? count : count - 1;
  const int l = as_int(ld);
  if (full > 0)
    check(block_squares(h, leaf, k, x, l, s, leaf, static_cast<long long>(square), full), "batched gemm (leaves)");
  if (full < count)
    check(block_squares(h, as_int(last.rows), k, x + last.row * ld, l, s + square * static_cast<std::size_t>(full), leaf,
                        static_cast<long long>(square), 1),
          "gemm (last leaf)");
  subtract_lower_leaves(s, c, ld, leaf, count, as_int(last.rows), streams_[stream]);
}

template void LowerUpdate::run<double>(std::int64_t, int, const double*, double*, std::int64_t);
template void LowerUpdate::run<float>(std::int64_t, int, const float*, float*, std::int64_t);

}  // namespace fem::kernels::cuda
