#pragma once
// Random symmetric positive definite sparse matrices shaped like FE systems: nodes of `block`
// equations on a 3D grid, each grid cell an "element" adding a random SPD block over its nodes,
// plus a few random long-range couplings, so the pattern is neither banded nor diagonal.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <vector>

#include "kernels/csr_matrix.hpp"

namespace fem::test {

// Builds the CSR from a map of entries (both triangles).
inline CsrMatrix csr_from(std::int64_t n, const std::map<std::pair<std::int32_t, std::int32_t>, double>& entries) {
  CsrMatrix a;
  a.rows = n;
  a.row_ptr.assign(n + 1, 0);
  for (const auto& [ij, v] : entries) ++a.row_ptr[ij.first + 1];
  for (std::int64_t i = 0; i < n; ++i) a.row_ptr[i + 1] += a.row_ptr[i];
  for (const auto& [ij, v] : entries) {  // std::map is sorted by row then column
    a.col.push_back(ij.second);
    a.val.push_back(v);
  }
  return a;
}

// An nx x ny x nz grid of nodes, `block` equations each; the equations listed in `constrained`
// are cleared to their diagonal, as Dirichlet conditions leave them.
inline CsrMatrix random_fe_like_matrix(int nx, int ny, int nz, int block, unsigned seed,
                                       const std::vector<std::int32_t>& constrained = {}) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const auto node = [&](int x, int y, int z) { return (z * ny + y) * nx + x; };
  const std::int64_t n = std::int64_t{nx} * ny * nz * block;
  std::map<std::pair<std::int32_t, std::int32_t>, double> entries;
  const auto add_element = [&](const std::vector<int>& nodes) {
    std::vector<std::int32_t> eq;
    for (int v : nodes)
      for (int c = 0; c < block; ++c) eq.push_back(v * block + c);
    const std::size_t m = eq.size();
    std::vector<double> b(m * m);
    for (auto& x : b) x = u(rng);
    for (std::size_t i = 0; i < m; ++i)  // B Bᵀ: symmetric positive semi-definite
      for (std::size_t j = 0; j < m; ++j) {
        double s = 0;
        for (std::size_t k = 0; k < m; ++k) s += b[i * m + k] * b[j * m + k];
        entries[{eq[i], eq[j]}] += s;
      }
  };
  for (int z = 0; z + 1 < std::max(nz, 2); ++z)
    for (int y = 0; y + 1 < std::max(ny, 2); ++y)
      for (int x = 0; x + 1 < nx; ++x) {
        std::vector<int> cell;
        for (int dz = 0; dz < (nz > 1 ? 2 : 1); ++dz)
          for (int dy = 0; dy < (ny > 1 ? 2 : 1); ++dy)
            for (int dx = 0; dx < 2; ++dx) cell.push_back(node(x + dx, y + dy, z + dz));
        add_element(cell);
      }
  const int nodes = nx * ny * nz;
  std::uniform_int_distribution<int> any(0, nodes - 1);
  for (int k = 0; k < nodes / 10; ++k) {  // long-range springs
    const int a = any(rng), b = any(rng);
    if (a != b) add_element({a, b});
  }
  for (std::int64_t i = 0; i < n; ++i) entries[{static_cast<std::int32_t>(i), static_cast<std::int32_t>(i)}] += 1.0;
  for (auto c : constrained) {
    const double diagonal = entries[{c, c}];
    for (auto it = entries.begin(); it != entries.end();)
      it = (it->first.first == c || it->first.second == c) ? entries.erase(it) : std::next(it);
    entries[{c, c}] = diagonal;
  }
  return csr_from(n, entries);
}

// Solves A x = b densely (Gaussian elimination with partial pivoting): the reference.
inline std::vector<double> dense_solve(const CsrMatrix& a, const std::vector<double>& b) {
  const auto n = static_cast<std::size_t>(a.rows);
  std::vector<double> m(n * (n + 1), 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    for (auto e = a.row_ptr[i]; e < a.row_ptr[i + 1]; ++e) m[i * (n + 1) + a.col[e]] = a.val[e];
    m[i * (n + 1) + n] = b[i];
  }
  for (std::size_t k = 0; k < n; ++k) {
    std::size_t p = k;
    for (std::size_t i = k + 1; i < n; ++i)
      if (std::abs(m[i * (n + 1) + k]) > std::abs(m[p * (n + 1) + k])) p = i;
    for (std::size_t j = 0; j <= n; ++j) std::swap(m[k * (n + 1) + j], m[p * (n + 1) + j]);
    for (std::size_t i = k + 1; i < n; ++i) {
      const double f = m[i * (n + 1) + k] / m[k * (n + 1) + k];
      for (std::size_t j = k; j <= n; ++j) m[i * (n + 1) + j] -= f * m[k * (n + 1) + j];
    }
  }
  std::vector<double> x(n);
  for (std::size_t i = n; i-- > 0;) {
    double s = m[i * (n + 1) + n];
    for (std::size_t j = i + 1; j < n; ++j) s -= m[i * (n + 1) + j] * x[j];
    x[i] = s / m[i * (n + 1) + i];
  }
  return x;
}

}  // namespace fem::test
