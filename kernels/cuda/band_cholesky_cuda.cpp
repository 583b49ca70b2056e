#include "kernels/cuda/band_cholesky_cuda.hpp"

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <deque>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "kernels/cuda/blas_handle.hpp"
#include "kernels/cuda/block_column_cholesky.hpp"
#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/device_buffer.hpp"
#include "kernels/cuda/green_stream.hpp"
#include "kernels/cuda/row_major_cublas.hpp"
#include "kernels/cuda/solve_under_diagonal.hpp"
#include "kernels/cuda/stream_event.hpp"
#include "kernels/device_matrix.hpp"

namespace fem::kernels::cuda {

namespace {

int as_int(index_t v) {
  if (v > index_t{0x7fffffff}) throw std::invalid_argument("band Cholesky on CUDA: dimension " + std::to_string(v) + " exceeds 32 bits");
  return static_cast<int>(v);
}

// The update stream's green context keeping `panel_sms` multiprocessors out and taking its share
// of the others, or none where the schedule asks for neither or the driver cannot (the partition
// only speeds the factorisation up).
std::unique_ptr<GreenStream> green_stream_or_none(const DeviceSchedule& schedule) {
  if (schedule.panel_sms <= 0 && schedule.update_parts <= 1) return nullptr;
  try {
    return std::make_unique<GreenStream>(std::max(schedule.panel_sms, 0), schedule.update_part, schedule.update_parts);
  } catch (const std::runtime_error&) {
    cudaGetLastError();  // clear what the driver left
    return nullptr;
  }
}

// The steps of the factorisation on rows held in device memory. `update` is the stream the
// caller orders its own work on: factor_steps starts after what is queued there and what it
// queues there ends after all of its work. Its streams do not wait for the default stream (so
// that a factorisation in another host thread, starting, does not wait for this one's work):
// it waits there once, made, for the work queued before it (the band's fill, the scratch's zeros).
template <class T>
class Factorizer {
 public:
  Factorizer(const BandLayout& layout, const DeviceSchedule& schedule)
      : layout_(layout),
        schedule_(schedule),
        panel_(Stream::greatest_priority(), cudaStreamNonBlocking),
        green_(green_stream_or_none(schedule)),
        update_(green_ ? static_cast<cudaStream_t>(*green_) : static_cast<cudaStream_t>(own_update_)),
        panel_blas_(panel_),
        update_blas_(update_),
        info_(static_cast<std::size_t>((layout.n + layout.block - 1) / layout.block)) {
    Event queued_before;
    queued_before.record(cudaStreamLegacy);
    queued_before.wait_in(update_);
    check(cudaMemsetAsync(info_.get(), 0, steps() * sizeof(int), update_), "cudaMemsetAsync");
  }

  cudaStream_t update() const { return update_; }

  // From now on, each step's work is timed (steps_timed).
  void time_steps() {
    start_.emplace_back(Event::Timing::on);
    start_.back().record(update_);
    host_start_ = std::chrono::steady_clock::now();
    for (std::size_t k = 0; k < 4 * steps(); ++k) marks_.emplace_back(Event::Timing::on);
    if (solves_apart())
      for (std::size_t k = 0; k < panel_marks_a_step() * steps(); ++k) panel_marks_.emplace_back(Event::Timing::on);
    panel_marked_.assign(panel_marks_.size(), false);
    queued_.assign(steps(), 0);
    marked_.assign(steps(), false);
  }

  // After check_pivots: the times time_steps asked for.
  std::vector<ChainStepTimes> steps_timed() const {
    std::vector<ChainStepTimes> times(steps());
    const auto ms = [&](std::size_t k, int mark) {
      return static_cast<float>(1e3 * marks_[4 * k + static_cast<std::size_t>(mark)].seconds_since(start_.front()));
    };
    for (std::size_t k = 0; k < times.size(); ++k)
      if (marked_[k]) {
        times[k] = {ms(k, 0), ms(k, 1), ms(k, 2), ms(k, 3), queued_[k], {}};
        if (!panel_marks_.empty())
          for (std::size_t m = panel_marks_a_step() * k; m < panel_marks_a_step() * (k + 1); ++m)
            times[k].panel_marks.push_back(
                panel_marked_[m] ? static_cast<float>(1e3 * panel_marks_[m].seconds_since(start_.front())) : NAN);
      }
    return times;
  }

