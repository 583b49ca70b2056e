#include "solvers/multifrontal/supernodal_solve.hpp"

namespace fem::multifrontal {

template <class T>
void substitute(const SymbolicFactor& f, const T* panels, DevicePart<T>* device, std::vector<T>& x) {
  // Accumulate in double whatever the factor's precision: the refinement needs its best.
  for (std::int32_t s = 0; s < f.supernodes(); ++s) {
    if (f.on_device[s]) continue;  // its descendants may be on the host, never its ancestors
    const std::int64_t k = f.columns(s), m = f.front(s);
    const T* l = panels + f.panel_offset[s];  // row i of the front at l + i * k
    const std::int32_t* rows = f.rows.data() + f.row_offset[s];
    T* own = x.data() + f.first[s];
    for (std::int64_t i = 0; i < k; ++i) {  // L11 y = b
      double sum = own[i];
      for (std::int64_t j = 0; j < i; ++j) sum -= static_cast<double>(l[i * k + j]) * own[j];
      own[i] = static_cast<T>(sum / l[i * k + i]);
    }
    for (std::int64_t i = k; i < m; ++i) {  // b_below -= L21 y
      double sum = 0;
      for (std::int64_t j = 0; j < k; ++j) sum += static_cast<double>(l[i * k + j]) * own[j];
      x[rows[i]] -= static_cast<T>(sum);
    }
  }
  if (device) device->substitute(x);
  for (std::int32_t s = f.supernodes() - 1; s >= 0; --s) {
    if (f.on_device[s]) continue;
    const std::int64_t k = f.columns(s), m = f.front(s);
    const T* l = panels + f.panel_offset[s];
    const std::int32_t* rows = f.rows.data() + f.row_offset[s];
    T* own = x.data() + f.first[s];
    for (std::int64_t i = k; i < m; ++i) {  // y -= L21ᵀ x_below, row by row
      const T xi = x[rows[i]];
      for (std::int64_t j = 0; j < k; ++j) own[j] -= l[i * k + j] * xi;
    }
    for (std::int64_t i = k - 1; i >= 0; --i) {  // L11ᵀ x = y, column i of L11ᵀ is row i of L11
      own[i] /= l[i * k + i];
      const T xi = own[i];
      for (std::int64_t j = 0; j < i; ++j) own[j] -= l[i * k + j] * xi;
    }
  }
}

template void substitute<double>(const SymbolicFactor&, const double*, DevicePart<double>*, std::vector<double>&);
template void substitute<float>(const SymbolicFactor&, const float*, DevicePart<float>*, std::vector<float>&);

}  // namespace fem::multifrontal
