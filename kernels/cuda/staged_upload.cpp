#include "kernels/cuda/staged_upload.hpp"

#include <algorithm>
#include <cstring>
#include <exception>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <semaphore>
#include <vector>

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/stream_event.hpp"

namespace fem::kernels::cuda {
namespace {

class PinnedBuffer {
 public:
  explicit PinnedBuffer(std::size_t bytes) { check(cudaMallocHost(&data_, bytes), "cudaMallocHost (staging)"); }
  ~PinnedBuffer() { cudaFreeHost(data_); }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  void* data() const { return data_; }

 private:
  void* data_ = nullptr;
};

// One copier: two staging buffers, each with the event that says its last chunk has left, and
// the stream their chunks go on. Non-blocking, so that the chunks do not wait for (nor hold up)
// kernels on the default stream, such as the AMG setup's, run beside background copies.
struct Copier {
  struct Half {
    PinnedBuffer pinned{kStagingChunkBytes};
    Event drained;
  };
  Stream stream{0, cudaStreamNonBlocking};
  Half halves[2];
};

class CopierPool {
 public:
  std::unique_ptr<Copier> take() {
    {
      const std::lock_guard lock(mutex_);
      if (!idle_.empty()) {
        auto copier = std::move(idle_.back());
        idle_.pop_back();
        return copier;
      }
    }
    return std::make_unique<Copier>();
  }
  void give_back(std::unique_ptr<Copier> copier) {
    const std::lock_guard lock(mutex_);
    idle_.push_back(std::move(copier));
  }

 private:
  std::mutex mutex_;
  std::vector<std::unique_ptr<Copier>> idle_;
};

// Never destroyed: freeing pinned memory at exit can come after the CUDA runtime has shut down.
CopierPool& pool() {
  static auto* const pool = new CopierPool;
  return *pool;
}

// A copier taken from the pool, given back once its chunks have all left its buffers (also when
// the copy failed half-way).
class Lease {
 public:
  Lease() : copier_(pool().take()) {}
  ~Lease() {
    cudaStreamSynchronize(copier_->stream);
    pool().give_back(std::move(copier_));
  }
  Lease(const Lease&) = delete;
  Lease& operator=(const Lease&) = delete;
  Copier& operator*() const { return *copier_; }

