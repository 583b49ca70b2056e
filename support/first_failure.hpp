#pragma once
// The first exception of work spread over threads (OpenMP regions and tasks, a team of
// std::threads), kept to be rethrown on the calling thread once they have joined: an exception
// must not leave a parallel region, a task or a thread.
#include <atomic>
#include <exception>
#include <mutex>

namespace fem {

class FirstFailure {
 public:
  // Runs work; the first exception any work throws is kept, and failed() turns true.
  template <class Work>
  void run(Work&& work) noexcept {
    try {
      work();
    } catch (...) {
      std::lock_guard lock(mutex_);
      if (!first_) first_ = std::current_exception();
      failed_.store(true, std::memory_order_relaxed);
    }
  }

  // For the other threads, to stop early.
  bool failed() const { return failed_.load(std::memory_order_relaxed); }
  const std::atomic<bool>& flag() const { return failed_; }

  // Rethrows the first exception, if there was one; after every thread has joined.
  void rethrow_if_failed() const {
    if (first_) std::rethrow_exception(first_);
  }

 private:
  std::mutex mutex_;
  std::exception_ptr first_;
  std::atomic<bool> failed_{false};
};

}  // namespace fem
