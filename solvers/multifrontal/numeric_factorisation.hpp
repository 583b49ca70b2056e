#pragma once
// The multifrontal numeric factorisation: supernode by supernode in postorder, a front is
// assembled from the original entries of its columns and its children's update matrices
// (extend-add), its pivots are eliminated with the dense kernels (POTRF, TRSM, SYRK), its first
// columns stay as the factor panel and the rest of the front goes to the parent as an update
// matrix. Independent subtrees run as OpenMP tasks; the fronts above them use every thread
// inside BLAS.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "kernels/dense_backend.hpp"
#include "kernels/csr_matrix.hpp"
#include "solvers/multifrontal/symbolic_analysis.hpp"
#include "solvers/progress_meter.hpp"

namespace fem::multifrontal {

// The part of a factor held on a device (device_factorisation.hpp): the substitution's sweeps
// over its supernodes run there.
template <class T>
class DevicePart {
 public:
  virtual ~DevicePart() = default;
  // Between the host's sweeps: the forward then the backward sweep over the device supernodes,
  // on x in the elimination order.
  virtual void substitute(std::vector<T>& x) = 0;
};

template <class T>
struct NumericFactor {
  std::unique_ptr<T[]> panels;              // supernode s at symbolic.panel_offset[s], row-major
  std::int64_t update_peak_entries = 0;     // update-matrix entries alive at once, as measured
  // The smallest pivot relative to its equation's original diagonal, and that equation (original
  // numbering): where a singular system shows.
  double smallest_pivot_ratio = std::numeric_limits<double>::infinity();
  std::int32_t smallest_pivot_equation = -1;
  // By supernode: the update matrices of the host supernodes whose parent is left to the device
  // (symbolic.schedule.device), which the device part adds in and frees; empty elsewhere.
  std::vector<std::unique_ptr<T[]>> device_bound_updates;
  // The panels of symbolic.schedule.device, on the device (null when there are none): `panels`
  // leaves them unset.
  std::unique_ptr<DevicePart<T>> device;
};

// The supernodes on the host (all but symbolic.schedule.device, which the panels leave to be
// filled in). Throws SolveFailure naming the equation (original numbering) whose pivot is not positive.
// `dense` must compute in host memory (it wraps the panels in place). `progress` (none when
// null) hears the fronts done and their share of the flops.
template <class T>
NumericFactor<T> factorise(const SymbolicFactor& symbolic, const CsrMatrix& matrix, kernels::DenseBackend& dense,
                           ProgressMeter* progress = nullptr);

}  // namespace fem::multifrontal
