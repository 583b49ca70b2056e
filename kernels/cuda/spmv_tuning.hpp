#pragma once
// Choosing a CUDA SpMV format and launch parameters for `spmv: auto`: the device's settings as the
// model sees them (kernels/shared/spmv_model.hpp), and the tuner that times the best-ranked few on a
// sample and remembers the winner (kernels/shared/spmv_autotune.hpp), then puts the whole matrix on
// the device in it.
#include <memory>
#include <string>
#include <vector>

#include "kernels/shared/spmv_autotune.hpp"
#include "kernels/cuda/spmv_cuda.hpp"

namespace fem::kernels::cuda {

// Every setting the tuner may pick (default launch parameters), each with the share of the
// stream bandwidth its kernel reached, in the bytes it moves, on the GPU it was measured on
// (bench/results/2026-11-23-spmv-pcg.md).
std::vector<SpmvCandidate> cuda_candidates();
// The model's first pick for these statistics on the current device: no timing.
SpmvSetting model_setting(const RowStats& stats);

// The current device as the tuning cache knows it: "<name>, CUDA driver <version>".
std::string device_identity();
// The current device's peak memory bandwidth (bytes/s) from its memory clock and bus width; 0 when unknown.
double device_bandwidth();
// Threads the current device needs in flight to stream at that rate: a quarter of what its
// multiprocessors hold; 0 when unknown.
double device_saturating_threads();

struct TuningReport {
  SpmvAutotuneResult choice;
  std::shared_ptr<DeviceSpmv> matrix;  // the whole matrix on the device in the chosen setting
  double convert_seconds = 0;          // converting and uploading it (as any fixed setting would)
};

// Picks the setting for `a` (`tuning`: the cache, fresh timing or the model alone) and puts `a`
// on the device in it. A chosen format that refuses the whole matrix gives way to the next in rank.
TuningReport tune_spmv(const CsrMatrix& a, SpmvTuning tuning);

}  // namespace fem::kernels::cuda
