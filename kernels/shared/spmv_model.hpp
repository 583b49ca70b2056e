#pragma once
// A performance model of SpMV formats: the bytes one product y = A x moves in each layout, from
// the matrix's row statistics alone, divided by the bandwidth the device's kernel reaches. It
// ranks a device's candidate settings so that only the first few need timing (spmv_autotune).
// Any sparse matrix: the statistics say whether blocks, diagonals or even rows are there.
#include <string>
#include <vector>

#include "kernels/shared/sparse_formats.hpp"

namespace fem::kernels {

// The storage layouts the model knows; a device's formats map onto them.
enum class SpmvLayout { Csr, Ell, Sell, Hyb, Bcsr, Bell, Dia, Cds };

// One setting a device could run, as the model sees it.
struct SpmvCandidate {
  std::string setting;      // the device's own text for it ("bell/b256", "csr/wg128/r8")
  SpmvLayout layout = SpmvLayout::Csr;
  int lanes = 1;            // Csr, Bcsr: work-items sharing one (block) row
  double efficiency = 0.8;  // the fraction of the stream bandwidth this kernel reaches on the bytes it moves
};

struct ModelEstimate {
  SpmvCandidate candidate;
  double bytes = 0;    // one product's traffic in the candidate's layout
  double seconds = 0;  // predicted per product; +inf where the layout does not apply
};

// Bytes one product moves in `layout`: the stored matrix read once (up to each row's end in the
// padded layouts, a warp of 32 rows reading as far as its longest), x read once and y written.
// +inf where the layout refuses the matrix (padding over `limit`, rows not in 3x3 blocks).
double spmv_bytes(const RowStats& stats, SpmvLayout layout, const PaddingLimit& limit = {});

// How well a team of `lanes` work-items per row (per block row in Bcsr) uses the bandwidth, in
// (0, 1]: the share of its lane steps that load an entry (lanes idle at a row's end are lost),
// with steps slowed where one lane reads many values of a row in sequence (long rows, small teams).
double team_use(const RowStats& stats, SpmvLayout layout, int lanes);

// Work-items one product runs in `layout`: a team of `lanes` per row (Csr) or block row (Bcsr),
// one per block row (Bell, Cds), one per row otherwise.
double spmv_threads(const RowStats& stats, SpmvLayout layout, int lanes);

// The candidates with their predicted times, fastest first (ties keep the given order); those
// whose layout does not apply come last with +inf. `bandwidth` in bytes per second;
// `saturating_threads`: the work-items a device needs in flight to reach it (0: not limiting).
// With fewer, a kernel reaches the square root of their share: one thread per block row of a
// small matrix leaves most of a large GPU idle.
std::vector<ModelEstimate> rank_by_model(const RowStats& stats, const std::vector<SpmvCandidate>& candidates,
                                         double bandwidth, double saturating_threads = 0);

}  // namespace fem::kernels
