#pragma once
// The trailing update of the band factorisation, the lower triangle of C minus X Xᵀ (C n x n, X
// n x k, row-major, one leading dimension), by cuBLAS, cut as lower_pieces.hpp says.
#include <cuda_runtime.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "kernels/cuda/blas_handle.hpp"
#include "kernels/cuda/lower_pieces.hpp"
#include "kernels/cuda/stream_event.hpp"

namespace fem::kernels::cuda {

class LowerUpdate {
 public:
  // `streams`: as many as the plan asks, the first the caller's: the update starts after the work
  // queued there before it and what is queued there after it waits for all of it.
  LowerUpdate(const LowerUpdatePlan& plan, const std::vector<cudaStream_t>& streams);

  // Queues C := C - X Xᵀ on C's lower triangle (nothing above C's diagonal is read or written).
  template <class T>
  void run(std::int64_t n, int k, const T* x, T* c, std::int64_t ld);

 private:
  LowerUpdatePlan plan_;
  std::vector<cudaStream_t> streams_;
  std::vector<std::unique_ptr<BlasHandle>> blas_;  // one a stream: a handle's workspace is not shared
  Event forked_;
  std::deque<Event> joined_;
};

}  // namespace fem::kernels::cuda
