// Large uploads and downloads through the CUDA back-end's pinned staging buffers: arrays of more
// than two chunks, of sizes no multiple of a chunk, from several threads at once, split among
// several copiers, come back equal. Skips without a CUDA device (CI has none).
#include <doctest/doctest.h>

#include <cstdint>
#include <thread>
#include <vector>

#include "fem/config.hpp"
#include "tests/solvers/iterative/test_matrices.hpp"
#if FEM_WITH_CUDA
#include "kernels/cuda/cuda_backend.hpp"
#include "kernels/cuda/device_buffer.hpp"
#include "kernels/cuda/spmv_cuda.hpp"
#include "kernels/cuda/staged_upload.hpp"
#include "tests/solvers/iterative/skip_without_cuda.hpp"
#endif

using namespace fem;

#if FEM_WITH_CUDA
namespace gpu = fem::kernels::cuda;

namespace {

// Doubles over two and a half staging chunks, the last chunk partial.
constexpr std::size_t kDoubles = 5 * gpu::kStagingChunkBytes / sizeof(double) / 2 + 12345;

// Up and back down into a vector of other values.
std::vector<double> round_trip(const std::vector<double>& x) {
  gpu::DeviceVector d(x.size());
  d.upload(x.data());
  std::vector<double> back(x.size(), -1.0);
  d.download(back.data());
  return back;
}

}  // namespace

TEST_CASE("an upload over two staging chunks, of an odd size, comes back equal") {
  if (test::skip_without_cuda()) return;
  const auto x = testing::random_vector(kDoubles, 41);
  CHECK(round_trip(x) == x);

  // An odd number of bytes, each distinct from its neighbours.
  const std::size_t n = 2 * gpu::kStagingChunkBytes + 777;
  std::vector<std::uint8_t> bytes(n), back(n, 0);
  for (std::size_t i = 0; i < n; ++i) bytes[i] = static_cast<std::uint8_t>((i * 2654435761u) >> 13);
  gpu::DeviceBuffer<std::uint8_t> d(bytes);
  d.download(back.data());
  CHECK(back == bytes);
}

TEST_CASE("an upload follows the default stream's earlier work on its buffer") {
  if (test::skip_without_cuda()) return;
  const auto x = testing::random_vector(kDoubles, 42);
  gpu::DeviceBuffer<double> d(x.size());
  for (int round = 0; round < 3; ++round) {
    d.zero();  // queued on the default stream before the upload: must not land after it
    d.upload(x.data());
    std::vector<double> back(x.size(), -1.0);
    d.download(back.data());
    CHECK(back == x);
  }
}

TEST_CASE("a download follows the default stream's earlier work on its buffer") {
  if (test::skip_without_cuda()) return;
  const auto x = testing::random_vector(kDoubles, 44);
  gpu::DeviceBuffer<double> d(x);
  for (int round = 0; round < 3; ++round) {
    d.zero();  // queued on the default stream before the download: must land before it
    std::vector<double> back(x.size(), -1.0);
    d.download(back.data());
    CHECK(back == std::vector<double>(x.size(), 0.0));
    d.upload(x.data());
    d.download(back.data());
    CHECK(back == x);
  }
}

TEST_CASE("a copy split among copiers arrives whole, after the default stream's work, also from several threads") {
  // One copier up to 64 MiB, one more per 64 MiB begun, at most kMaxCopiers (three).
  CHECK(gpu::staging_copiers(1000) == 1);
  CHECK(gpu::staging_copiers(std::size_t{64} << 20) == 1);
  CHECK(gpu::staging_copiers((std::size_t{64} << 20) + 1) == 2);
  CHECK(gpu::staging_copiers(std::size_t{3} << 30) == gpu::kMaxCopiers);
  if (test::skip_without_cuda()) return;
  const auto x = testing::random_vector(kDoubles, 43);  // two and a half chunks: three parts at most
  gpu::DeviceBuffer<double> d(x.size());
  for (const int copiers : {2, 3, 4, 7}) {
    CAPTURE(copiers);
    d.zero();
    gpu::staged_copy_to_device(d.get(), x.data(), x.size() * sizeof(double), copiers);
    std::vector<double> back(x.size(), -1.0);
    d.download(back.data());
    CHECK(back == x);
  }
  // Split copies from several threads at once: more parts than run at a time, each whole.
  constexpr int kThreads = 3;
  std::vector<gpu::DeviceBuffer<double>> targets;
  for (int t = 0; t < kThreads; ++t) targets.emplace_back(x.size());
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back(
        [&, t] { gpu::staged_copy_to_device(targets[t].get(), x.data(), x.size() * sizeof(double), 3); });
  for (auto& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) {
    std::vector<double> back(x.size(), -1.0);
    targets[t].download(back.data());
    CHECK(back == x);
  }
  // Less than a chunk: one part whatever the copiers.
  const std::vector<double> small(x.begin(), x.begin() + 1001);
  gpu::DeviceBuffer<double> s(small.size());
  gpu::staged_copy_to_device(s.get(), small.data(), small.size() * sizeof(double), 4);
  std::vector<double> back(small.size(), -1.0);
  s.download(back.data());
  CHECK(back == small);
}

TEST_CASE("uploads from several threads at once each arrive whole") {
  if (test::skip_without_cuda()) return;
  constexpr int kThreads = 4;
  std::vector<std::vector<double>> sent, received(kThreads);
  for (int t = 0; t < kThreads; ++t) sent.push_back(testing::random_vector(kDoubles + 1000 * t, 50 + t));
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int round = 0; round < 2; ++round) received[t] = round_trip(sent[t]);  // the second on pooled buffers
    });
  for (auto& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) CHECK(received[t] == sent[t]);
}

#endif
