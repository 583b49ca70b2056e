#include "bench/band/band_step_breakdown.hpp"

#include <cublas_v2.h>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "bench/band/band_test_matrix.hpp"
#include "kernels/cuda/band_cholesky_cuda.hpp"
#include "kernels/cuda/band_cholesky_persistent.hpp"
#include "kernels/cuda/block_column_cholesky.hpp"
#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/blas_handle.hpp"
#include "kernels/cuda/device_buffer.hpp"
#include "kernels/cuda/green_stream.hpp"
#include "kernels/cuda/row_major_cublas.hpp"
#include "kernels/cuda/solve_under_diagonal.hpp"
#include "kernels/cuda/stream_event.hpp"

namespace fem::bench {

namespace {

using kernels::cuda::check;

// Microseconds per call of `op`: the median over 5 rounds of `calls` calls between two events.
template <class Op>
double per_call_us(cudaStream_t stream, int calls, const Op& op) {
  using kernels::cuda::Event;
  Event start(Event::Timing::on), stop(Event::Timing::on);
  op();  // warm-up
  std::vector<double> us;
  for (int round = 0; round < 5; ++round) {
    start.record(stream);
    for (int c = 0; c < calls; ++c) op();
    stop.record(stream);
    us.push_back(1e6 * stop.seconds_since(start) / calls);
  }
  std::sort(us.begin(), us.end());
  return us[2];
}

}  // namespace

StepBreakdown time_step_parts(std::int64_t b, std::int64_t nb) {
  // The second step of a band: its block column applies the first one's update.
  const std::int64_t w = b + nb, rows = 2 * nb + b + 1;
  const kernels::cuda::DeviceBuffer<double> storage(static_cast<std::size_t>(rows * (w + 1)));
  double* band = storage.get();
  fill_band_on_device(band, 0, rows, b, w);
  const auto at = [&](std::int64_t i, std::int64_t j) { return band + i * w + j + w; };
  const kernels::cuda::Stream stream;
  const kernels::cuda::BlasHandle blas(stream);
  const kernels::cuda::BlockColumnScratch scratch;
  kernels::cuda::DeviceBuffer<int> pivot_flag(1);
  pivot_flag.zero();
  int* info = pivot_flag.get();
  kernels::BandLayout layout;
  layout.n = rows;
  layout.bandwidth = b;
  layout.block = nb;
  const bool fused = kernels::cuda::kernel_applies_previous_block(nb);
  const auto column = [&](std::int64_t c) { return kernels::cuda::step_block_column(layout, at(nb + c, nb + c), nb, c); };
  const int ld = static_cast<int>(w), next = static_cast<int>(std::min(nb, b)), rest = static_cast<int>(b - next),
            k = static_cast<int>(nb);
  StepBreakdown t;
  // Repeated on the same numbers, the factor turns into NaNs after the first call; the GPU takes
  // as long on them.
  t.first_kernel_us =
      per_call_us(stream, 50, [&] { kernels::cuda::block_column_cholesky(column(0), info, 0, scratch, stream); });
  t.panel_us = per_call_us(stream, 20, [&] {
    if (!fused) {  // the look-ahead: this step's block column updated by the one before
      check(kernels::cuda::syrk(blas, next, k, at(nb, 0), at(nb, nb), ld), "syrk");
      if (rest > 0) check(kernels::cuda::gemm_nt(blas, rest, next, k, at(nb + next, 0), at(nb, 0), at(nb + next, nb), ld), "gemm");
    }
    for (std::int64_t c = 0; c < nb; c += kernels::cuda::block_column_width)
      kernels::cuda::block_column_cholesky(column(c), info, 0, scratch, stream);
  });
  const int width = kernels::cuda::block_column_width;
  if (nb > width) {
    const int rows_past = static_cast<int>(nb + b) - 2 * width;  // under the next 64 columns' diagonal block
    t.next_update_us = per_call_us(stream, 50, [&] {
      check(kernels::cuda::syrk(blas, width, width, at(nb + width, nb), at(nb + width, nb + width), ld), "syrk");
      check(kernels::cuda::gemm_nt(blas, rows_past, width, width, at(nb + 2 * width, nb), at(nb + width, nb),
                                   at(nb + 2 * width, nb + width), ld),
            "gemm");
    });
    t.look_ahead_us = per_call_us(stream, 50, [&] {
      check(kernels::cuda::syrk(blas, width, k, at(nb, 0), at(nb, nb), ld), "syrk");
      check(kernels::cuda::gemm_nt(blas, static_cast<int>(b) - width, width, k, at(nb + width, 0), at(nb, 0),
                                   at(nb + width, nb), ld),
            "gemm");
    });
    t.thin_kernel_us = per_call_us(stream, 50, [&] {
      auto thin = column(0);
      thin.below = width;
      kernels::cuda::block_column_cholesky(thin, info, 0, scratch, stream);
    });
    t.solve_us = per_call_us(stream, 50, [&] {
      kernels::cuda::solve_under_diagonal(at(nb, nb), at(nb + width, nb), column(0).below, width, w, width, stream);
    });
    t.look_ahead_rest_us = per_call_us(stream, 20, [&] {
      check(kernels::cuda::syrk(blas, next - width, k, at(nb + width, 0), at(nb + width, nb + width), ld), "syrk");
      check(kernels::cuda::gemm_nt(blas, static_cast<int>(b) - next, next - width, k, at(nb + next, 0),
                                   at(nb + width, 0), at(nb + next, nb + width), ld),
            "gemm");
    });
  }
  if (rest > 0) {
    t.trailing_us = per_call_us(stream, 20, [&] {
      check(kernels::cuda::syrk(blas, rest, k, at(nb + next, 0), at(nb + next, nb + next), ld), "syrk");
    });
    try {
      const kernels::cuda::GreenStream green(32);
      const kernels::cuda::BlasHandle green_blas(green);
      t.trailing_green_us = per_call_us(green, 20, [&] {
        check(kernels::cuda::syrk(green_blas, rest, k, at(nb + next, 0), at(nb + next, nb + next), ld), "syrk");
      });
    } catch (const std::runtime_error&) {
      cudaGetLastError();  // no partition on this device: left at 0
    }
  }
  return t;
}

std::vector<UpdateRate> time_update_variants(std::int64_t b, std::int64_t nb, const std::vector<int>& spare_sms) {
  // X in the window's first nb columns, C right of it, as a step of the band holds them.
  const std::int64_t w = b + nb, rows = b + 1, n = b - nb;
  const kernels::cuda::DeviceBuffer<double> storage(static_cast<std::size_t>(rows * (w + 1)));
  double* band = storage.get();
  fill_band_on_device(band, 0, rows, b, w);
  const auto at = [&](std::int64_t i, std::int64_t j) { return band + i * w + j + w; };
  const double* x = at(nb, 0);
  double* c = at(nb, nb);
  const int ld = static_cast<int>(w), k = static_cast<int>(nb), size = static_cast<int>(n);
  const double flops = static_cast<double>(n) * static_cast<double>(n + 1) * static_cast<double>(nb);
  // The whole square, into a scratch matrix (above C's diagonal lie the band's other rows).
  const kernels::cuda::DeviceBuffer<double> square(static_cast<std::size_t>(n * n));
  std::vector<UpdateRate> rates;
  for (const int spare : spare_sms) {
    std::unique_ptr<kernels::cuda::GreenStream> green;
    const kernels::cuda::Stream own(0, cudaStreamNonBlocking);
    try {
      if (spare > 0) green = std::make_unique<kernels::cuda::GreenStream>(spare);
    } catch (const std::runtime_error&) {
      cudaGetLastError();  // no partition on this device
      continue;
    }
    const cudaStream_t stream = green ? static_cast<cudaStream_t>(*green) : static_cast<cudaStream_t>(own);
    const kernels::cuda::BlasHandle blas(stream);
    const double minus = -1, one = 1;
    const auto add = [&](const std::string& variant, double f, const auto& op) {
      const double us = per_call_us(stream, 20, op);
      rates.push_back({variant, spare, us, f / us * 1e-6});
    };
    add("syrk", flops, [&] { check(kernels::cuda::syrk(blas, size, k, x, c, ld), "syrk"); });
    add("syrkx", flops, [&] {
      check(cublasDsyrkx(blas, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T, size, k, &minus, x, ld, x, ld, &one, c, ld), "syrkx");
    });
    add("gemm (square, 2x flops)", 2.0 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(nb), [&] {
      check(cublasDgemm(blas, CUBLAS_OP_T, CUBLAS_OP_N, size, size, k, &minus, x, ld, x, ld, &one, square.get(), size),
            "gemm");
    });
  }
  return rates;
}

PersistentStepBreakdown time_persistent_steps(std::int64_t b, int walkers) {
  constexpr std::int64_t steps = 600;
  kernels::BandLayout layout;
  layout.n = 64 * steps;
  layout.bandwidth = b;
  layout.block = 64;
  const kernels::cuda::DeviceBuffer<double> storage(layout.elements()), other(walkers > 1 ? layout.elements() : 1);
  fill_band_on_device(storage.get(), 0, layout.n, b, layout.window());
  if (walkers > 1) fill_band_on_device(other.get(), 0, layout.n, b, layout.window());
  std::vector<kernels::cuda::PersistentStepTimes> times(steps);
  const kernels::cuda::PersistentGrid grid{kernels::cuda::persistent_blocks() / walkers};
  std::thread beside;
  if (walkers > 1) beside = std::thread([&] { kernels::cuda::factor_persistent(layout, other.get(), nullptr, grid); });
  kernels::cuda::factor_persistent(layout, storage.get(), &times, grid);
  if (beside.joinable()) beside.join();
  const std::int64_t reach = (b + 63) / 64;
  // Each part a list of its µs over the steps, then its median.
  enum Part {
    step, waited, counts_late, strip, loads, left_update, second_wait, second_half, first_slab, first_update,
    second_slab, flag, to_next, first_chain, second_chain, first_half_to_next, update_tasks, update_waited,
    update_held, parts
  };
  std::vector<double> us[parts], ghz;
  const auto add = [&](Part p, std::int64_t from, std::int64_t to) { us[p].push_back(1e-3 * static_cast<double>(to - from)); };
  for (std::int64_t k = reach + 1; k + reach + 2 < steps; ++k) {
    const auto& t = times[static_cast<std::size_t>(k)];
    const auto& next = times[static_cast<std::size_t>(k + 1)];
    add(step, t.strip_ready, next.strip_ready);
    add(waited, t.strip_taken, t.strip_ready);
    add(counts_late, times[static_cast<std::size_t>(k - 1)].strip_done, t.strip_counted);
    add(strip, t.strip_ready, t.strip_done);
    add(loads, t.strip_ready, t.strip_phases[0]);
    add(left_update, t.strip_phases[0], t.strip_phases[9]);
    add(second_wait, t.strip_phases[9], t.strip_half_ready);
    add(second_half, t.strip_half_ready, t.strip_phases[1]);
    add(first_slab, t.strip_phases[1], t.strip_phases[2]);
    add(first_update, t.strip_phases[2], t.strip_phases[3]);
    add(second_slab, t.strip_phases[3], t.strip_phases[4]);
    add(flag, t.strip_phases[4], t.strip_done);
    add(to_next, t.strip_done, next.strip_half_ready);
    add(first_half_to_next, t.strip_half_done, next.strip_ready);
    add(first_chain, t.strip_phases[1], t.strip_phases[7]);
    add(second_chain, t.strip_phases[3], t.strip_phases[8]);
    if (t.update_tasks > 0) {
      us[update_tasks].push_back(static_cast<double>(t.update_tasks));
      add(update_waited, 0, t.update_waited / t.update_tasks);
      add(update_held, 0, t.update_held / t.update_tasks);
    }
    if (t.strip_phases[4] > t.strip_phases[1])
      ghz.push_back(static_cast<double>(t.strip_phases[6] - t.strip_phases[5]) /
                    static_cast<double>(t.strip_phases[4] - t.strip_phases[1]));
  }
  const auto median_of = [](std::vector<double>& v) {
    if (v.empty()) return 0.0;
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
    return v[v.size() / 2];
  };
  const auto median = [&](Part p) { return median_of(us[p]); };
  PersistentStepBreakdown out;
  out.step_us = median(step);
  out.strip_waited_us = median(waited);
  out.counts_late_us = median(counts_late);
  out.strip_us = median(strip);
  out.strip_loads_us = median(loads);
  out.strip_left_update_us = median(left_update);
  out.strip_second_wait_us = median(second_wait);
  out.strip_second_half_us = median(second_half);
  out.strip_first_slab_us = median(first_slab);
  out.strip_first_update_us = median(first_update);
  out.strip_second_slab_us = median(second_slab);
  out.strip_flag_us = median(flag);
  out.to_next_us = median(to_next);
  out.first_half_to_next_us = median(first_half_to_next);
  out.first_chain_us = median(first_chain);
  out.second_chain_us = median(second_chain);
  out.clock_ghz = median_of(ghz);
  out.update_tasks = median(update_tasks);
  out.update_waited_us = median(update_waited);
  out.update_held_us = median(update_held);
  return out;
}

}  // namespace fem::bench