  // The steps whose first column is in [first, last) (first and last multiples of the block
  // size, or last = n), on `rows`, which holds the band's rows from r0 on (pitch() entries each)
  // and reaches every row those steps touch.
  void factor_steps(T* rows, index_t r0, index_t first, index_t last) {
    const index_t w = layout_.window();
    const int ld = as_int(w);
    const auto at = [&](index_t i, index_t j) { return rows + (i * w + j + w - r0 * (w + 1)); };
    rest_done_.record(update_);
    rest_done_.wait_in(panel_);
    factor_panel(at, first);
    panel_done_.record(panel_);
    for (index_t j = first; j < last; j += layout_.block) {
      const index_t size = std::min(layout_.block, layout_.n - j);
      const index_t below = std::min(layout_.bandwidth, layout_.n - j - size);
      if (below == 0) break;
      const index_t next = std::min(layout_.block, below);  // the next block column, inside this window
      panel_done_.wait_in(update_);
      rest_done_.wait_in(panel_);  // the next block column waits for the trailing SYRK of the step before
      // right_looking_ahead and _solve: the look-ahead of the next block column's first kernel on
      // the panel stream, of its other columns on the side stream beside that kernel.
      const bool split_look_ahead = schedule_.panel != PanelMethod::left_looking_kernels &&
                                    schedule_.panel != PanelMethod::right_looking_kernels && next > block_column_width;
      if (split_look_ahead) {
        panel_done_.wait_in(side_);
        rest_done_.wait_in(side_);
      }
      const std::size_t step = static_cast<std::size_t>(j / layout_.block);
      timed_step_ = step;
      mark(step, 2, panel_);
      // The next block column updated by this one (unless its kernels do that) ...
      const bool look_ahead_apart = !panel_applies_previous_block();
      if (look_ahead_apart) look_ahead(at, j, split_look_ahead);
      if (look_ahead_apart && schedule_.trailing_after_look_ahead) {
        look_ahead_done_.record(panel_);
        look_ahead_done_.wait_in(update_);
        if (split_look_ahead) side_done_.wait_in(update_);
      }
      // ... and the rest of the window, while the next block column is factored.
      mark(step, 0, update_);
      if (below > next)
        check(syrk(update_blas_, as_int(below - next), as_int(size), at(j + size + next, j),
                   at(j + size + next, j + size + next), ld),
              "syrk (trailing window)");
      mark(step, 1, update_);
      rest_done_.record(update_);
      if (j + size < last) {
        factor_panel(at, j + size);
        panel_done_.record(panel_);
      }
      mark(step, 3, panel_);
      if (!marks_.empty()) {
        marked_[step] = true;
        queued_[step] = std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - host_start_).count();
      }
    }
    // Join: the update stream ends after everything (the side stream's look-ahead of a block
    // column past `last` included: a streamed chunk's rows move on once this returns).
    side_done_.wait_in(panel_);
    panel_done_.record(panel_);
    panel_done_.wait_in(update_);
  }

  // The look-ahead of step j: the next block column updated by the block column at j, its first
  // kernel's columns on the panel stream; with `split`, its other columns on the side stream, the
  // second kernel's first (the first kernel's update of them waits for them alone).
  template <class At>
  void look_ahead(const At& at, index_t j, bool split) {
    const index_t size = std::min(layout_.block, layout_.n - j);
    const index_t next = std::min({layout_.block, layout_.bandwidth, layout_.n - j - size});
    const index_t first_kernel = split ? block_column_width : next;
    update_columns(panel_blas_, at, j, 0, size, size, size + first_kernel);
    panel_mark(0);
    if (!split) return;
    const index_t second = std::min<index_t>(next, 2 * block_column_width);
    update_columns(side_blas_, at, j, 0, size, size + first_kernel, size + second);
    side_next_done_.record(side_);
    update_columns(side_blas_, at, j, 0, size, size + second, size + next);
    side_done_.record(side_);
  }

  // Waits for the device; throws NotPositiveDefinite for the first step whose pivot failed.
  void check_pivots() {
    std::vector<int> info(steps());
    check(cudaMemcpyAsync(info.data(), info_.get(), steps() * sizeof(int), cudaMemcpyDeviceToHost, update_),
          "cudaMemcpyAsync (pivot flags)");
    check(cudaStreamSynchronize(update_), "the band factorisation");
    for (std::size_t k = 0; k < info.size(); ++k) {
      if (info[k] > 0) throw NotPositiveDefinite(static_cast<index_t>(k) * layout_.block + info[k] - 1);
    }
  }

