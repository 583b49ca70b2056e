#include "solvers/iterative/amg/background_uploads.hpp"

#include "support/stopwatch.hpp"

namespace fem::amg {

BackgroundUploads::~BackgroundUploads() {
  for (auto& copy : copies_)
    if (copy.valid()) copy.wait();
}

template <class Value>
std::size_t BackgroundUploads::launch(const kernels::BlockMatrix<Value>& m, std::unique_ptr<kernels::SparseMatrix>& to) {
  copies_.push_back(std::async(std::launch::async, [this, &m, &to] {
    const Stopwatch copying;
    to = backend_.block_matrix(m);
    return copying.seconds();
  }));
  return copies_.size() - 1;
}

std::size_t BackgroundUploads::start(const kernels::BlockMatrix<float>& m, std::unique_ptr<kernels::SparseMatrix>& to) {
  return launch(m, to);
}

std::size_t BackgroundUploads::start(const kernels::BlockMatrix<double>& m,
                                     std::unique_ptr<kernels::SparseMatrix>& to) {
  return launch(m, to);
}

std::size_t BackgroundUploads::start_narrowed(const kernels::BlockMatrix<double>& m,
                                              std::unique_ptr<kernels::SparseMatrix>& to) {
  copies_.push_back(std::async(std::launch::async, [this, &m, &to] {
    const Stopwatch copying;
    to = backend_.single_copy(*backend_.block_matrix(m));
    return copying.seconds();
  }));
  return copies_.size() - 1;
}

void BackgroundUploads::wait(std::size_t handle) {
  auto& copy = copies_.at(handle);
  if (!copy.valid()) return;
  const Stopwatch waiting;
  copying_s_ += copy.get();
  waited_s_ += waiting.seconds();
}

void BackgroundUploads::wait_all() {
  for (std::size_t handle = 0; handle < copies_.size(); ++handle) wait(handle);
}

}  // namespace fem::amg
