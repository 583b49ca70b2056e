#include "support/large_block_cache.hpp"

#include <omp.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <iterator>
#include <new>

namespace fem {
namespace {

// Blocks are whole multiples of this, at addresses aligned to it: the kernel then moves a block's
// page tables a table (2 MiB of pages) at a time.
constexpr std::size_t kGrain = std::size_t{2} << 20;

std::size_t whole_grains(std::size_t bytes) { return (bytes + kGrain - 1) / kGrain * kGrain; }

char* at(void* block, std::size_t offset) { return static_cast<char*>(block) + offset; }

// `size` bytes of fresh (untouched) memory at an address aligned to kGrain; null when none.
void* map_fresh(std::size_t size) {
  void* const mapped = ::mmap(nullptr, size + kGrain, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapped == MAP_FAILED) return nullptr;
  const auto address = reinterpret_cast<std::uintptr_t>(mapped);
  const std::size_t head = (kGrain - address % kGrain) % kGrain;
  if (head > 0) ::munmap(mapped, head);
  ::munmap(at(mapped, head + size), kGrain - head);
  // Transparent huge pages where the system gives them on request ("madvise", a common default):
  // a block is whole 2 MiB pieces, so each is one page, faulted, walked by the TLB and unmapped
  // at once. Advice only: without huge pages the block is the same memory.
  ::madvise(at(mapped, head), size, MADV_HUGEPAGE);
  return at(mapped, head);
}

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14
#endif

// Faults in `size` bytes at `block` ahead of their first write, a 2 MiB piece a thread on all the
// OpenMP threads of the caller: the kernel maps and zeroes the pages in one call a piece instead
// of one trap a page (on a 2-core machine the AMG setup's first conversion 20 % faster). Called
// outside parallel regions only: an array made there is one the loops after it fill whole, while
// one made inside may be a vector growing into a capacity it never fills.
void populate(void* block, std::size_t size) {
  static std::atomic<bool> supported{true};
  if (!supported || omp_in_parallel()) return;
  const auto pieces = static_cast<std::int64_t>(size / kGrain);
#pragma omp parallel for schedule(static)
  for (std::int64_t piece = 0; piece < pieces; ++piece)
    if (::madvise(at(block, static_cast<std::size_t>(piece) * kGrain), kGrain, MADV_POPULATE_WRITE) != 0 &&
        errno == EINVAL)
      supported = false;  // an older kernel: the pages are faulted in where first written
}

}  // namespace

LargeBlockCache::~LargeBlockCache() { release(); }

LargeBlockCache& LargeBlockCache::process() {
  // Never destroyed: a static vector freed at exit after it would give its block to a dead cache.
  static auto* cache = new LargeBlockCache(static_cast<std::size_t>(::sysconf(_SC_PHYS_PAGES)) *
                                           static_cast<std::size_t>(::sysconf(_SC_PAGESIZE)) / 8);
  return *cache;
}

void* LargeBlockCache::allocate(std::size_t bytes) {
  const std::size_t size = whole_grains(bytes == 0 ? 1 : bytes);
  std::multimap<std::size_t, void*> taken;  // cached blocks, all smaller than `size`, to move into a new one
  {
    const std::lock_guard lock(mutex_);
    if (auto fit = cached_.lower_bound(size); fit != cached_.end()) {
      // The smallest block that holds it; a remainder worth caching is cut off and cached.
      std::size_t block_size = fit->first;
      void* const block = fit->second;
      cached_.erase(fit);
      counts_.cached_bytes -= block_size;
      if (block_size - size >= kLargeFrom) {
        cached_.emplace(block_size - size, at(block, size));
        counts_.cached_bytes += block_size - size;
        block_size = size;
      }
      live_.emplace(block, block_size);
      counts_.live_bytes += block_size;
      counts_.reused_bytes += size;
      return block;
    }
    // None holds it: the cached blocks that fit in it, largest first, are moved into a new block.
    std::size_t room = size;
    for (auto it = cached_.rbegin(); it != cached_.rend() && room > 0;) {
      if (it->first > room) {
        ++it;
        continue;
      }
      room -= it->first;
      counts_.cached_bytes -= it->first;
      taken.emplace(it->first, it->second);
      it = std::make_reverse_iterator(cached_.erase(std::next(it).base()));
    }
  }
  void* const block = map_fresh(size);
  if (!block) {
    for (const auto& [taken_size, taken_block] : taken) cache_or_unmap(taken_block, taken_size);
    throw std::bad_alloc();
  }
  // mremap moves page tables, not bytes: the pages already touched stay resident, in their new
  // place (the fresh pages they replace were never touched).
  std::size_t moved = 0;
  for (auto it = taken.rbegin(); it != taken.rend(); ++it) {  // largest first
    const auto [taken_size, taken_block] = *it;
    void* const into = at(block, moved);
    if (::mremap(taken_block, taken_size, taken_size, MREMAP_MAYMOVE | MREMAP_FIXED, into) == into)
      moved += taken_size;
    else
      cache_or_unmap(taken_block, taken_size);
  }
  populate(at(block, moved), size - moved);
  const std::lock_guard lock(mutex_);
  live_.emplace(block, size);
  counts_.live_bytes += size;
  counts_.mapped_bytes += size - moved;
  counts_.reused_bytes += moved;
  return block;
}

void LargeBlockCache::deallocate(void* block) noexcept {
  std::size_t size = 0;
  {
    const std::lock_guard lock(mutex_);
    const auto live = live_.find(block);
    if (live == live_.end()) {
      std::fprintf(stderr, "LargeBlockCache: a block freed that it did not hand out (or freed twice)\n");
      std::terminate();
    }
    size = live->second;
    live_.erase(live);
    counts_.live_bytes -= size;
  }
  cache_or_unmap(block, size);
}

void LargeBlockCache::cache_or_unmap(void* block, std::size_t size) noexcept {
  {
    const std::lock_guard lock(mutex_);
    if (counts_.cached_bytes + size <= cap_) {
      cached_.emplace(size, block);
      counts_.cached_bytes += size;
      return;
    }
    counts_.unmapped_bytes += size;
  }
  ::munmap(block, size);
}

void LargeBlockCache::release() noexcept {
  std::multimap<std::size_t, void*> cached;
  {
    const std::lock_guard lock(mutex_);
    cached.swap(cached_);
    counts_.unmapped_bytes += counts_.cached_bytes;
    counts_.cached_bytes = 0;
  }
  for (const auto& [size, block] : cached) ::munmap(block, size);
}

LargeBlockCache::Counts LargeBlockCache::counts() const {
  const std::lock_guard lock(mutex_);
  return counts_;
}

}  // namespace fem