 private:
  std::size_t steps() const { return static_cast<std::size_t>((layout_.n + layout_.block - 1) / layout_.block); }

  // Mark `mark` of step k, when timing.
  void mark(std::size_t k, int mark, cudaStream_t stream) {
    if (!marks_.empty()) marks_[4 * k + static_cast<std::size_t>(mark)].record(stream);
  }

  // right_looking_solve's panel, timed: the look-ahead's first kernel's columns updated, then for
  // each kernel its end, the side stream's update of the next kernel's columns waited for, and its
  // solve's end (ChainStepTimes::panel_marks), on the panel stream.
  std::size_t panel_marks_a_step() const {
    return 1 + 3 * static_cast<std::size_t>((layout_.block + block_column_width - 1) / block_column_width);
  }
  void panel_mark(std::size_t m) {
    if (panel_marks_.empty() || timed_step_ >= steps() || m >= panel_marks_a_step()) return;
    panel_marks_[panel_marks_a_step() * timed_step_ + m].record(panel_);
    panel_marked_[panel_marks_a_step() * timed_step_ + m] = true;
  }

  // right_looking_solve (in double: float takes right_looking_ahead).
  bool solves_apart() const { return std::is_same_v<T, double> && schedule_.panel == PanelMethod::right_looking_solve; }

  bool panel_applies_previous_block() const {
    return schedule_.panel == PanelMethod::left_looking_kernels && kernel_applies_previous_block(layout_.block);
  }

  // The block column at column j (diagonal block and panel below it), on the panel stream.
  template <class At>
  void factor_panel(const At& at, index_t j) {
    switch (schedule_.panel) {
      case PanelMethod::left_looking_kernels: return factor_panel_left_looking(at, j);
      case PanelMethod::right_looking_kernels: return factor_panel_right_looking(at, j, false);
      case PanelMethod::right_looking_ahead:
      case PanelMethod::right_looking_solve: return factor_panel_right_looking(at, j, true);
    }
  }

  // One block column kernel for every block_column_width columns, left-looking: each applies
  // the update of the columns of this block left of it (and of the block before, see
  // kernel_applies_previous_block).
  template <class At>
  void factor_panel_left_looking(const At& at, index_t j) {
    const index_t size = std::min(layout_.block, layout_.n - j);
    int* info = info_.get() + j / layout_.block;
    for (index_t c = 0; c < size; c += block_column_width)
      block_column_cholesky(step_block_column(layout_, at(j + c, j + c), j, c), info, static_cast<int>(c), scratch_,
                            panel_);
  }

  // One block column kernel for every block_column_width columns, with nothing left of it to
  // apply (that costs the kernel about 9 us a 64 columns at b = 4000): the later columns take
  // each one's update from cuBLAS. With `ahead`, only the next kernel's columns take it on the
  // panel stream; the columns past them take it on the side stream, beside that kernel. Every
  // update of a column happens on one stream at a time: the side stream's update of the columns
  // from s + 2 on by kernel s starts after kernel s, and the panel stream's update of columns
  // s + 2 by kernel s + 1 waits for it.
  template <class At>
  void factor_panel_right_looking(const At& at, index_t j, bool ahead) {
    const index_t size = std::min(layout_.block, layout_.n - j);
    int* info = info_.get() + j / layout_.block;
    for (index_t c = 0; c < size; c += block_column_width) {
      BlockColumn<T> column = step_block_column(layout_, at(j + c, j + c), j, c);
      column.left = 0;  // cuBLAS has already applied every column left of it
      const index_t next = c + column.width;
      if (solves_apart()) {
        // The kernel solves the next kernel's diagonal block rows; the solve of the others updates
        // that block's columns.
        const index_t rows_below = column.below, fused = std::min(size, next + block_column_width) - next;
        column.below = fused;
        block_column_cholesky(column, info, static_cast<int>(c), scratch_, panel_);
        const std::size_t kernel = static_cast<std::size_t>(c / block_column_width);
        panel_mark(1 + 3 * kernel);
        if (fused > 0) side_next_done_.wait_in(panel_);
        panel_mark(2 + 3 * kernel);
        if constexpr (std::is_same_v<T, double>)
          solve_under_diagonal(at(j + c, j + c), at(j + next, j + c), rows_below, column.width, layout_.window(),
                               static_cast<int>(fused), panel_);
        panel_mark(3 + 3 * kernel);
        update_past(at, j, c, column.width, next, ahead, true);
      } else {
        block_column_cholesky(column, info, static_cast<int>(c), scratch_, panel_);
        update_past(at, j, c, column.width, next, ahead, false);
      }
    }
  }

