// The large-block cache behind the AMG setup's arrays (support/large_block_cache.hpp): a freed
// block is handed out again, cut to size or gathered with others, its pages kept; the cap holds;
// threads never get a block that is live.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "kernels/uninitialized_allocator.hpp"
#include "support/large_block_cache.hpp"

using fem::LargeBlockCache;

namespace {

constexpr std::size_t MiB = std::size_t{1} << 20;

// Fills `bytes` at `block` with a pattern made from `tag`, or checks that it holds it.
void fill(void* block, std::size_t bytes, std::uint64_t tag) {
  auto* words = static_cast<std::uint64_t*>(block);
  for (std::size_t i = 0; i < bytes / 8; i += 512) words[i] = tag * 1000003 + i;
}
bool holds(const void* block, std::size_t bytes, std::uint64_t tag) {
  const auto* words = static_cast<const std::uint64_t*>(block);
  for (std::size_t i = 0; i < bytes / 8; i += 512)
    if (words[i] != tag * 1000003 + i) return false;
  return true;
}

}  // namespace

TEST_CASE("LargeBlockCache: a freed block is handed out again, its contents kept, no fresh pages") {
  LargeBlockCache cache(64 * MiB);
  void* a = cache.allocate(8 * MiB);
  fill(a, 8 * MiB, 1);
  CHECK(cache.counts().mapped_bytes == 8 * MiB);
  cache.deallocate(a);
  CHECK(cache.counts().cached_bytes == 8 * MiB);
  CHECK(cache.counts().live_bytes == 0);
  void* b = cache.allocate(8 * MiB - 100);  // rounded up to the same block
  CHECK(b == a);
  CHECK(holds(b, 8 * MiB, 1));  // the same pages: never given back to the kernel
  CHECK(cache.counts().mapped_bytes == 8 * MiB);
  CHECK(cache.counts().reused_bytes == 8 * MiB);
  CHECK(cache.counts().cached_bytes == 0);
  cache.deallocate(b);
}

TEST_CASE("LargeBlockCache: the smallest block that holds a request is cut, the rest cached") {
  LargeBlockCache cache(1024 * MiB);
  void* big = cache.allocate(64 * MiB);
  void* small = cache.allocate(16 * MiB);
  cache.deallocate(big);
  cache.deallocate(small);
  void* a = cache.allocate(10 * MiB);  // from the 16 MiB block: 6 MiB left, cached
  CHECK(a == small);
  CHECK(cache.counts().cached_bytes == 64 * MiB + 6 * MiB);
  void* b = cache.allocate(40 * MiB);  // from the 64 MiB block, 24 MiB left
  CHECK(b == big);
  void* c = cache.allocate(24 * MiB);  // the remainder, right after b
  CHECK(static_cast<char*>(c) == static_cast<char*>(big) + 40 * MiB);
  CHECK(cache.counts().mapped_bytes == 80 * MiB);
  CHECK(cache.counts().cached_bytes == 6 * MiB);
  for (void* p : {a, b, c}) cache.deallocate(p);
  CHECK(cache.counts().live_bytes == 0);
  CHECK(cache.counts().cached_bytes == 80 * MiB);
}

TEST_CASE("LargeBlockCache: a request no cached block holds is made of those that fit, their pages moved") {
  LargeBlockCache cache(1024 * MiB);
  void* a = cache.allocate(8 * MiB);
  void* b = cache.allocate(12 * MiB);
  fill(a, 8 * MiB, 7);
  fill(b, 12 * MiB, 9);
  cache.deallocate(a);
  cache.deallocate(b);
  void* c = cache.allocate(30 * MiB);  // b's 12 MiB, then a's 8, then 10 fresh
  const LargeBlockCache::Counts counts = cache.counts();
  CHECK(counts.mapped_bytes == 20 * MiB + 10 * MiB);
  CHECK(counts.reused_bytes == 20 * MiB);
  CHECK(counts.cached_bytes == 0);
  CHECK(holds(c, 12 * MiB, 9));  // the pages came along, largest first
  CHECK(holds(static_cast<char*>(c) + 12 * MiB, 8 * MiB, 7));
  std::memset(c, 1, 30 * MiB);  // all of it writable
  cache.deallocate(c);
  CHECK(cache.counts().cached_bytes == 30 * MiB);
}

TEST_CASE("LargeBlockCache: the cached bytes stay under the cap; release() empties the cache") {
  LargeBlockCache cache(20 * MiB);
  std::vector<void*> blocks;
  for (int i = 0; i < 3; ++i) blocks.push_back(cache.allocate(8 * MiB));
  for (void* p : blocks) cache.deallocate(p);
  CHECK(cache.counts().cached_bytes == 16 * MiB);  // the third went back to the kernel
  CHECK(cache.counts().unmapped_bytes == 8 * MiB);
  cache.release();
  CHECK(cache.counts().cached_bytes == 0);
  CHECK(cache.counts().unmapped_bytes == 24 * MiB);
  void* again = cache.allocate(8 * MiB);  // fresh again
  CHECK(cache.counts().mapped_bytes == 32 * MiB);
  cache.deallocate(again);
}

TEST_CASE("LargeBlockCache: threads allocating and freeing at once never share a live block") {
  LargeBlockCache cache(256 * MiB);
  constexpr int kThreads = 6, kRounds = 60;
  std::vector<int> failures(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      std::mt19937 random(static_cast<unsigned>(t));
      std::vector<std::pair<void*, std::size_t>> held;
      for (int round = 0; round < kRounds; ++round) {
        const std::size_t bytes = (4 + random() % 29) * MiB - random() % 4096;
        void* p = cache.allocate(bytes);
        const std::uint64_t tag = static_cast<std::uint64_t>(t) * 1000 + round;
        fill(p, bytes, tag);
        held.emplace_back(p, bytes);
        std::this_thread::yield();
        if (held.size() > 3 || random() % 2) {  // free one held block, after checking nobody wrote into it
          const auto [q, q_bytes] = held.front();
          const std::uint64_t q_tag = static_cast<std::uint64_t>(t) * 1000 + round - static_cast<int>(held.size()) + 1;
          failures[t] += holds(q, q_bytes, q_tag) ? 0 : 1;
          cache.deallocate(q);
          held.erase(held.begin());
        }
      }
      for (const auto& [q, q_bytes] : held) cache.deallocate(q);
    });
  for (auto& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) CHECK(failures[t] == 0);
  const LargeBlockCache::Counts counts = cache.counts();
  CHECK(counts.live_bytes == 0);
  CHECK(counts.reused_bytes > 0);
  CHECK(counts.cached_bytes + counts.unmapped_bytes == counts.mapped_bytes);  // every page accounted for
}

TEST_CASE("UninitializedAllocator: large arrays come from the process's cache, small ones from malloc") {
  LargeBlockCache& cache = LargeBlockCache::process();
  const std::size_t live = cache.counts().live_bytes;
  {
    std::vector<double, fem::kernels::UninitializedAllocator<double>> large(LargeBlockCache::kLargeFrom / 8 + 1);
    CHECK(cache.counts().live_bytes >= live + LargeBlockCache::kLargeFrom);
    std::vector<double, fem::kernels::UninitializedAllocator<double>> small(1000, 2.5);
    CHECK(small[999] == 2.5);
    large.back() = 1.0;
    large.resize(large.size() * 3);  // a larger block; the first one goes back to the cache
    CHECK(large[LargeBlockCache::kLargeFrom / 8] == 1.0);
  }
  CHECK(cache.counts().live_bytes == live);
}
