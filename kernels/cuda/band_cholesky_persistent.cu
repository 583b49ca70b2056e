// The persistent band Cholesky kernel (band_cholesky_persistent.hpp): the factorisation in two
// kernels that stay resident and meet through flags in device memory, so that the critical path,
// the strips of one block column to the next, has no launch and no update task on it.
// Tiles are 64 x 64. The strips of block column k (32 rows each under T(k, k)) apply block columns
// k - 1 and k - 2 to their rows and their copy of T(k, k) themselves, then factor T(k, k) and solve
// their rows; the updates of block column j by block columns k <= j - 3 are tasks of their own,
// which so have two steps to land. Tasks go by groups (group g: the strips of block column g, then
// the rest of block column g - 1's updates); every task reads only what tasks before it write.
// Strips and updates run in separate kernels on multiprocessors of their own (the strip's pivot
// chain takes a multiprocessor's registers and, alone there, its instruction cache; an update block
// holds one to three workers, each taking tasks by itself). Each queue hands out tickets in order:
// whoever waits, waits for a task that a running block or worker holds, so the order cannot
// deadlock whatever the split, as long as one block of each kernel runs.
// Waits: a strip of block column k, for the strips of k - 2 and k - 1 it reads (k - 1's by halves:
// flag 1 once a strip stored its first 32 columns, 2 once all) and for the update counts of T(k, k)
// and of its own tile; an update of T(i, j) by k, for the strips of L(i, k) and L(j, k) and for
// T(i, j)'s update by k - 1 (the count). The measurements: bench/results/2026-11-27-band-gpu-*.md.

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>

#include "kernels/cuda/band_cholesky_persistent.hpp"
#include "kernels/cuda/block_column_strip.cuh"
#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/device_buffer.hpp"
#include "kernels/cuda/stream_event.hpp"
#include "kernels/device_matrix.hpp"

namespace fem::kernels::cuda {

namespace {

using block_column_device::mma_16x8x16;
using block_column_device::threads;
constexpr int tile = block_column_width;  // 64
constexpr int strip_rows = block_column_device::strip_rows;
constexpr int tile_pitch = tile + 4;  // 4 mod 16 doubles: the tensor-core fragments hit distinct banks
// The update kernel's shapes: workers of `threads` threads a block, each updating `task_tiles`
// tiles of a block column a task (update_tiles: more tiles a task, fewer fixed costs (waits,
// flags, tickets, L(j, k)'s load) for the same work). Its L tiles in shared memory, (1 +
// task_tiles) of them a worker, fill a multiprocessor with the workers' registers: one update
// block a multiprocessor, as a strip block, so that every block of both kernels is resident
// whatever order the device places them in. (A tile a task kept short the chain of updates of
// T(k, k) by k - 2 and k - 3 when the first was a task: b = 4000 2.27 s against 1.58 with 2 x 2
// tiles on 2026-11-26; the strips apply k - 2 now, and the chain has two steps.)
template <int task_tiles>
constexpr std::size_t update_worker_bytes = (1 + task_tiles) * tile * tile_pitch * sizeof(double);
constexpr std::size_t strip_shared_bytes = block_column_device::shared_size<double>(2);

static_assert(threads == 256 && tile == 64, "the update's warps: 4 x 2 of 16 x 32 entries each");

struct Band {
  double* rows = nullptr;
  long long n = 0, kd = 0, ld = 0;
  long long columns = 0;    // block columns: ceil(n / 64)
  long long reach = 0;      // tile rows under a diagonal block that its block column updates
  long long strips = 0;     // strip tasks a group: ceil(kd / 32), at least 1
  long long strips_apply = 0;  // the block columns before its own that a strip applies: 2 (1 if the band is one tile)
  bool pairs = false;        // two neighbouring entries of a row in one 16-byte access (ld even, rows aligned)
  long long updates = 0;    // update tasks a group
  unsigned long long* next_strip = nullptr;   // ticket counters: the strips', the updates'
  unsigned long long* next_update = nullptr;
  int* applied = nullptr;    // per tile T(i, j), j <= i <= j + reach: block columns applied to it
  int* solved = nullptr;     // per strip (k, s): its halves stored (of its block column's 64 columns), 2 once solved
  unsigned* arrivals = nullptr;  // per block column: its strips that have read its diagonal block
  int* info = nullptr;       // per block column: 0, or 1 + the column in it whose pivot failed
  // 1 once a wait took over a second: every wait gives up, the host throws; then the first such
  // wait's flag (its index from `applied`), the value it waited for, the value it last saw and the
  // block that waited (its index; negative, -1 - index, for an update block).
  int* stalled = nullptr;
  PersistentStepTimes* times = nullptr;
  long long timed_steps = 0;