  // The columns from j + next on of the block column at j take the update of its columns
  // [j + c, j + c + w), just factored: with `ahead`, those of the next kernel on the panel
  // stream (unless `next_done`: the solve has done that), the others on the side stream (see
  // factor_panel_right_looking).
  template <class At>
  void update_past(const At& at, index_t j, index_t c, index_t w, index_t next, bool ahead, bool next_done) {
    const index_t end = std::min(layout_.block, layout_.n - j);
    const index_t past = ahead ? std::min(end, next + block_column_width) : end;
    if (ahead) {
      if (!next_done) side_next_done_.wait_in(panel_);
      if (past < end) {
        kernel_done_.record(panel_);
        kernel_done_.wait_in(side_);
        // The kernel after next updates [past, past + 64) first: those columns first, alone.
        const index_t urgent = std::min(end, past + block_column_width);
        update_columns(side_blas_, at, j, c, w, past, urgent);
        side_next_done_.record(side_);
        update_columns(side_blas_, at, j, c, w, urgent, end);
        side_done_.record(side_);
      }
    }
    if (!next_done) update_columns(panel_blas_, at, j, c, w, next, past);
  }

  // Once the columns [j + c, j + c + w) of the block column at j are factored and solved: the
  // columns [j + first, j + last) take their update (the diagonal part by SYRK, the rows below
  // by GEMM, down to the last row of that block column), on `blas`'s stream. With c = 0, w = the
  // block and first = the block: the look-ahead update of the next block column.
  template <class At>
  void update_columns(cublasHandle_t blas, const At& at, index_t j, index_t c, index_t w, index_t first,
                      index_t last) {
    if (first == last) return;
    const index_t size = std::min(layout_.block, layout_.n - j);
    const index_t below = std::min(layout_.bandwidth, layout_.n - j - size);
    const int ld = as_int(layout_.window());
    const T* b = at(j + first, j + c);
    check(syrk(blas, as_int(last - first), as_int(w), b, at(j + first, j + first), ld), "syrk (block column)");
    if (size + below > last)
      check(gemm_nt(blas, as_int(size + below - last), as_int(last - first), as_int(w), at(j + last, j + c), b,
                    at(j + last, j + first), ld),
            "gemm (block column)");
  }

  BandLayout layout_;
  DeviceSchedule schedule_;
  Stream panel_, side_{Stream::greatest_priority(), cudaStreamNonBlocking}, own_update_{0, cudaStreamNonBlocking};
  std::unique_ptr<GreenStream> green_;  // the update stream, when it runs on a partition of the device
  cudaStream_t update_;
  BlasHandle panel_blas_, update_blas_, side_blas_{side_};
  Event panel_done_, rest_done_, kernel_done_, side_done_, look_ahead_done_;
  // Recorded once the side stream has updated the 64 columns that the next solve's fused update
  // updates (the second kernel's look-ahead, then each kernel's update of the kernel after next):
  // the side stream does those first, before the rest of its work, so that the solve waits for
  // them alone (one chain's steps got shorter; two chains at once wait for the look-ahead instead).
  Event side_next_done_;
  DeviceBuffer<int> info_;  // per step: 0, or 1 + the column in its block whose pivot failed
  BlockColumnScratch scratch_;
  std::deque<Event> start_, marks_;    // time_steps: the start, and 4 marks a step (ChainStepTimes's order)
  std::vector<bool> marked_;           // ... the steps that recorded theirs
  std::chrono::steady_clock::time_point host_start_;  // ... and when they were queued, from here
  std::vector<float> queued_;
  std::deque<Event> panel_marks_;  // ... and right_looking_solve's panel_marks_a_step() a step
  std::vector<bool> panel_marked_;  // ... those recorded (NaN in ChainStepTimes::panel_marks otherwise)
  std::size_t timed_step_ = static_cast<std::size_t>(-1);  // the step whose panel is being queued
};

// Host memory pinned for asynchronous copies while alive (left pageable if pinning fails:
// the copies are then slower, not wrong).
class PinnedRange {
 public:
  PinnedRange(void* p, std::size_t bytes) : p_(p) {
    pinned_ = cudaHostRegister(p, bytes, cudaHostRegisterDefault) == cudaSuccess;
    if (!pinned_) cudaGetLastError();  // clear the failed registration
  }
  ~PinnedRange() {
    if (pinned_) cudaHostUnregister(p_);
  }
  PinnedRange(const PinnedRange&) = delete;
  PinnedRange& operator=(const PinnedRange&) = delete;

