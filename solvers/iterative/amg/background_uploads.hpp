#pragma once
// The AMG setup's copies to the back-end, run beside its host work: a level's matrices travel
// while the next steps are computed (on a GPU, gigabytes over PCIe at millions of equations:
// seconds of the setup when waited for). Each copy runs on its own thread; the setup waits for
// them once, at its end.
#include <future>
#include <memory>
#include <vector>

#include "kernels/sparse_backend.hpp"

namespace fem::amg {

class BackgroundUploads {
 public:
  explicit BackgroundUploads(const kernels::SparseBackend& backend) : backend_(backend) {}
  // Waits for the copies still running (their matrices must not go before them).
  ~BackgroundUploads();
  BackgroundUploads(const BackgroundUploads&) = delete;
  BackgroundUploads& operator=(const BackgroundUploads&) = delete;

  // Starts copying `m` into `to`; `m` must stay alive and unchanged, and `to` untouched, until
  // the copies are waited for.
  void start(const kernels::BlockMatrix<float>& m, std::unique_ptr<kernels::SparseMatrix>& to);
  void start(const kernels::BlockMatrix<double>& m, std::unique_ptr<kernels::SparseMatrix>& to);
  // As start(), copying `m` in double and narrowing it there into `to` (the back-end must make
  // single copies).
  void start_narrowed(const kernels::BlockMatrix<double>& m, std::unique_ptr<kernels::SparseMatrix>& to);
  // Whether no copy is running (none started, or all done).
  bool idle() const;
  // Waits for every copy (rethrowing the first failure); the time spent waiting counts in waited_s().
  void wait_all();

  double waited_s() const { return waited_s_; }    // the setup's time stopped for copies
  double copying_s() const { return copying_s_; }  // the copies' own seconds

 private:
  // Runs copy() on a thread of its own, timed.
  template <class Copy>
  void launch(Copy copy);

  const kernels::SparseBackend& backend_;
  std::vector<std::future<double>> copies_;  // each returns its seconds; invalid once waited for
  double waited_s_ = 0, copying_s_ = 0;
};

}  // namespace fem::amg