  __device__ double* at(long long i, long long j) const { return rows + i * ld + j + ld; }
  __device__ int* updates_of(long long i, long long j) const { return applied + i * (reach + 1) + (i - j); }
  // The block columns that update T(i, j) before block column k: max(0, i - reach) ... k - 1.
  __device__ int updates_before(long long i, long long k) const { return static_cast<int>(k - max(0LL, i - reach)); }
  __device__ long long width(long long k) const { return min(static_cast<long long>(tile), n - k * tile); }
  __device__ long long below(long long k) const { return min(kd, n - k * tile - width(k)); }
  __device__ long long strips_of(long long k) const { return below(k) > 0 ? (below(k) + strip_rows - 1) / strip_rows : 1; }
};

// Update tasks of a group for block column g + 2 + c (reach - 2 - c tiles, `task_tiles` a task):
// the host counts a group's tasks, update_task finds its own among them.
__host__ __device__ constexpr long long tasks_in_column(long long reach, long long c, long long task_tiles) {
  return (reach - 2 - c + task_tiles - 1) / task_tiles;
}

__device__ int load_acquire(const int* p) {
  int v;
  asm volatile("ld.acquire.gpu.global.s32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

__device__ std::int64_t now_ns() { return block_column_device::global_time_ns(); }

// By a lane of the first warp, each lane its own flag (the flags' loads go together, one trip to
// L2 for all); the acquire makes what the writer wrote before its release visible to the block
// after the barrier that follows. A wait of over a second means a bug, not a slow device: it
// stops every wait (the kernel ends, with wrong numbers) instead of hanging the process.
// Polls `spacing` ns apart after each round trip: a hundred update blocks polling a few flags in
// a tight loop queue up in L2 before the loads of the blocks that work; the few strip blocks, on
// the critical path, poll back to back.
enum class Polls : unsigned { spaced = 200, back_to_back = 0 };
__device__ void wait_until_at_least(const Band& b, const int* flag, int value, Polls spacing = Polls::spaced) {
  std::int64_t start = 0;
  for (unsigned polls = 1; load_acquire(flag) < value; ++polls) {
    if (spacing != Polls::back_to_back) __nanosleep(static_cast<unsigned>(spacing));
    if (polls % 256 != 0) continue;  // the clock and the stall flag now and then
    if (*static_cast<volatile int*>(b.stalled) != 0) return;
    if (start == 0) {
      start = now_ns();
    } else if (now_ns() - start > 1000000000) {
      if (atomicCAS(b.stalled, 0, 1) == 0) {
        b.stalled[1] = static_cast<int>(flag - b.applied);
        b.stalled[2] = value;
        b.stalled[3] = *static_cast<const volatile int*>(flag);
        b.stalled[4] = spacing == Polls::back_to_back ? static_cast<int>(blockIdx.x) : -1 - static_cast<int>(blockIdx.x);
      }
      return;
    }
  }
}

// After a barrier, by one thread: what the block wrote is visible before the flag moves (a
// release, cumulative over the block's writes ordered before it by the barrier).
__device__ void release_add(int* flag, int value) {
  asm volatile("red.release.gpu.global.add.s32 [%0], %1;" ::"l"(flag), "r"(value) : "memory");
}

// An update worker: `threads` threads of an update block, with a named barrier of their own (1 +
// its index in the block; 0 is __syncthreads').
struct Worker {
  int index;   // in its block
  int thread;  // 0 .. threads - 1
  __device__ void sync() const { asm volatile("bar.sync %0, %1;" ::"r"(1 + index), "n"(threads) : "memory"); }
};

// The update of the `count` tiles T(i + t, j), t < count <= task_tiles, by block column k
// (k < j <= i + t <= k + reach, i + t < columns): T -= L(i + t, k) L(j, k)ᵀ. The L tiles through
// shared memory (zero outside the band and past n; L(j, k) once, also where i + t == j), the
// products on the tensor cores (each warp 16 x 32 entries of a tile), T read and written in place
// where it is stored (lower triangle, band, rows < n). Tiles of a task share L(j, k)'s load, the
// waits' and flags' trips and the ticket. By one worker, in its share of the shared memory.
// With `inputs_ready`, its first thread leaves there when its inputs were there (ns). The
// worker's next ticket goes to `next_ticket` (fetched before the last tile's stores: its round
// trip beside them).
template <int task_tiles>
__device__ void update_tiles(const Band& b, long long i, long long j, long long k, int count, unsigned char* shared,
                             const Worker& worker, std::int64_t* inputs_ready, long long& next_ticket) {
  double(*l)[tile][tile_pitch] = reinterpret_cast<double(*)[tile][tile_pitch]>(shared);  // L(j, k), then L(i + t, k)
  const auto l_index = [&](int t) { return i + t == j ? 0 : 1 + t; };                   // of tile t's rows
  const auto l_row = [&](int which) { return which == 0 ? j : i + which - 1; };          // of L tile `which`
  const auto loaded = [&](int which) { return which == 0 || (which - 1 < count && l_index(which - 1) == which); };
  constexpr int count_lanes = 16;  // lanes 0 .. 2 task_tiles + 1: the strips of the L tiles; from 16: the tiles' counts
  static_assert(2 * (1 + task_tiles) <= count_lanes && count_lanes + task_tiles <= 32, "a lane a flag");
  if (worker.thread < 32) {
    const int lane = worker.thread;
    const long long s = 2 * (l_row(lane / 2) - k - 1) + lane % 2;
    if (lane < 2 * (1 + task_tiles) && loaded(lane / 2) && s < b.strips_of(k))
      wait_until_at_least(b, b.solved + k * b.strips + s, 2);
    const int t = lane - count_lanes;
    if (t >= 0 && t < count) wait_until_at_least(b, b.updates_of(i + t, j), b.updates_before(i + t, k));
  }
  worker.sync();
  if (inputs_ready && worker.thread == 0) *inputs_ready = now_ns();
  // Loads go out together: the L tiles by asynchronous copies (a column of each a thread; loads
  // into registers, each stored to shared memory, went out a few at a time: 7.4 us for two
  // tiles), then the entries of this thread's accumulators. The first tile's product waits only
  // for the first two L tiles (the copies' first group), the later tiles' for the rest.
  const int warp = worker.thread / 32, lane = worker.thread % 32, g = lane / 4, t4 = lane % 4;
  const int r0 = warp / 2 * 16, c0 = warp % 2 * 32;
  const auto entry = [&](int t, int nt, int q, long long& row, long long& column) {  // of tile t's acc[nt][q]
    row = (i + t) * tile + r0 + g + 8 * (q / 2);
    column = j * tile + c0 + nt * 8 + 2 * t4 + q % 2;
    return t < count && row < b.n && column <= row && row - column <= b.kd;
  };
  {
    const int c = worker.thread % tile, first_row = worker.thread / tile;
    const long long column = k * tile + c;
#pragma unroll
    for (int which = 0; which < 1 + task_tiles; ++which) {
      if (loaded(which)) {
#pragma unroll
        for (int r = first_row; r < tile; r += threads / tile) {
          const long long row = l_row(which) * tile + r;
          if (row < b.n && row - column <= b.kd)
            __pipeline_memcpy_async(&l[which][r][c], b.at(row, column), sizeof(double));
          else
            l[which][r][c] = 0.0;
        }
      }
      if (which == 1) __pipeline_commit();  // the first group: L(j, k) and L(i, k)
    }
    __pipeline_commit();
  }
  // The first tile's entries load beside the L tiles, into the accumulators (T - L Lᵀ as T +
  // (-L) Lᵀ: T's entries and the product's sums in the same registers; apart, they spilled at
  // 128 registers a thread); a later tile's after the tile before it is stored (loaded while
  // it was stored, in registers of their own, they spilled, and ran slower). A
  // thread's entries q and q + 1 (q even) are neighbours in a row: with Band::pairs, in a tile
  // whose entries are all stored (under the diagonal, in the band, rows < n), one 16-byte access
  // for both (a warp's access then a whole 64-byte piece of each of 8 rows, where single entries
  // took every other double of it); entry
  // by entry elsewhere.
  double acc[4][4];
  const auto whole = [&](int t) {
    return b.pairs && i + t > j && (i + t + 1) * tile <= b.n && (i + t - j + 1) * tile - 1 <= b.kd;
  };
  const auto pair_at = [&](int t, int nt, int q) {  // entries q, q + 1 of a whole tile
    return reinterpret_cast<double2*>(b.at((i + t) * tile + r0 + g + 8 * (q / 2), j * tile + c0 + nt * 8 + 2 * t4));
  };
  const auto load_entries = [&](double(&to)[4][4], int t) {
    if (whole(t)) {
#pragma unroll
      for (int nt = 0; nt < 4; ++nt)
#pragma unroll
        for (int q = 0; q < 4; q += 2) {
          const double2 v = __ldcg(pair_at(t, nt, q));
          to[nt][q] = v.x, to[nt][q + 1] = v.y;
        }
      return;
    }
#pragma unroll
    for (int nt = 0; nt < 4; ++nt)
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        long long row, column;
        to[nt][q] = entry(t, nt, q, row, column) ? __ldcg(b.at(row, column)) : 0.0;
      }
  };
  load_entries(acc, 0);
  __pipeline_wait_prior(1);
  worker.sync();
#pragma unroll 1
  for (int t = 0; t < count; ++t) {
    if (t == 1) {
      __pipeline_wait_prior(0);
      worker.sync();
    }
    const double(*rows_l)[tile_pitch] = l[l_index(t)];
#pragma unroll
    for (int k0 = 0; k0 < tile; k0 += 16) {
      double a[8];
#pragma unroll
      for (int q = 0; q < 8; ++q) a[q] = -rows_l[r0 + g + 8 * (q % 2)][k0 + t4 + 4 * (q / 2)];
#pragma unroll
      for (int nt = 0; nt < 4; ++nt) {
        double bf[4];
#pragma unroll
        for (int q = 0; q < 4; ++q) bf[q] = l[0][c0 + nt * 8 + g][k0 + t4 + 4 * q];
        mma_16x8x16(acc[nt], a, bf);
      }
    }
    const bool last = t + 1 == count, fetches = last && worker.thread == threads - 1;
    unsigned long long ticket = 0;
    if (fetches) ticket = atomicAdd(b.next_update, 1ULL);
    if (whole(t)) {
#pragma unroll
      for (int nt = 0; nt < 4; ++nt)
#pragma unroll
        for (int q = 0; q < 4; q += 2) *pair_at(t, nt, q) = make_double2(acc[nt][q], acc[nt][q + 1]);
    } else {
#pragma unroll
      for (int nt = 0; nt < 4; ++nt)
#pragma unroll
        for (int q = 0; q < 4; ++q) {
          long long row, column;
          if (entry(t, nt, q, row, column)) *b.at(row, column) = acc[nt][q];
        }
    }
    if (fetches) next_ticket = static_cast<long long>(ticket);
    if (!last) load_entries(acc, t + 1);
  }
  worker.sync();
  if (worker.thread < count) release_add(b.updates_of(i + worker.thread, j), 1);
}

// The strip's handoff with the strips of the block columns before and after it
// (block_column_strip.cuh): it waits for the strips of block column k - back that it reads (those
// of T(k, k)'s rows, 64 (back - 1) rows under that block column's diagonal block, and the one of
// its own rows, 64 back rows further down: strips 2 (back - 1), 2 (back - 1) + 1 and s + 2 back)
// to have stored `halves` halves of their columns, and tells block column k + 1's when its first
// slab's columns are stored. A strip's flag counts its halves stored.
struct StripHandoff {
  static constexpr bool waits = true;
  const Band& b;
  long long k, s;
  bool timed;
  long long& next_ticket;  // the block's

  __device__ void wait_left(int back, int halves) const {
    if (threadIdx.x < 32) {
      const int lane = threadIdx.x;
      const long long before = k - back, their_strips = b.strips_of(before), first = 2 * (back - 1);
      if ((lane == 2 || lane == 3) && first + lane - 2 < their_strips)
        wait_until_at_least(b, b.solved + before * b.strips + first + lane - 2, halves, Polls::back_to_back);
      if (lane == 4 && b.below(k) > 0 && s + 2 * back < their_strips)
        wait_until_at_least(b, b.solved + before * b.strips + s + 2 * back, halves, Polls::back_to_back);
      __syncwarp();
      if (lane == 0 && timed && back == 1) (halves == 1 ? b.times[k].strip_ready : b.times[k].strip_half_ready) = now_ns();
    }
    __syncthreads();
  }
  __device__ void first_slab_stored() const {
    release_add(b.solved + k * b.strips + s, 1);
    if (timed) b.times[k].strip_half_done = now_ns();
  }
  __device__ unsigned long long fetch_next() const { return atomicAdd(b.next_strip, 1ULL); }
  __device__ void fetched(unsigned long long ticket) const { next_ticket = static_cast<long long>(ticket); }
};

// Strip s of block column k: apply block columns k - strips_apply ... k - 1 to T(k, k) and the
// strip, factor T(k, k), solve the strip (block_column_strip.cuh); the block's next ticket to
// `next_ticket`, fetched beside its last stores.
__device__ void factor_strip(const Band& b, long long s, long long k, unsigned char* shared, long long& next_ticket) {
  const long long strips = b.strips_of(k), below = b.below(k);
  if (s >= strips) return;
  const bool timed = s == 0 && k < b.timed_steps;
  if (timed && threadIdx.x == 0) b.times[k].strip_taken = now_ns();
  // First the update counts of T(k, k) and of the strip's tile (every block column before those
  // it applies: lanes 0 and 1), then their copies go out while the handoff waits for the block
  // columns' strips (only the left columns wait).
  const long long i = k + 1 + s / 2, applies_from = k - b.strips_apply;  // the tile row of the strip
  if (threadIdx.x == 0)
    wait_until_at_least(b, b.updates_of(k, k), b.updates_before(k, applies_from), Polls::back_to_back);
  if (threadIdx.x == 1 && below > 0)
    wait_until_at_least(b, b.updates_of(i, k), b.updates_before(i, applies_from), Polls::back_to_back);
  __syncthreads();
  if (timed && threadIdx.x == 0) b.times[k].strip_counted = now_ns();
  BlockColumn<double> column;
  column.diagonal = b.at(k * tile, k * tile);
  column.ld = b.ld;
  column.width = static_cast<int>(b.width(k));
  column.below = below;
  column.left = static_cast<int>(min(k, b.strips_apply) * tile);
  column.bandwidth = b.kd;
  std::int64_t* stamps = timed ? b.times[k].strip_phases : nullptr;
  block_column_device::factor_strip(column, s, static_cast<unsigned>(strips), b.info + k, 0, b.arrivals + k, shared,
                                    stamps, StripHandoff{b, k, s, timed, next_ticket});
  __syncthreads();
  if (threadIdx.x == 0) {
    // The second half; both where the block column is one slab wide (no first_slab_stored).
    release_add(b.solved + k * b.strips + s, column.width > block_column_device::slab ? 1 : 2);
    if (timed) b.times[k].strip_done = now_ns();
  }
}

// Update task r of group g (the order in the file's comment, strips left out): block column g - 1's
// updates of block columns g + 2 on, column by column from the diagonal down, task_tiles tiles a
// task (`inputs_ready`, `next_ticket`: update_tiles'; every thread has read the task's ticket).
template <int task_tiles>
__device__ void update_task(const Band& b, long long g, long long r, unsigned char* shared, const Worker& worker,
                            std::int64_t* inputs_ready, long long& next_ticket) {
  const auto no_tiles = [&] {  // the next ticket where update_tiles does not fetch it
    worker.sync();  // every thread has read the ticket
    if (worker.thread == 0) next_ticket = static_cast<long long>(atomicAdd(b.next_update, 1ULL));
  };
  if (g == 0) return no_tiles();
  long long c = 0;  // block column g + 2 + c, whose tiles g - 1 updates: reach - 2 - c of them
  while (r >= tasks_in_column(b.reach, c, task_tiles)) r -= tasks_in_column(b.reach, c++, task_tiles);
  const long long j = g + 2 + c, i = j + r * task_tiles;
  const long long count = min(static_cast<long long>(task_tiles), min(b.reach - 2 - c - r * task_tiles, b.columns - i));
  if (count <= 0) return no_tiles();
  update_tiles<task_tiles>(b, i, j, g - 1, static_cast<int>(count), shared, worker, inputs_ready, next_ticket);
}

// The strips, a block a multiprocessor, each block a strip at a time in the queue's order.
__global__ void __launch_bounds__(threads, 1) strip_kernel(Band b) {
  extern __shared__ __align__(16) unsigned char shared[];
  __shared__ long long ticket;  // the block's next strip, fetched by the strip before it (or here)
  const long long tickets = b.columns * b.strips;
  if (threadIdx.x == 0) ticket = static_cast<long long>(atomicAdd(b.next_strip, 1ULL));
  for (;;) {
    __syncthreads();  // the last strip is done with the shared memory, the next ticket is there
    const long long current = ticket, k = current / b.strips, s = current % b.strips;
    if (current >= tickets) return;
    factor_strip(b, s, k, shared, ticket);
    if (s >= b.strips_of(k)) {  // factor_strip did not fetch it
      __syncthreads();  // every thread has read the ticket
      if (threadIdx.x == 0) ticket = static_cast<long long>(atomicAdd(b.next_strip, 1ULL));
    }
  }
}

// The updates, `workers` workers a block (a block a multiprocessor), each a task at a time in the
// queue's order.
template <int workers, int task_tiles>
__global__ void __launch_bounds__(workers* threads, 1) update_kernel(Band b) {
  extern __shared__ __align__(16) unsigned char shared[];
  __shared__ long long tickets[workers];
  __shared__ std::int64_t stamps[workers][2];  // a timed task's: taken, inputs there (0: none)
  const Worker worker{static_cast<int>(threadIdx.x) / threads, static_cast<int>(threadIdx.x) % threads};
  unsigned char* const own = shared + worker.index * update_worker_bytes<task_tiles>;
  // The worker's next task, each task fetching the one after it (update_task).
  long long& ticket = tickets[worker.index];
  const long long all = b.columns * b.updates;
  if (worker.thread == 0) ticket = static_cast<long long>(atomicAdd(b.next_update, 1ULL));
  for (;;) {
    worker.sync();  // the last task is done with the shared memory, its next ticket is there
    const long long current = ticket;
    if (current >= all) return;
    // The first steps' tasks timed, the stamps through shared memory (in registers across the
    // task they spilled).
    const long long g = current / b.updates;
    std::int64_t* const stamp = stamps[worker.index];
    if (g < b.timed_steps && worker.thread == 0) stamp[0] = now_ns(), stamp[1] = 0;
    update_task<task_tiles>(b, g, current % b.updates, own, worker, g < b.timed_steps ? stamp + 1 : nullptr, ticket);
    if (g < b.timed_steps && worker.thread == 0 && stamp[1] > 0) {  // stamp[1] 0: no tiles
      PersistentStepTimes& t = b.times[g];
      const auto add = [](std::int64_t& sum, std::int64_t ns) {
        atomicAdd(reinterpret_cast<unsigned long long*>(&sum), static_cast<unsigned long long>(ns));
      };
      add(t.update_tasks, 1);
      add(t.update_waited, stamp[1] - stamp[0]);
      add(t.update_held, now_ns() - stamp[0]);
    }
  }
}

// The update kernel's shapes (PersistentGrid::update_workers picks one by its workers).
struct UpdateShape {
  int workers, task_tiles;
  void (*kernel)(Band);
  std::size_t shared_bytes;  // its workers' L tiles
};
template <int workers, int task_tiles>
constexpr UpdateShape shape_of() {
  static_assert(workers * update_worker_bytes<task_tiles> <= 227 * 1024, "a block's shared memory on sm_90");
  return {workers, task_tiles, update_kernel<workers, task_tiles>, workers * update_worker_bytes<task_tiles>};
}
const UpdateShape update_shapes[] = {shape_of<1, 4>(), shape_of<2, 2>(), shape_of<3, 1>()};
constexpr int default_update_workers = 2;

// Once a process: the kernels' shared memory beyond the default 48 KB.
void allow_shared_memory() {
  static const bool done = [] {
    check(cudaFuncSetAttribute(strip_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               static_cast<int>(strip_shared_bytes)),
          "cudaFuncSetAttribute (persistent strip kernel)");
    for (const UpdateShape& shape : update_shapes)
      check(cudaFuncSetAttribute(shape.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 static_cast<int>(shape.shared_bytes)),
            "cudaFuncSetAttribute (persistent update kernel)");
    return true;
  }();
  (void)done;
}

// The blocks of `kernel` a multiprocessor holds.
int blocks_per_multiprocessor(void (*kernel)(Band), int block_threads, std::size_t shared) {
  allow_shared_memory();
  int blocks = 0;
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, block_threads, shared),
        "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  return blocks;
}

// Device memory for the kernels' flags, kept for the next factorisation instead of freed. A
// cudaFree waits for every kernel of the process; beside another persistent factorisation (the
// two-sided walkers, two host threads) that deadlocked until the watchdog broke it: this one's
// release waited for the other's strip kernel, which waited for its update kernel, whose launch
// waited for the release (the driver's lock between the two launches). (Stream-ordered
// allocation, cudaMallocAsync, avoided the stall, but its pool's growth made the second walker
// wait for the first.) What is kept grows with the bands factored, a buffer for each walker at
// once and each larger size: a few MB each.
class WorkspaceCache {
 public:
  static WorkspaceCache& instance() {
    static WorkspaceCache* cache = new WorkspaceCache;  // never destroyed: CUDA may be gone at exit
    return *cache;
  }
  // A buffer of at least `words` 8-byte words: a kept one if one is large enough, else a new one.
  DeviceBuffer<std::int64_t> take(std::size_t words) {
    {
      const std::lock_guard<std::mutex> hold(lock_);
      for (auto it = kept_.begin(); it != kept_.end(); ++it)
        if (it->size() >= words) {
          DeviceBuffer<std::int64_t> found = std::move(*it);
          kept_.erase(it);
          return found;
        }
    }
    return DeviceBuffer<std::int64_t>(words);
  }
  void give_back(DeviceBuffer<std::int64_t>&& buffer) {
    const std::lock_guard<std::mutex> hold(lock_);
    kept_.push_back(std::move(buffer));
  }

