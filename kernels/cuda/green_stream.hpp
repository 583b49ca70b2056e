#pragma once
// A CUDA stream whose kernels run on part of the device: a green context of all but `spare` of
// its multiprocessors (or of one of `parts` equal shares of those), and a stream in it. Kernels on
// the device's other streams may use every multiprocessor, so the spare ones are theirs alone;
// streams made with the same `spare` and `parts` but another `part` get disjoint multiprocessors. The driver's green-context calls are
// reached through the runtime (cudaGetDriverEntryPointByVersion), so that nothing links the
// driver library itself.
#include <cuda_runtime.h>

#include <vector>

namespace fem::kernels::cuda {

class GreenStream {
 public:
  // Throws std::runtime_error where the driver cannot partition the device so.
  // `streams`: how many streams it makes in its green context (stream(0) to stream(streams - 1)).
  explicit GreenStream(int spare_sms, int part = 0, int parts = 1, int streams = 1);
  ~GreenStream();
  GreenStream(const GreenStream&) = delete;
  GreenStream& operator=(const GreenStream&) = delete;
  operator cudaStream_t() const { return streams_.front(); }
  cudaStream_t stream(int i) const { return streams_.at(static_cast<std::size_t>(i)); }
  int multiprocessors() const { return multiprocessors_; }  // those its kernels run on

 private:
  void* context_ = nullptr;  // the CUgreenCtx
  std::vector<cudaStream_t> streams_;
  int multiprocessors_ = 0;
};

}  // namespace fem::kernels::cuda
