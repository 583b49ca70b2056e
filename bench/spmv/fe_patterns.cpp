#include "bench/spmv/fe_patterns.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <stdexcept>

namespace fem::bench {
namespace {

// Nodes coupled to node index a along one axis: those sharing an element with it.
std::array<int, 2> coupled_range(int a, int nodes, int order) {
  const int reach = order == 1 ? 1 : (a % 2 == 0 ? 2 : 1);  // quadratic: vertex nodes reach two elements' ends
  return {std::max(0, a - reach), std::min(nodes - 1, a + reach)};
}

}  // namespace

std::string BoxPattern::name() const {
  return std::to_string(dimension) + "D-q" + std::to_string(order) + "-d" + std::to_string(dofs_per_node) + "-" +
         std::to_string(cells);
}

BoxPattern parse_box_pattern(const std::string& name) {
  BoxPattern box;
  char tail = 0;
  if (std::sscanf(name.c_str(), "%dD-q%d-d%d-%d%c", &box.dimension, &box.order, &box.dofs_per_node, &box.cells,
                  &tail) != 4)
    throw std::invalid_argument("FE matrix '" + name + "': expected DIMENSION D-q ORDER -d DOFS - CELLS, e.g. 3D-q1-d3-40");
  return box;
}

CsrMatrix make_box_pattern_matrix(const BoxPattern& box) {
  if ((box.dimension != 2 && box.dimension != 3) || box.cells < 1 || (box.order != 1 && box.order != 2) ||
      box.dofs_per_node < 1)
    throw std::invalid_argument("box pattern " + box.name() + ": dimension 2 or 3, order 1 or 2, cells and dofs >= 1");
  const int n1 = box.cells * box.order + 1;  // nodes per axis
  const int nz = box.dimension == 3 ? n1 : 1;
  const std::int64_t nodes = std::int64_t(n1) * n1 * nz;
  const int d = box.dofs_per_node;
  CsrMatrix a;
  a.rows = nodes * d;
  a.row_ptr.assign(static_cast<std::size_t>(a.rows + 1), 0);
  auto range = [&](int v, int count) { return count == 1 ? std::array<int, 2>{0, 0} : coupled_range(v, count, box.order); };
  // Row lengths first, so the rows can be filled in parallel.
#pragma omp parallel for schedule(static)
  for (std::int64_t node = 0; node < nodes; ++node) {
    const int x = static_cast<int>(node % n1), y = static_cast<int>(node / n1 % n1), z = static_cast<int>(node / n1 / n1);
    const auto rx = range(x, n1), ry = range(y, n1), rz = range(z, nz);
    const std::int64_t len = std::int64_t(rx[1] - rx[0] + 1) * (ry[1] - ry[0] + 1) * (rz[1] - rz[0] + 1) * d;
    for (int c = 0; c < d; ++c) a.row_ptr[node * d + c + 1] = len;
  }
  for (std::int64_t i = 0; i < a.rows; ++i) a.row_ptr[i + 1] += a.row_ptr[i];
  a.col.resize(static_cast<std::size_t>(a.nnz()));
  a.val.resize(a.col.size());
#pragma omp parallel for schedule(static)
  for (std::int64_t node = 0; node < nodes; ++node) {
    const int x = static_cast<int>(node % n1), y = static_cast<int>(node / n1 % n1), z = static_cast<int>(node / n1 / n1);
    const auto rx = range(x, n1), ry = range(y, n1), rz = range(z, nz);
    for (int c = 0; c < d; ++c) {
      const std::int64_t row = node * d + c;
      std::int64_t k = a.row_ptr[row];
      const std::int64_t len = a.row_ptr[row + 1] - k;
      for (int zz = rz[0]; zz <= rz[1]; ++zz)
        for (int yy = ry[0]; yy <= ry[1]; ++yy)
          for (int xx = rx[0]; xx <= rx[1]; ++xx)
            for (int cc = 0; cc < d; ++cc) {
              const std::int64_t col = ((std::int64_t(zz) * n1 + yy) * n1 + xx) * d + cc;
              a.col[k] = static_cast<std::int32_t>(col);
              a.val[k] = col == row ? static_cast<double>(len) : -1.0;  // Laplacian of the graph + I
              ++k;
            }
    }
  }
  return a;
}

}  // namespace fem::bench
