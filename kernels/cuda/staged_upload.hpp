#pragma once
// Large host-to-device copies through pinned staging buffers. A copy from pageable memory runs at
// a few GB/s (the driver stages it itself, synchronously, in small pieces); here a pair of pinned
// buffers takes it in chunks, the host filling one while the copy engine drains the other, so the
// copy runs at the lesser of the link's and the host memcpy's speed. Copies to the host run the
// same way in reverse (the copy engine fills one buffer while the host empties the other). Plain C++.
#include <cstddef>

namespace fem::kernels::cuda {

// The size of one staging buffer (a copier holds two).
inline constexpr std::size_t kStagingChunkBytes = std::size_t{16} << 20;
// The most copiers that split copies run at once, over all copies (each on a thread of its own: a
// caller running parallel work beside the copies leaves them this many cores).
inline constexpr int kMaxCopiers = 3;

// Copies `bytes` from host memory to `device`; returns once the device holds them. Ordered after
// the work already queued on the default stream (as cudaMemcpy is), not after work queued later.
// Safe from several threads at once: each copier takes its own pair of buffers from a pool that
// keeps them for the next copies (pinning memory is slow). A copy of over 64 MiB is split among
// staging_copiers(bytes) copiers: one copier runs at the speed of one core's memcpy into its
// buffers, far below the link's.
void staged_copy_to_device(void* device, const void* host, std::size_t bytes);
// How many copiers share a copy of `bytes` (1 up to kMaxCopiers).
int staging_copiers(std::size_t bytes);
// As above through `copiers` copiers (at most one per chunk), each taking a range of whole chunks
// on a thread of its own (the first on the caller's).
void staged_copy_to_device(void* device, const void* host, std::size_t bytes, int copiers);
// Copies `bytes` from `device` to host memory once the work queued on the default stream before
// the call is done; returns once the host holds them. Split among copiers as above.
void staged_copy_to_host(void* host, const void* device, std::size_t bytes);

}  // namespace fem::kernels::cuda
