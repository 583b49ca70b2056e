#pragma once
// CUDA streams and events, released with their owners.
#include <cuda_runtime.h>

#include "kernels/cuda/cuda_check.hpp"

namespace fem::kernels::cuda {

class Stream {
 public:
  // `flags`: cudaStreamNonBlocking for a stream that does not wait for the default stream's work.
  explicit Stream(int priority = 0, unsigned flags = cudaStreamDefault) {
    check(cudaStreamCreateWithPriority(&s_, flags, priority), "cudaStreamCreateWithPriority");
  }
  ~Stream() { cudaStreamDestroy(s_); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  operator cudaStream_t() const { return s_; }

  // The highest priority a stream may have on this device.
  static int greatest_priority() {
    int least = 0, greatest = 0;
    check(cudaDeviceGetStreamPriorityRange(&least, &greatest), "cudaDeviceGetStreamPriorityRange");
    return greatest;
  }

 private:
  cudaStream_t s_ = nullptr;
};

class Event {
 public:
  enum class Timing { off, on };
  explicit Event(Timing timing = Timing::off) {
    check(cudaEventCreateWithFlags(&e_, timing == Timing::on ? cudaEventDefault : cudaEventDisableTiming),
          "cudaEventCreate");
  }
  ~Event() { cudaEventDestroy(e_); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  void record(cudaStream_t s) { check(cudaEventRecord(e_, s), "cudaEventRecord"); }
  void wait_in(cudaStream_t s) const { check(cudaStreamWaitEvent(s, e_, 0), "cudaStreamWaitEvent"); }
  // Blocks the host until the work before the last record() is done (at once if never recorded).
  void synchronize() const { check(cudaEventSynchronize(e_), "cudaEventSynchronize"); }
  // Seconds from `start` to this event, once this one has happened (both made with Timing::on).
  double seconds_since(const Event& start) const {
    check(cudaEventSynchronize(e_), "cudaEventSynchronize");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start.e_, e_), "cudaEventElapsedTime");
    return ms * 1e-3;
  }

 private:
  cudaEvent_t e_ = nullptr;
};

}  // namespace fem::kernels::cuda
