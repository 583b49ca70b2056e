#pragma once
// The device part of the multifrontal factorisation (method multifrontal on device cuda): the
// supernodes of symbolic.schedule.device, the large fronts and every one above them, assembled
// and eliminated on the device through its back-end's FrontKernels (multifrontal_kernels.hpp)
// once the host has factorised the subtrees below them. An update matrix made on the device stays there until its parent has
// added it in; those of the host's subtrees go up once each. The original entries of all device
// fronts go up in one transfer before the first front. The panels stay on the device, where the
// substitution sweeps over them (factor.device); only their pivots come back, to be watched.
#include <cstdint>

#include "kernels/csr_matrix.hpp"
#include "solvers/multifrontal/multifrontal_kernels.hpp"
#include "solvers/multifrontal/numeric_factorisation.hpp"
#include "solvers/multifrontal/symbolic_analysis.hpp"

namespace fem::multifrontal {

// The fronts the breakdown calls large: of 1e10 flops and more (some 3,000 rows and more), those
// whose rate is the device's dense rate, which the issue measures against DGEMM.
constexpr double kLargeFrontFlops = 1e10;

struct DeviceFigures {
  std::int64_t fronts = 0;
  double flops = 0;
  double seconds = 0;           // from the first upload until the last front is eliminated
  double elimination_s = 0;     // the device's time in the fronts' eliminations (CUDA events)
  std::int64_t large_fronts = 0;  // of kLargeFrontFlops and more: their count, flops and elimination time
  double large_flops = 0, large_s = 0;
  // ... split into their panels (L11 and L21: POTRF and TRSM's work) and update matrices (SYRK's)
  double large_panel_flops = 0, large_panel_s = 0, large_update_flops = 0, large_update_s = 0;
  std::int64_t peak_bytes = 0;  // device memory held at once
  std::int64_t estimate_bytes = 0;  // ... as predicted from the pattern before any allocation
  std::int64_t upload_bytes = 0;
};

// Finishes `factor` (whose host part factorise() has made, keeping the updates bound for the
// device): its device part and its smallest pivot. Throws SolveFailure naming the equation whose
// pivot is not positive. `symbolic` must outlive the factor.
template <class T>
DeviceFigures factorise_on_device(const MultifrontalKernels& kernels, const SymbolicFactor& symbolic,
                                  const CsrMatrix& matrix, NumericFactor<T>& factor);

}  // namespace fem::multifrontal
