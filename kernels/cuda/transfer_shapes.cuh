#pragma once
// The block shapes that the device's AMG transfer kernels (smoothed_transfer.cu,
// galerkin_product.cu) are instantiated for: B dofs per node and K near-null vectors, as AMG's fine
// levels have them (3D and 2D elasticity with their rigid-body modes, d dofs per node with their
// translations alone; heat: 1 x 1).
#include <stdexcept>
#include <string>
#include <type_traits>

namespace fem::kernels::cuda {

inline bool has_transfer_kernel(int b, int k) {
  return (b == 3 && (k == 6 || k == 3)) || (b == 2 && (k == 3 || k == 2)) || (b == 1 && k == 1);
}

// run(integral_constant B, integral_constant K) for the shape b x k; std::invalid_argument naming
// `what` for a shape without a kernel.
template <class Run>
void with_transfer_shape(int b, int k, const char* what, Run&& run) {
  using std::integral_constant;
  if (b == 3 && k == 6) return run(integral_constant<int, 3>{}, integral_constant<int, 6>{});
  if (b == 2 && k == 3) return run(integral_constant<int, 2>{}, integral_constant<int, 3>{});
  if (b == 1 && k == 1) return run(integral_constant<int, 1>{}, integral_constant<int, 1>{});
  if (b == 2 && k == 2) return run(integral_constant<int, 2>{}, integral_constant<int, 2>{});
  if (b == 3 && k == 3) return run(integral_constant<int, 3>{}, integral_constant<int, 3>{});
  throw std::invalid_argument(std::string(what) + ": no kernel for " + std::to_string(b) + " x " + std::to_string(k) +
                              " blocks");
}

}  // namespace fem::kernels::cuda