 private:
  void* p_;
  bool pinned_ = false;
};

}  // namespace

bool kernel_applies_previous_block(index_t block) { return block <= block_column_width; }

// As measured (bench/results/2026-11-26-band-gpu.md, 2026-11-27-band-gpu-wide.md): left-looking is
// the faster up to blocks of 128 (b <= 2000); above, right-looking with look-ahead in the block
// column, the trailing SYRK kept off 32 multiprocessors; from b = 3500, the panel's kernels
// factoring their diagonal blocks alone (right_looking_solve), which leaves the device to the
// trailing SYRK, 8 multiprocessors kept for the panel. (A tensor-core kernel for the panel's
// updates of 64 columns, faster alone, made the factorisation slower: its blocks took the trailing
// SYRK's multiprocessors.) Left-looking on blocks of 128, whose look-ahead is a cuBLAS SYRK and GEMM
// on the panel stream, the trailing SYRK waits for it; on wider blocks that made it slower, the
// trailing SYRK no longer beside the look-ahead's work.
DeviceSchedule device_schedule(const BandLayout& layout, bool beside_another) {
  DeviceSchedule schedule;
  // Beside another chain, the solve panel (two thread blocks a kernel, the rest of the rows by
  // solve_under_diagonal) from 256-column blocks: two chains hide each other's panels only with
  // the solve panel's two thread blocks a kernel (the look-ahead panel's kernels take the device).
  if (layout.block > 128 && (beside_another || layout.bandwidth >= 3500)) {
    schedule.panel = PanelMethod::right_looking_solve;
    schedule.panel_sms = layout.bandwidth >= 3500 ? 8 : 32;
  } else if (layout.block > 128) {
    schedule.panel = PanelMethod::right_looking_ahead;
    schedule.panel_sms = 32;
  } else {
    schedule.trailing_after_look_ahead = !kernel_applies_previous_block(layout.block);
  }
  return schedule;
}

template <class T>
BlockColumn<T> step_block_column(const BandLayout& layout, T* diagonal, index_t j, index_t c) {
  const index_t size = std::min(layout.block, layout.n - j);
  const index_t below = std::min(layout.bandwidth, layout.n - j - size);
  const index_t previous = j > 0 && kernel_applies_previous_block(layout.block) ? layout.block : 0;
  BlockColumn<T> column;
  column.diagonal = diagonal;
  column.ld = layout.window();
  column.width = static_cast<int>(std::min<index_t>(block_column_width, size - c));
  column.below = size - c - column.width + below;
  column.left = as_int(previous + c);
  column.bandwidth = layout.bandwidth;
  return column;
}

// A chunk's steps touch rows up to the bandwidth past its last column.
index_t chunk_rows(const BandLayout& layout, std::size_t device_bytes, std::size_t element_bytes) {
  const std::size_t row_bytes = static_cast<std::size_t>(layout.pitch()) * element_bytes;
  const index_t rows = static_cast<index_t>(device_bytes / (2 * row_bytes));
  return std::max<index_t>(0, rows - layout.bandwidth) / layout.block * layout.block;
}

std::size_t min_streaming_bytes(const BandLayout& layout, std::size_t element_bytes) {
  return 2 * static_cast<std::size_t>(layout.bandwidth + layout.block) * static_cast<std::size_t>(layout.pitch()) *
         element_bytes;
}

template <class T>
void factor_on_device(const BandLayout& layout, T* rows) {
  factor_on_device(layout, rows, device_schedule(layout));
}

template <class T>
void factor_on_device(const BandLayout& layout, T* rows, const DeviceSchedule& schedule) {
  if (layout.n == 0) return;
  Factorizer<T> f(layout, schedule);
  f.factor_steps(rows, 0, 0, layout.n);
  f.check_pivots();
}

template <class T>
std::vector<ChainStepTimes> factor_on_device_timed(const BandLayout& layout, T* rows, const DeviceSchedule& schedule) {
  if (layout.n == 0) return {};
  Factorizer<T> f(layout, schedule);
  f.time_steps();
  f.factor_steps(rows, 0, 0, layout.n);
  f.check_pivots();
  return f.steps_timed();
}

