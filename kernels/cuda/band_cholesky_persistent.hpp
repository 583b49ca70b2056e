#pragma once
// The band Cholesky factorisation as persistent kernels: no launch, event or stream between
// the steps. The band is cut into 64 x 64 tiles; its tasks are the strips of 32 rows under each
// diagonal block (each applies the two block columns before to the diagonal block and its strip,
// factors the diagonal block and solves its strip: the block column kernel's device code) and the
// rest of the trailing update, a few tiles of a block column a task, on the FP64 tensor cores.
// The blocks of one kernel take the strips and the workers of the other the updates, each in one
// order, a ticket each from a counter, and wait for the tasks a task reads by flags in device
// memory (one per strip, counting the halves of its columns stored; an update count per tile)
// instead of grid barriers. The next block column's strips need only this one's strips (its
// first half while it factors its second) and updates by earlier block columns, so the next
// diagonal block is factored (look-ahead) while the rest of the trailing update runs. The two
// kernels run at once, on multiprocessors of their own.
//
// Plain C++ (the kernels: band_cholesky_persistent.cu).
#include <cstdint>
#include <vector>

#include "kernels/band_layout.hpp"

namespace fem::kernels::cuda {

// When the strip just under diagonal block k (the first strip of block column k: it applies
// block column k - 1, factors the diagonal block and solves its rows) was taken, found the
// update counts it needs met, became ready (block column k - 1's strips done too) and ended, in
// ns of the device's global timer, for the first steps of a factorisation (ready: block column
// k - 1's first halves stored, its strips' first slab of columns; half ready: all stored); when
// its own first half was stored; with the ends of its first half's loads, of the left update of
// its first slab's columns, of that slab's factorisation (with the second slab's left update
// beside it), of that slab's update of the columns right of it and of the second slab; its
// multiprocessor's clock (cycles) at the second and the fifth of these; the ends of the two
// slabs' pivot chains (their producer warps); and the end of the first half's left update.
struct PersistentStepTimes {
  std::int64_t strip_taken = 0, strip_counted = 0, strip_ready = 0, strip_half_ready = 0, strip_half_done = 0,
               strip_done = 0;
  // first half loaded, left update applied, first slab factored, applied right of it, all
  // factored; the clock at the second and the fifth; the first and the second slab's chains
  // done; the first half applied
  std::int64_t strip_phases[10] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  // The update tasks of group k (block column k - 1's updates): how many, and summed over them
  // the ns from their ticket until their inputs were there and until their flags moved.
  std::int64_t update_tasks = 0, update_waited = 0, update_held = 0;
};

// How the kernels' grids are made: every block resident at once (they wait on one another by
// flags), a block a multiprocessor. The strips run in a kernel of their own (255 registers a
// thread: one block of 256 threads fills a multiprocessor; built for two, at most 128 registers,
// it spilled and every case ran slower, alone and two side by side), the updates in another whose blocks
// each hold `update_workers` workers of 256 threads (fewer registers: 2 or 3 fit where one strip
// block does), each taking update tasks by itself.
struct PersistentGrid {
  int max_blocks = 0;      // at most this many blocks of both kernels, a multiprocessor each (0: all)
  int strip_blocks = 0;    // of which this many take the strips (0: the split by the work)
  int update_workers = 0;  // workers an update block: 1 (4 tiles a task), 2 or 3 (1 tile a task); 0: 2
};

// Factors in place the band in device memory (layout.n rows of layout.pitch() entries from
// `rows`; layout.block at least 64: the kernel's tiles are 64 columns wide whatever it is).
// Throws NotPositiveDefinite naming the first equation whose pivot is not positive. With
// `times`, fills it with the first times->size() steps' times. The kernels run on streams of
// their own, after the default stream's work so far: two factorisations from two host threads,
// each with at most half of persistent_blocks(), run side by side (a grid that could not be
// resident beside the other's would wait for it, its blocks spinning on flags: never more than
// the device holds in all). Nothing may wait for the whole device meanwhile (a cudaFree does): a
// factorisation's second launch would wait behind it while its first kernel spins. So the flags'
// device memory is kept for the next call, never freed, and taken (maybe allocated) with the two
// launches under a lock (band_cholesky_persistent.cu).
void factor_persistent(const BandLayout& layout, double* rows, std::vector<PersistentStepTimes>* times = nullptr,
                       const PersistentGrid& grid = {});

// The blocks of both kernels the device holds at once (their grids together without a cap: a
// block a multiprocessor).
int persistent_blocks();

}  // namespace fem::kernels::cuda
