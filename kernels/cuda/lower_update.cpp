#include "kernels/cuda/lower_update.hpp"

#include <stdexcept>
#include <string>

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
  for (const LowerPiece& p : lower_pieces(n, plan_)) {
    cublasHandle_t h = *blas_[static_cast<std::size_t>(p.stream)];
    if (p.on_diagonal())
      check(syrk(h, as_int(p.rows), k, x + p.row * ld, c + p.row * ld + p.col, l), "syrk (lower update)");
    else
      check(gemm_nt(h, as_int(p.rows), as_int(p.cols), k, x + p.row * ld, x + p.col * ld, c + p.row * ld + p.col, l),
            "gemm (lower update)");
  }
  for (std::size_t s = 1; s < streams_.size(); ++s) {
    joined_[s - 1].record(streams_[s]);
    joined_[s - 1].wait_in(streams_[0]);
  }
}

template void LowerUpdate::run<double>(std::int64_t, int, const double*, double*, std::int64_t);
template void LowerUpdate::run<float>(std::int64_t, int, const float*, float*, std::int64_t);

}  // namespace fem::kernels::cuda