template <class T>
int factor_streamed(const BandLayout& layout, T* host_rows, std::size_t device_bytes) {
  const index_t n = layout.n, kd = layout.bandwidth, pitch = layout.pitch();
  if (n == 0) return 0;
  const index_t c = chunk_rows(layout, device_bytes, sizeof(T));  // rows of steps per chunk
  if (c < layout.block)
    throw std::invalid_argument("band Cholesky on CUDA: " + std::to_string(device_bytes) +
                                " bytes of device memory cannot stream a band of half-bandwidth " + std::to_string(kd) +
                                " and block " + std::to_string(layout.block) + " (it needs at least " +
                                std::to_string(min_streaming_bytes(layout, sizeof(T))) + ")");
  const index_t buffer_rows = std::min(n, c + kd);
  const std::size_t row_bytes = static_cast<std::size_t>(pitch) * sizeof(T);
  const PinnedRange pinned(host_rows, static_cast<std::size_t>(n) * row_bytes);
  const std::array<DeviceBuffer<T>, 2> buffer{DeviceBuffer<T>(static_cast<std::size_t>(buffer_rows * pitch)),
                                               DeviceBuffer<T>(static_cast<std::size_t>(buffer_rows * pitch))};
  Factorizer<T> f(layout, device_schedule(layout));
  const cudaStream_t main = f.update();
  Stream copy_in(0, cudaStreamNonBlocking), copy_out(0, cudaStreamNonBlocking);
  Event uploaded, moved, computed;
  std::array<Event, 2> downloaded;  // buffer b's finished rows are back on the host
  int chunks = 0;
  for (index_t base = 0; base < n; base += c, ++chunks) {
    T* x = buffer[chunks % 2].get();
    const T* y = buffer[(chunks + 1) % 2].get();
    const index_t held = std::min(buffer_rows, n - base);       // rows [base, base + held) on the device
    const index_t carried = chunks == 0 ? 0 : std::min(kd, held);  // still being updated, from the other buffer
    if (chunks >= 2) {
      downloaded[chunks % 2].wait_in(copy_in);
      downloaded[chunks % 2].wait_in(main);
    }
    moved.wait_in(copy_in);  // the last chunk's carried rows have left this buffer
    if (held > carried)
      check(cudaMemcpyAsync(x + carried * pitch, host_rows + (base + carried) * pitch,
                            static_cast<std::size_t>(held - carried) * row_bytes, cudaMemcpyHostToDevice, copy_in),
            "upload of band rows");
    uploaded.record(copy_in);
    if (carried > 0)
      check(cudaMemcpyAsync(x, y + c * pitch, static_cast<std::size_t>(carried) * row_bytes, cudaMemcpyDeviceToDevice, main),
            "move of the rows still being updated");
    moved.record(main);
    uploaded.wait_in(main);
    const index_t last = std::min(n, base + c);
    f.factor_steps(x, base, base, last);
    computed.record(main);
    computed.wait_in(copy_out);
    const index_t done = last == n ? held : last - base;  // the last chunk returns every row it holds
    check(cudaMemcpyAsync(host_rows + base * pitch, x, static_cast<std::size_t>(done) * row_bytes, cudaMemcpyDeviceToHost,
                          copy_out),
          "download of factored rows");
    downloaded[chunks % 2].record(copy_out);
  }
  check(cudaStreamSynchronize(copy_out), "download of factored rows");
  f.check_pivots();
  return chunks;
}

template BlockColumn<double> step_block_column(const BandLayout&, double*, index_t, index_t);
template BlockColumn<float> step_block_column(const BandLayout&, float*, index_t, index_t);
template void factor_on_device<double>(const BandLayout&, double*);
template void factor_on_device<float>(const BandLayout&, float*);
template void factor_on_device<double>(const BandLayout&, double*, const DeviceSchedule&);
template void factor_on_device<float>(const BandLayout&, float*, const DeviceSchedule&);
template std::vector<ChainStepTimes> factor_on_device_timed<double>(const BandLayout&, double*, const DeviceSchedule&);
template std::vector<ChainStepTimes> factor_on_device_timed<float>(const BandLayout&, float*, const DeviceSchedule&);
template int factor_streamed<double>(const BandLayout&, double*, std::size_t);
template int factor_streamed<float>(const BandLayout&, float*, std::size_t);

}  // namespace fem::kernels::cuda
