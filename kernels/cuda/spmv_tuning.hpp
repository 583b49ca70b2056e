#pragma once
// Choosing a CUDA SpMV format and launch parameters for a matrix: a model from row-length
// statistics (no timing), and a tuner that times candidates on the matrix within a budget.
#include <memory>
#include <string>
#include <vector>

#include "kernels/cuda/spmv_cuda.hpp"

namespace fem::kernels::cuda {

// The model's pick from row statistics, no timing. Matrices of whole 3x3 blocks: CDS when few
// block diagonals hold them (fill <= 1.25), else BELL when block rows are near-uniform (longest
// <= 1.25 x mean), else BCSR with about one lane per block. Other matrices: DIA when few diagonals
// hold them (fill <= 1.8), SELL for near-uniform rows, vector CSR with mean/2 lanes per row
// otherwise.
SpmvSetting model_setting(const RowStats& stats);

// The settings the tuner tries: every format that applies (DIA and CDS only when their fill is
// at most 3), vector CSR and BCSR with 1..32 lanes per row.
std::vector<SpmvSetting> candidate_settings(const RowStats& stats);

struct TimedSetting {
  SpmvSetting setting;
  double seconds = 0;   // per SpMV; 0 when refused
  std::string refused;  // the refusal message of a format that does not fit
};

struct TuningReport {
  SpmvSetting best, model;
  double best_seconds = 0, model_seconds = 0;  // model_seconds: the model's pick as timed
  std::vector<TimedSetting> tried;
  double elapsed_seconds = 0;                  // conversions and timing together
  std::shared_ptr<DeviceSpmv> best_matrix;     // the matrix in the best setting, ready to use
};

// Times the model's pick and candidate_settings on `a`, a few SpMVs each, converting to each
// format once, then block sizes and register caps of the best; stops once `budget_seconds` are
// spent (the model's format always runs, so the budget is exceeded by at most one conversion).
TuningReport tune_spmv(const CsrMatrix& a, double budget_seconds);

}  // namespace fem::kernels::cuda
