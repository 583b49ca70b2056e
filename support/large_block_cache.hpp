#pragma once
// Large blocks of memory kept mapped after they are freed, for the next large allocation to reuse.
//
// Why: a block above glibc's mmap threshold (32 MiB at most) is mapped fresh by each allocation
// and unmapped by its free, so every page of every large temporary is faulted in and zeroed by
// the kernel again (and, on a freshly started virtual machine, backed by the hypervisor first):
// the AMG setup of 5 M equations writes about 8 GB of fresh arrays, and its first run in a process
// took up to 2.5 s against 1.6 s for later ones.
// Blocks freed here stay mapped, their pages resident, and the next allocation takes the smallest
// cached block that holds it (cutting off the rest), or else is made of the cached blocks that
// fit in it, their pages moved into it by mremap (page tables move, bytes do not), and fresh
// pages only for what they lack. So the process touches fresh pages only for what it holds at
// once beyond what it held before. Fresh pages of a block made outside a parallel region are
// faulted in ahead on all OpenMP threads (one call a 2 MiB piece rather than one trap a page).
//
// The cached bytes are capped (a freed block beyond the cap is unmapped); release() unmaps every
// cached block. Thread-safe; a live block is never handed out twice.
#include <cstddef>
#include <map>
#include <mutex>
#include <unordered_map>

namespace fem {

class LargeBlockCache {
 public:
  // Blocks of at least this many bytes go through a cache (UninitializedAllocator); smaller ones
  // come from malloc's arenas, which keep them anyway.
  static constexpr std::size_t kLargeFrom = std::size_t{4} << 20;

  struct Counts {
    std::size_t mapped_bytes = 0;    // fresh pages mapped (what cached blocks could not give)
    std::size_t reused_bytes = 0;    // bytes of allocations served from cached pages
    std::size_t unmapped_bytes = 0;  // freed beyond the cap, or by release()
    std::size_t cached_bytes = 0;    // held now, free for the next allocation
    std::size_t live_bytes = 0;      // handed out now
  };

  explicit LargeBlockCache(std::size_t cap_bytes) : cap_(cap_bytes) {}
  ~LargeBlockCache();  // unmaps the cached blocks (live ones belong to their owners until freed)
  LargeBlockCache(const LargeBlockCache&) = delete;
  LargeBlockCache& operator=(const LargeBlockCache&) = delete;

  // The process's cache, capped at an eighth of the physical memory.
  static LargeBlockCache& process();

  // A block of at least `bytes` (aligned to 2 MiB); throws std::bad_alloc when none can be mapped.
  // Its contents are whatever the reused pages held.
  void* allocate(std::size_t bytes);
  // Gives back a block from allocate(); it is cached while the cache stays under its cap.
  void deallocate(void* block) noexcept;
  // Unmaps every cached block (what a caller does when the memory is wanted elsewhere).
  void release() noexcept;

  Counts counts() const;
  std::size_t cap() const { return cap_; }

 private:
  // Caches a block not (or no longer) listed as live, or unmaps it beyond the cap.
  void cache_or_unmap(void* block, std::size_t size) noexcept;

  const std::size_t cap_;
  mutable std::mutex mutex_;
  std::multimap<std::size_t, void*> cached_;     // free blocks by size
  std::unordered_map<void*, std::size_t> live_;  // handed-out blocks and their mapped sizes
  Counts counts_;
};

}  // namespace fem
