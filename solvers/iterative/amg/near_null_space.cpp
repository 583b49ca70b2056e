#include "solvers/iterative/amg/near_null_space.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

namespace fem::amg {

NearNullSpace near_null_space(const NodeLayout& nodes, std::int64_t equations) {
  const int d = nodes.dofs_per_node;
  if (d < 1 || equations % d != 0)
    throw std::invalid_argument("amg: " + std::to_string(equations) + " equations are not whole nodes of " +
                                std::to_string(d) + " dofs");
  const std::int64_t count = equations / d;
  const bool rigid = !nodes.coordinates.empty() && d == nodes.dimension && (d == 2 || d == 3);
  NearNullSpace b;
  b.rigid_body_modes = rigid;
  if (!rigid) {
    b.vectors = d;
    b.values.resize(static_cast<std::size_t>(equations * d));
#pragma omp parallel for schedule(static) if (equations > 100000)
    for (std::int64_t i = 0; i < equations; ++i)
      for (int v = 0; v < d; ++v) b.values[i * d + v] = v == i % d ? 1.0 : 0.0;
    return b;
  }
  if (static_cast<std::int64_t>(nodes.coordinates.size()) != 3 * count)
    throw std::invalid_argument("amg: " + std::to_string(nodes.coordinates.size()) + " coordinates for " +
                                std::to_string(count) + " nodes (3 per node expected)");
  std::array<double, 3> centroid{};
  for (std::int64_t n = 0; n < count; ++n)
    for (int k = 0; k < 3; ++k) centroid[k] += nodes.coordinates[3 * n + k];
  for (auto& c : centroid) c /= static_cast<double>(count);
  b.vectors = d == 3 ? 6 : 3;
  const int m = b.vectors;
  b.values.resize(static_cast<std::size_t>(equations * m));
#pragma omp parallel for schedule(static) if (count > 30000)
  for (std::int64_t n = 0; n < count; ++n) {
    const double x = nodes.coordinates[3 * n] - centroid[0], y = nodes.coordinates[3 * n + 1] - centroid[1],
                 z = nodes.coordinates[3 * n + 2] - centroid[2];
    double* row = &b.values[n * d * m];  // the d rows of this node
    std::fill(row, row + d * m, 0.0);
    for (int c = 0; c < d; ++c) row[c * m + c] = 1.0;  // translations
    // rotation about z: (-y, x, 0); in 3D also about x: (0, -z, y) and about y: (z, 0, -x)
    row[0 * m + d] = -y;
    row[1 * m + d] = x;
    if (d == 3) {
      row[1 * m + 4] = -z;
      row[2 * m + 4] = y;
      row[0 * m + 5] = z;
      row[2 * m + 5] = -x;
    }
  }
  return b;
}

}  // namespace fem::amg
