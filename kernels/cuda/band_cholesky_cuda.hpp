#pragma once
// The blocked band Cholesky on one CUDA device. The panel (a block column: its diagonal block and
// the rows under it) is a chain of dependent launches that sets the pace, so it runs on a
// high-priority stream by the project's block column kernel (PanelMethod says how), while the rest
// of the trailing window, one cuBLAS SYRK a step, runs on a second stream, possibly on a green
// context of part of the device so that the panel's launches find multiprocessors free
// (DeviceSchedule). The pivot flags stay on the device and are read once at the end: the host
// never waits inside the loop. Bands larger than the device memory stream through two buffers
// of C + kd rows that take turns. The solver glue is solvers/direct/band_cholesky_solver.cpp.
#include <cstddef>
#include <vector>

#include "kernels/band_layout.hpp"
#include "kernels/device_matrix.hpp"

namespace fem::kernels::cuda {

// How a step's block column is factored (see above).
enum class PanelMethod {
  left_looking_kernels,   // the block column kernel every 64 columns, each applying the columns left of it
  right_looking_kernels,  // the block column kernel every 64 columns, the columns right of it updated by cuBLAS
  right_looking_ahead,    // the same, but only the next kernel's columns updated before it (by the block column
                          // before, then by each kernel), the others on a side stream beside it
  right_looking_solve,    // right_looking_ahead with each kernel factoring its diagonal block and solving only the
                          // next one's rows (two thread blocks), solve_under_diagonal solving the other rows and
                          // updating the next kernel's columns. (On all the rows, every thread block of the kernel
                          // factors the diagonal block again for its 32 rows: over a wide band it holds every
                          // multiprocessor, one a thread block, while the trailing SYRK waits.) Double only; float
                          // factors as right_looking_ahead
};

struct DeviceSchedule {
  PanelMethod panel = PanelMethod::left_looking_kernels;
  // Multiprocessors kept from the trailing SYRK for the panel: the update stream then runs in a
  // green context of the others (GreenStream). 0: one device for both, the panel's kernels
  // waiting for the SYRK's blocks to leave. (cuBLAS's SM count target, a hint to its choice of
  // kernels, changed nothing.)
  int panel_sms = 0;
  // Factorisations running at once (from several host threads) may each keep their trailing SYRK
  // to its own share of the multiprocessors the panels leave: share update_part of update_parts
  // equal ones (with update_parts > 1, a green context even where panel_sms is 0). With the
  // default, every factorisation's SYRK may use them all.
  int update_part = 0;
  int update_parts = 1;
  // The trailing update waits for the look-ahead (the next block column updated by this one, on the
  // panel and side streams): the look-ahead, on the chain from one block column to the next, finds
  // the device free instead of behind the trailing update's first wave (where the panel's
  // kernels do not apply it themselves).
  bool trailing_after_look_ahead = false;
};

// The schedule factor_on_device and factor_streamed use for `layout` (chosen by measurement: see
// the .cpp); `beside_another`: for one of two factorisations at once (the two-sided
// walkers), whose panels each hide behind the other's trailing update.
DeviceSchedule device_schedule(const BandLayout& layout, bool beside_another = false);

// Factors in place the band in device memory (layout.n rows of layout.pitch() entries from
// `rows`, as the `cublas` dense back-end holds it), after the work queued before it on the
// default stream. Throws NotPositiveDefinite naming the first equation whose pivot is not
// positive. Calls from several host threads on different bands run at once on the device: each
// has its own streams, cuBLAS handles and scratch, and none waits for another's work (but
// returning, each waits for the device to be idle once: cuBLAS's handles are released so).
template <class T>
void factor_on_device(const BandLayout& layout, T* rows);
template <class T>
void factor_on_device(const BandLayout& layout, T* rows, const DeviceSchedule& schedule);

// When step k's work ran on the device, in ms from the factorisation's start (CUDA events): the
// trailing SYRK of its window (update stream) and, beside it, the next block column's look-ahead
// update and factorisation (panel stream); and when the host had queued it (host clock, from
// about the same start). Steps without a trailing window are left at 0.
struct ChainStepTimes {
  float trailing_start = 0, trailing_end = 0, panel_start = 0, panel_end = 0;
  float queued = 0;
  // right_looking_solve in double: on the panel stream, when the look-ahead's update of the next
  // block column's first 64 columns ended, then for each block column kernel when it ended, when
  // the side stream's update of the columns its solve updates was done, and when the solve ended
  // (NaN for the kernels a short block column does not have).
  std::vector<float> panel_marks;
};

// factor_on_device, timing each step (for `fem bench band --breakdown`; the events cost a little).
template <class T>
std::vector<ChainStepTimes> factor_on_device_timed(const BandLayout& layout, T* rows, const DeviceSchedule& schedule);

// Factors in place the band in host memory (layout.n rows of layout.pitch() entries), using at
// most `device_bytes` of device memory for the band's rows. Returns the number of chunks the
// band went through the device in. Throws NotPositiveDefinite as above, and
// std::invalid_argument when `device_bytes` is below min_streaming_bytes.
template <class T>
int factor_streamed(const BandLayout& layout, T* host_rows, std::size_t device_bytes);

// Rows of block columns factored per chunk when streaming through `device_bytes` (a multiple
// of the block size; below it, the budget is too small): each of the two buffers holds them
// plus the half-bandwidth rows they update.
index_t chunk_rows(const BandLayout& layout, std::size_t device_bytes, std::size_t element_bytes);

// Device memory for streaming: the smallest amount factor_streamed accepts for `layout` and
// elements of `element_bytes` (one block column a chunk).
std::size_t min_streaming_bytes(const BandLayout& layout, std::size_t element_bytes);

}  // namespace fem::kernels::cuda