 private:
  std::unique_ptr<Copier> copier_;
};

// `bytes` of a copy through copier `c`, its stream ordered after `queued_before`.
void copy_part(Copier& c, const Event& queued_before, std::byte* to, const std::byte* from, std::size_t bytes) {
  queued_before.wait_in(c.stream);
  for (std::size_t done = 0, chunk = 0; done < bytes; ++chunk) {
    auto& half = c.halves[chunk % 2];
    const std::size_t n = std::min(kStagingChunkBytes, bytes - done);
    half.drained.synchronize();  // its last chunk has left
    std::memcpy(half.pinned.data(), from + done, n);
    check(cudaMemcpyAsync(to + done, half.pinned.data(), n, cudaMemcpyHostToDevice, c.stream),
          "cudaMemcpyAsync (staged upload)");
    half.drained.record(c.stream);
    done += n;
  }
  check(cudaStreamSynchronize(c.stream), "cudaStreamSynchronize (staged upload)");
}

// The same from the device: the copy engine fills one buffer while the host empties the other.
void copy_part_to_host(Copier& c, const Event& queued_before, std::byte* to, const std::byte* from, std::size_t bytes) {
  queued_before.wait_in(c.stream);
  const std::size_t chunks = (bytes + kStagingChunkBytes - 1) / kStagingChunkBytes;
  const auto size_of = [&](std::size_t chunk) { return std::min(kStagingChunkBytes, bytes - chunk * kStagingChunkBytes); };
  const auto fill = [&](std::size_t chunk) {
    auto& half = c.halves[chunk % 2];
    check(cudaMemcpyAsync(half.pinned.data(), from + chunk * kStagingChunkBytes, size_of(chunk), cudaMemcpyDeviceToHost,
                          c.stream),
          "cudaMemcpyAsync (staged download)");
    half.drained.record(c.stream);  // here: filled
  };
  if (chunks > 0) fill(0);
  for (std::size_t chunk = 0; chunk < chunks; ++chunk) {
    if (chunk + 1 < chunks) fill(chunk + 1);  // its half was emptied in the last round
    auto& half = c.halves[chunk % 2];
    half.drained.synchronize();
    std::memcpy(to + chunk * kStagingChunkBytes, half.pinned.data(), size_of(chunk));
  }
}

// A copier per this many bytes begun, up to kMaxCopiers.
constexpr std::size_t kBytesPerCopier = std::size_t{64} << 20;

// At most kMaxCopiers parts of split copies run at once, over all copies: copies started together
// (an AMG level's P and R) would otherwise crowd the cores of the work beside them with memcpy
// threads. The others wait, asleep, before they take a copier (so the pool holds no more copiers
// than run). Each part holds its place only while it copies, so none waits for a place held by a
// part that waits itself.
std::counting_semaphore<kMaxCopiers>& part_places() {
  static auto* const places = new std::counting_semaphore<kMaxCopiers>(kMaxCopiers);  // never destroyed, as the pool
  return *places;
}

struct PartPlace {
  PartPlace() { part_places().acquire(); }
  ~PartPlace() { part_places().release(); }
  PartPlace(const PartPlace&) = delete;
  PartPlace& operator=(const PartPlace&) = delete;
};

}  // namespace

int staging_copiers(std::size_t bytes) {
  const std::size_t begun = (bytes + kBytesPerCopier - 1) / kBytesPerCopier;
  return static_cast<int>(std::clamp<std::size_t>(begun, 1, kMaxCopiers));
}

void staged_copy_to_device(void* device, const void* host, std::size_t bytes) {
  staged_copy_to_device(device, host, bytes, staging_copiers(bytes));
}

namespace {

using CopyPart = void (*)(Copier&, const Event&, std::byte*, const std::byte*, std::size_t);

// `bytes` from `from` to `to` in `copiers` parts, each by `copy_part`.
void staged_copy(std::byte* to, const std::byte* from, std::size_t bytes, int copiers, CopyPart copy_part) {
  const std::size_t chunks = (bytes + kStagingChunkBytes - 1) / kStagingChunkBytes;
  const std::size_t parts =
      std::min<std::size_t>(static_cast<std::size_t>(std::max(copiers, 1)), std::max<std::size_t>(chunks, 1));
  // Part p: whole chunks from chunks * p / parts on; every part waits for the default stream's
  // work queued before this call, recorded once here.
  Event queued_before;
  queued_before.record(cudaStreamLegacy);
  const auto copy = [&](std::size_t p) {
    std::optional<PartPlace> place;
    if (parts > 1) place.emplace();
    const Lease lease;
    const std::size_t begin = std::min(bytes, chunks * p / parts * kStagingChunkBytes);
    const std::size_t end = std::min(bytes, chunks * (p + 1) / parts * kStagingChunkBytes);
    copy_part(*lease, queued_before, to + begin, from + begin, end - begin);
  };
  std::vector<std::future<void>> others;
  for (std::size_t p = 1; p < parts; ++p) others.push_back(std::async(std::launch::async, copy, p));
  std::exception_ptr failed;
  try {
    copy(0);
  } catch (...) {
    failed = std::current_exception();
  }
  for (auto& other : others) try {
      other.get();
    } catch (...) {
      if (!failed) failed = std::current_exception();
    }
  if (failed) std::rethrow_exception(failed);
}

}  // namespace

void staged_copy_to_device(void* device, const void* host, std::size_t bytes, int copiers) {
  staged_copy(static_cast<std::byte*>(device), static_cast<const std::byte*>(host), bytes, copiers, copy_part);
}

void staged_copy_to_host(void* host, const void* device, std::size_t bytes) {
  staged_copy(static_cast<std::byte*>(host), static_cast<const std::byte*>(device), bytes, staging_copiers(bytes),
              copy_part_to_host);
}

}  // namespace fem::kernels::cuda
