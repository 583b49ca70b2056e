#include "solvers/multifrontal/supernodal_solve.hpp"

namespace fem::multifrontal {

using kernels::DeviceMatrix;
using kernels::Op;
using kernels::Side;

template <class T>
void substitute(const SymbolicFactor& f, const T* panels, std::vector<T>& x, kernels::DenseBackend& dense) {
  std::vector<T> below(static_cast<std::size_t>(f.front_max));
  const auto views = [&](std::int32_t s, DeviceMatrix<T>& pivots, DeviceMatrix<T>& rest, DeviceMatrix<T>& own,
                         DeviceMatrix<T>& gathered) {
    const std::int64_t k = f.columns(s), m = f.front(s);
    const DeviceMatrix<T> panel = dense.wrap(const_cast<T*>(panels + f.panel_offset[s]), m, k, k);
    pivots = panel.block(0, 0, k, k);
    rest = panel.block(k, 0, m - k, k);
    own = dense.wrap(x.data() + f.first[s], k, 1, 1);
    gathered = dense.wrap(below.data(), m - k, 1, 1);
  };
  DeviceMatrix<T> pivots, rest, own, gathered;
  for (std::int32_t s = 0; s < f.supernodes(); ++s) {
    const std::int64_t k = f.columns(s), r = f.front(s) - k;
    const std::int32_t* rows = f.rows.data() + f.row_offset[s] + k;
    views(s, pivots, rest, own, gathered);
    dense.trsm(Side::left, Op::none, pivots, own);
    if (r == 0) continue;
    dense.gemm(Op::none, Op::none, T(1), rest, own, T(0), gathered);
    for (std::int64_t i = 0; i < r; ++i) x[rows[i]] -= below[i];
  }
  for (std::int32_t s = f.supernodes() - 1; s >= 0; --s) {
    const std::int64_t k = f.columns(s), r = f.front(s) - k;
    const std::int32_t* rows = f.rows.data() + f.row_offset[s] + k;
    views(s, pivots, rest, own, gathered);
    if (r > 0) {
      for (std::int64_t i = 0; i < r; ++i) below[i] = x[rows[i]];
      dense.gemm(Op::transpose, Op::none, T(-1), rest, gathered, T(1), own);
    }
    dense.trsm(Side::left, Op::transpose, pivots, own);
  }
}

template void substitute<double>(const SymbolicFactor&, const double*, std::vector<double>&, kernels::DenseBackend&);
template void substitute<float>(const SymbolicFactor&, const float*, std::vector<float>&, kernels::DenseBackend&);

}  // namespace fem::multifrontal
