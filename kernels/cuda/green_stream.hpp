#pragma once
// A CUDA stream whose kernels run on part of the device: a green context of all but `spare` of
// its multiprocessors (or of one of `parts` equal shares of those), and a stream in it. Kernels on
// the device's other streams may use every multiprocessor, so the spare ones are theirs alone;
// streams made with the same `spare` and `parts` but another `part` get disjoint multiprocessors. The driver's green-context calls are
// reached through the runtime (cudaGetDriverEntryPointByVersion), so that nothing links the
// driver library itself.
#include <cuda_runtime.h>

namespace fem::kernels::cuda {

class GreenStream {
 public:
  // Throws std::runtime_error where the driver cannot partition the device so.
  explicit GreenStream(int spare_sms, int part = 0, int parts = 1);
  ~GreenStream();
  GreenStream(const GreenStream&) = delete;
  GreenStream& operator=(const GreenStream&) = delete;
  operator cudaStream_t() const { return stream_; }
  int multiprocessors() const { return multiprocessors_; }  // those its kernels run on

 private:
  void* context_ = nullptr;  // the CUgreenCtx
  cudaStream_t stream_ = nullptr;
  int multiprocessors_ = 0;
};

}  // namespace fem::kernels::cuda
