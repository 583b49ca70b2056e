#pragma once
// The band Cholesky factorisation as one persistent kernel: no launch, event or stream between
// the steps. The band is cut into 64 x 64 tiles; its tasks are the strips of 32 rows under each
// diagonal block (each applies the two block columns before to the diagonal block and its strip,
// factors the diagonal block and solves its strip: the block column kernel's device code) and the
// rest of the trailing update, two tiles of a block column a task, on the FP64 tensor cores. The
// blocks of the kernel take the tasks in one order, some blocks the strips and the others the
// updates, a ticket each from a counter, and wait for the tasks a task reads by flags in device
// memory (one per strip, counting the halves of its columns stored; an update count per tile)
// instead of grid barriers. The next block column's strips need only this one's strips (its
// first half while it factors its second) and updates by earlier block columns, so the next
// diagonal block is factored (look-ahead) while the rest of the trailing update runs.
//
// Plain C++ (the kernel: band_cholesky_persistent.cu).
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
};

// How the kernel's grid is made: every block resident at once (they wait on one another by flags).
// (The kernel takes 255 registers a thread, so the H100 holds one block a multiprocessor; built
// for two, at most 128 registers, it spilled and every case ran slower, alone and two side by
// side: bench/RESULTS.md, "Two-sided (twisted) band Cholesky on the GPU", round 3.)
struct PersistentGrid {
  int max_blocks = 0;     // at most this many blocks (0: as many as the device holds)
  int strip_blocks = 0;   // of which this many take the strips (0: the split by the work)
};

// Factors in place the band in device memory (layout.n rows of layout.pitch() entries from
// `rows`; layout.block at least 64: the kernel's tiles are 64 columns wide whatever it is).
// Throws NotPositiveDefinite naming the first equation whose pivot is not positive. With
// `times`, fills it with the first times->size() steps' times. The kernel runs on a stream of
// its own, after the default stream's work so far: two factorisations from two host threads,
// each with at most half of persistent_blocks(), run side by side (a grid that could not be
// resident beside the other's would wait for it, its blocks spinning on flags: never more than
// the device holds in all).
void factor_persistent(const BandLayout& layout, double* rows, std::vector<PersistentStepTimes>* times = nullptr,
                       const PersistentGrid& grid = {});

// The blocks of the kernel the device holds at once (its grid without a cap).
int persistent_blocks();

}  // namespace fem::kernels::cuda