 private:
  std::mutex lock_;
  std::vector<DeviceBuffer<std::int64_t>> kept_;
};

static_assert(sizeof(PersistentStepTimes) % sizeof(std::int64_t) == 0, "the timed steps fill whole words");

// A workspace from the cache, given back when it goes.
class CachedWorkspace {
 public:
  explicit CachedWorkspace(std::size_t words) : buffer_(WorkspaceCache::instance().take(words)) {}
  ~CachedWorkspace() { WorkspaceCache::instance().give_back(std::move(buffer_)); }
  CachedWorkspace(const CachedWorkspace&) = delete;
  CachedWorkspace& operator=(const CachedWorkspace&) = delete;
  std::int64_t* get() const { return buffer_.get(); }

 private:
  DeviceBuffer<std::int64_t> buffer_;
};

// The stall record's ints (Band::stalled).
constexpr std::size_t stall_record = 5;

// What the stall record says, for the exception: which block waited for which flag.
std::string describe_stall(const Band& b, std::size_t counts, const int* record, long long strip_blocks) {
  const long long flag = record[1];
  std::string what;
  if (flag >= 0 && static_cast<std::size_t>(flag) < counts) {
    const long long i = flag / (b.reach + 1), j = i - flag % (b.reach + 1);
    what = "tile (" + std::to_string(i) + ", " + std::to_string(j) + ")'s update count";
  } else {
    const long long strip = flag - static_cast<long long>(counts);
    what = "strip " + std::to_string(strip % b.strips) + " of block column " + std::to_string(strip / b.strips) +
           "'s stored halves";
  }
  const int block = record[4];
  const std::string who = block >= 0 ? "strip block " + std::to_string(block) + " of " + std::to_string(strip_blocks)
                                     : "update block " + std::to_string(-1 - block);
  return "persistent band kernel: a wait took over a second (a bug): " + who + " waited for " + what + " to reach " +
         std::to_string(record[2]) + ", it was " + std::to_string(record[3]) + " (band of " + std::to_string(b.n) +
         " rows, half-bandwidth " + std::to_string(b.kd) + ")";
}

}  // namespace

int persistent_blocks() {
  static const int blocks_per_sm = std::max(1, blocks_per_multiprocessor(strip_kernel, threads, strip_shared_bytes));
  int device = 0, sms = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute");
  return blocks_per_sm * sms;
}

void factor_persistent(const BandLayout& layout, double* rows, std::vector<PersistentStepTimes>* times,
                       const PersistentGrid& shape) {
  if (layout.n == 0) return;
  if (layout.block < tile)
    throw std::invalid_argument("persistent band Cholesky: block " + std::to_string(layout.block) +
                                " leaves too little padding for its 64-column tiles");
  const int workers = shape.update_workers > 0 ? shape.update_workers : default_update_workers;
  const UpdateShape* update = nullptr;
  for (const UpdateShape& u : update_shapes)
    if (u.workers == workers) update = &u;
  if (!update)
    throw std::invalid_argument("persistent band Cholesky: no update kernel of " + std::to_string(workers) + " workers");
  Band b;
  b.rows = rows;
  b.n = layout.n;
  b.kd = layout.bandwidth;
  b.ld = layout.window();
  b.columns = (b.n + tile - 1) / tile;
  b.reach = (b.kd + tile - 1) / tile;
  b.strips = std::max<long long>(1, (b.kd + strip_rows - 1) / strip_rows);
  b.strips_apply = b.reach >= 2 ? 2 : 1;
  b.pairs = b.ld % 2 == 0 && reinterpret_cast<std::uintptr_t>(rows) % sizeof(double2) == 0;
  b.updates = 0;  // tasks of block columns >= g + 2
  long long tiles = 0;
  for (long long c = 0; b.reach - 2 - c > 0; ++c) {
    b.updates += tasks_in_column(b.reach, c, update->task_tiles);
    tiles += b.reach - 2 - c;
  }
  // Counters and flags, zero: the two ticket counters (two ints each), the update counts, the
  // strip flags, the arrivals, the pivot flags and the stall record; then the timed steps'.
  const std::size_t counts = static_cast<std::size_t>(b.columns * (b.reach + 1)),
                    flags = static_cast<std::size_t>(b.columns * b.strips), columns = static_cast<std::size_t>(b.columns);
  const std::size_t state_ints = 4 + counts + flags + 2 * columns + stall_record, state_words = (state_ints + 1) / 2,
                    timed = times ? times->size() : 0,
                    time_words = timed * sizeof(PersistentStepTimes) / sizeof(std::int64_t);
  // From taking the workspace (a new one is a cudaMalloc, which the driver may make wait for the
  // device) to its second launch, one factorisation at a time: no other may be between its two
  // launches while this one waits for the device, nor wait for the device while this one is.
  static std::mutex launching;
  std::unique_lock<std::mutex> launch_lock(launching);
  const CachedWorkspace workspace(state_words + time_words);
  int* const state = reinterpret_cast<int*>(workspace.get());
  zero_device_bytes(workspace.get(), (state_words + time_words) * sizeof(std::int64_t));
  b.next_strip = reinterpret_cast<unsigned long long*>(state);
  b.next_update = b.next_strip + 1;
  b.applied = state + 4;
  b.solved = b.applied + counts;
  b.arrivals = reinterpret_cast<unsigned*>(b.solved + flags);
  b.info = b.solved + flags + columns;
  b.stalled = b.info + columns;
  if (times) {
    b.times = reinterpret_cast<PersistentStepTimes*>(workspace.get() + state_words);  // zero: the tasks' sums
    b.timed_steps = static_cast<long long>(timed);
  }

  // Every block resident at once (they wait on one another), at least one of each kernel: a
  // block a multiprocessor, strip or update, so `grid` blocks of both fit on as many
  // multiprocessors. The multiprocessors split by a group's work: a strip (loads, left updates,
  // the two slabs' pivot chains, stores) weighs the update of 4.5 tiles on a multiprocessor,
  // plus 8 blocks for the next group's strips to be taken before their inputs land; at most two
  // blocks a strip of a group. (A fixed share of the grid for the strips left either side short
  // at some bandwidth; the weight is the one that did best with two update workers a
  // multiprocessor and their entries in pairs.)
  const long long resident = persistent_blocks(),
                  grid = shape.max_blocks > 0 ? std::min<long long>(resident, shape.max_blocks) : resident;
  if (grid < 2) throw std::runtime_error("persistent band Cholesky: fewer than two of its blocks at once");
  if (blocks_per_multiprocessor(update->kernel, workers * threads, update->shared_bytes) < 1)
    throw std::runtime_error("persistent band Cholesky: its update kernel does not fit a multiprocessor");
  const double strip_work = 4.5 * static_cast<double>(b.strips), update_work = static_cast<double>(tiles);
  const long long balanced = std::llround(static_cast<double>(grid) * strip_work / (strip_work + update_work)) + 8;
  const long long strip_blocks =
      std::clamp(shape.strip_blocks > 0 ? shape.strip_blocks : std::min(balanced, 2 * b.strips), 1LL, grid - 1);
  // Streams of their own, not the default one, which would serialise them with another
  // factorisation's; after the default stream's work (the band's upload, the flags zeroed). The
  // strips first: they hold the critical path.
  const Stream strip_stream(0, cudaStreamNonBlocking), update_stream(0, cudaStreamNonBlocking);
  Event uploaded;
  uploaded.record(nullptr);
  uploaded.wait_in(strip_stream);
  uploaded.wait_in(update_stream);
  strip_kernel<<<static_cast<unsigned>(strip_blocks), threads, strip_shared_bytes, strip_stream>>>(b);
  check(cudaGetLastError(), "launch of the persistent strip kernel");
  update->kernel<<<static_cast<unsigned>(grid - strip_blocks), static_cast<unsigned>(workers * threads),
                   update->shared_bytes, update_stream>>>(b);
  check(cudaGetLastError(), "launch of the persistent update kernel");
  launch_lock.unlock();
  check(cudaStreamSynchronize(strip_stream), "the persistent band factorisation's strips");
  check(cudaStreamSynchronize(update_stream), "the persistent band factorisation's updates");

  std::vector<int> info(columns + stall_record);  // and the stall record
  copy_bytes_to_host(info.data(), b.info, info.size() * sizeof(int));
  if (info[columns] != 0) throw std::runtime_error(describe_stall(b, counts, info.data() + columns, strip_blocks));
  if (timed > 0) copy_bytes_to_host(times->data(), b.times, timed * sizeof(PersistentStepTimes));
  for (std::size_t k = 0; k < columns; ++k)
    if (info[k] > 0) throw NotPositiveDefinite(static_cast<index_t>(k) * tile + info[k] - 1);
}

}  // namespace fem::kernels::cuda
