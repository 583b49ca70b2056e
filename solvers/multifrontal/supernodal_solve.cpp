#include "solvers/multifrontal/supernodal_solve.hpp"

#include <stdexcept>

namespace fem::multifrontal {

namespace {

// The sweeps for `Fixed` right-hand sides known at compile time (one: the sums stay in registers)
// or, with Fixed = 0, for `count` of them.
template <class T, int Fixed>
void sweep(const SymbolicFactor& f, const T* panels, DevicePart<T>* device, std::vector<T>& x, std::int64_t count) {
  const std::int64_t r = Fixed > 0 ? Fixed : count;
  // Accumulate in double whatever the factor's precision: the refinement needs its best.
  std::vector<double> runtime_sum(Fixed > 0 ? 0 : r);
  double fixed_sum[Fixed > 0 ? Fixed : 1];
  double* __restrict sum = Fixed > 0 ? fixed_sum : runtime_sum.data();
  for (std::int32_t s = 0; s < f.supernodes(); ++s) {
    if (f.on_device[s]) continue;  // its descendants may be on the host, never its ancestors
    const std::int64_t k = f.columns(s), m = f.front(s);
    const T* l = panels + f.panel_offset[s];  // row i of the front at l + i * k
    const std::int32_t* rows = f.rows.data() + f.row_offset[s];
    T* __restrict own = x.data() + f.first[s] * r;
    for (std::int64_t i = 0; i < k; ++i) {  // L11 Y = B
      for (std::int64_t c = 0; c < r; ++c) sum[c] = own[i * r + c];
      for (std::int64_t j = 0; j < i; ++j) {
        const double lij = l[i * k + j];
        for (std::int64_t c = 0; c < r; ++c) sum[c] -= lij * own[j * r + c];
      }
      for (std::int64_t c = 0; c < r; ++c) own[i * r + c] = static_cast<T>(sum[c] / l[i * k + i]);
    }
    for (std::int64_t i = k; i < m; ++i) {  // B_below -= L21 Y
      for (std::int64_t c = 0; c < r; ++c) sum[c] = 0;
      for (std::int64_t j = 0; j < k; ++j) {
        const double lij = l[i * k + j];
        for (std::int64_t c = 0; c < r; ++c) sum[c] += lij * own[j * r + c];
      }
      T* below = x.data() + static_cast<std::int64_t>(rows[i]) * r;
      for (std::int64_t c = 0; c < r; ++c) below[c] -= static_cast<T>(sum[c]);
    }
  }
  if (device) device->substitute(x);
  for (std::int32_t s = f.supernodes() - 1; s >= 0; --s) {
    if (f.on_device[s]) continue;
    const std::int64_t k = f.columns(s), m = f.front(s);
    const T* l = panels + f.panel_offset[s];
    const std::int32_t* rows = f.rows.data() + f.row_offset[s];
    T* __restrict own = x.data() + f.first[s] * r;
    for (std::int64_t i = k; i < m; ++i) {  // Y -= L21ᵀ X_below, row by row
      const T* below = x.data() + static_cast<std::int64_t>(rows[i]) * r;
      for (std::int64_t j = 0; j < k; ++j) {
        const T lij = l[i * k + j];
        for (std::int64_t c = 0; c < r; ++c) own[j * r + c] -= lij * below[c];
      }
    }
    for (std::int64_t i = k - 1; i >= 0; --i) {  // L11ᵀ X = Y, column i of L11ᵀ is row i of L11
      for (std::int64_t c = 0; c < r; ++c) own[i * r + c] /= l[i * k + i];
      for (std::int64_t j = 0; j < i; ++j) {
        const T lij = l[i * k + j];
        for (std::int64_t c = 0; c < r; ++c) own[j * r + c] -= lij * own[i * r + c];
      }
    }
  }
}

}  // namespace

template <class T>
void substitute(const SymbolicFactor& f, const T* panels, DevicePart<T>* device, std::vector<T>& x, int count) {
  if (device && count != 1) throw std::logic_error("multifrontal: the device part substitutes one vector at a time");
  if (count == 1) sweep<T, 1>(f, panels, device, x, 1);
  else sweep<T, 0>(f, panels, device, x, count);
}

template void substitute<double>(const SymbolicFactor&, const double*, DevicePart<double>*, std::vector<double>&, int);
template void substitute<float>(const SymbolicFactor&, const float*, DevicePart<float>*, std::vector<float>&, int);

}  // namespace fem::multifrontal
