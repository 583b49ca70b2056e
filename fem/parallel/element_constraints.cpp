#include "fem/parallel/element_constraints.hpp"

namespace fem {

void constrain_element(ElementContribution& e, std::span<const double> prescribed) {
  const std::size_t n = e.dofs.size();
  for (std::size_t j = 0; j < n; ++j) {
    const double g = prescribed[e.dofs[j]];
    if (g != g) continue;  // free
    for (std::size_t i = 0; i < n; ++i) {
      if (i == j) continue;
      const double g_i = prescribed[e.dofs[i]];
      if (g_i == g_i) continue;  // both constrained: only the diagonal stays
      e.load[i] -= e.matrix[i * n + j] * g;
    }
  }
  for (std::size_t j = 0; j < n; ++j) {
    const double g = prescribed[e.dofs[j]];
    if (g != g) continue;
    for (std::size_t i = 0; i < n; ++i)
      if (i != j) e.matrix[i * n + j] = e.matrix[j * n + i] = 0.0;
    e.load[j] = e.matrix[j * n + j] * g;
  }
}

}  // namespace fem
