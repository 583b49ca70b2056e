#include "solvers/iterative/amg/background_uploads.hpp"

#include <algorithm>
#include <chrono>

#include "support/stopwatch.hpp"

namespace fem::amg {

BackgroundUploads::~BackgroundUploads() {
  for (auto& copy : copies_)
    if (copy.valid()) copy.wait();
}

template <class Copy>
void BackgroundUploads::launch(Copy copy) {
  copies_.push_back(std::async(std::launch::async, [copy] {
    const Stopwatch copying;
    copy();
    return copying.seconds();
  }));
}

void BackgroundUploads::start(const kernels::BlockMatrix<float>& m, std::unique_ptr<kernels::SparseMatrix>& to) {
  launch([this, &m, &to] { to = backend_.block_matrix(m); });
}

void BackgroundUploads::start(const kernels::BlockMatrix<double>& m, std::unique_ptr<kernels::SparseMatrix>& to) {
  launch([this, &m, &to] { to = backend_.block_matrix(m); });
}

void BackgroundUploads::start_narrowed(const kernels::BlockMatrix<double>& m,
                                       std::unique_ptr<kernels::SparseMatrix>& to) {
  launch([this, &m, &to] { to = backend_.single_copy(*backend_.block_matrix(m)); });
}

bool BackgroundUploads::idle() const {
  return std::all_of(copies_.begin(), copies_.end(), [](const std::future<double>& copy) {
    return !copy.valid() || copy.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
  });
}

void BackgroundUploads::wait_all() {
  const Stopwatch waiting;
  for (auto& copy : copies_)
    if (copy.valid()) copying_s_ += copy.get();
  waited_s_ += waiting.seconds();
}

}  // namespace fem::amg
