#include "solvers/iterative/amg/tentative_prolongator.hpp"

#include <cmath>
#include <numeric>

#include <omp.h>

namespace fem::amg {
namespace {

// A column whose part outside the span of the previous ones is below this fraction of its norm
// is taken as dependent on them.
constexpr double kDependent = 1e-8;

double column_dot(const std::vector<double>& m, int cols, int p, int q) {
  double s = 0;
  for (std::size_t r = 0; r < m.size() / cols; ++r) s += m[r * cols + p] * m[r * cols + q];
  return s;
}

// Modified Gram-Schmidt, twice over (enough for the k <= 6 columns): m (rows x k, row-major)
// becomes Q with orthonormal or zero columns, r (k x k) the upper-triangular factor.
void orthonormalize(std::vector<double>& m, int k, double* r) {
  const std::size_t rows = m.size() / k;
  for (int j = 0; j < k; ++j) {
    const double norm0 = std::sqrt(column_dot(m, k, j, j));
    for (int i = 0; i < k; ++i) r[i * k + j] = 0.0;
    for (int pass = 0; pass < 2; ++pass)
      for (int i = 0; i < j; ++i) {
        const double proj = column_dot(m, k, i, j);
        r[i * k + j] += proj;
        for (std::size_t row = 0; row < rows; ++row) m[row * k + j] -= proj * m[row * k + i];
      }
    const double norm = std::sqrt(column_dot(m, k, j, j));
    const bool dependent = !(norm > kDependent * norm0);
    r[j * k + j] = dependent ? 0.0 : norm;
    for (std::size_t row = 0; row < rows; ++row) m[row * k + j] = dependent ? 0.0 : m[row * k + j] / norm;
  }
}

}  // namespace

std::vector<char> decoupled_equations(const BlockSparse& a) {
  std::vector<char> decoupled(static_cast<std::size_t>(a.rows()));
  const int b = a.row_block;
  // Each row's scan stops at its first coupling (in the first block of most rows).
  const auto is_decoupled = [&](std::int64_t i, int r) {
    for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
      for (int c = 0; c < b; ++c)
        if (a.block(k)[r * b + c] != 0 && (a.col[k] != i || r != c)) return false;
    return true;
  };
#pragma omp parallel for schedule(static) if (a.block_rows > 20000)
  for (std::int64_t i = 0; i < a.block_rows; ++i)
    for (int r = 0; r < b; ++r) decoupled[i * b + r] = is_decoupled(i, r);
  return decoupled;
}

TentativeProlongator tentative_prolongator(const Aggregates& aggregates, const NearNullSpace& b, int dofs_per_node,
                                           const std::vector<char>& decoupled) {
  const int d = dofs_per_node, k = b.vectors;
  const auto nodes = static_cast<std::int64_t>(aggregates.of_node.size());
  TentativeProlongator out;
  BlockSparse& t = out.t;
  t.row_block = d;
  t.col_block = k;
  t.block_rows = nodes;
  t.block_cols = aggregates.count;
  // T's rows (one block per aggregated node) and the nodes of each aggregate, in node order, by
  // a counting sort: each thread takes a fixed range of nodes and counts the nodes it gives each
  // aggregate, so that it writes them to slots of its own (as transpose()), whatever the threads.
  const auto& of = aggregates.of_node;
  const std::int64_t count = aggregates.count;
  const int threads = nodes > 100000 ? omp_get_max_threads() : 1;
  std::vector<std::int64_t> rows_before(static_cast<std::size_t>(threads) + 1, 0);
  std::vector<std::int64_t> slot(static_cast<std::size_t>(threads) * static_cast<std::size_t>(count), 0);
  std::vector<std::int64_t> first(static_cast<std::size_t>(count) + 1);
  kernels::UninitializedVector<std::int64_t> members;  // each written below
  t.row_ptr.resize(static_cast<std::size_t>(nodes) + 1);
#pragma omp parallel num_threads(threads)
  {
    const int thread = omp_get_thread_num();
    const std::int64_t begin = nodes * thread / threads, end = nodes * (thread + 1) / threads;
    std::int64_t* next = &slot[static_cast<std::size_t>(thread) * count];
    std::int64_t aggregated = 0;
    for (std::int64_t n = begin; n < end; ++n)
      if (of[n] >= 0) ++next[of[n]], ++aggregated;
    rows_before[thread + 1] = aggregated;
#pragma omp barrier
#pragma omp single
    {
      std::partial_sum(rows_before.begin(), rows_before.end(), rows_before.begin());
      std::int64_t at = 0;
      for (std::int64_t a = 0; a < count; ++a) {
        first[a] = at;
        for (int th = 0; th < threads; ++th) {
          std::int64_t& s = slot[static_cast<std::size_t>(th) * count + a];
          const std::int64_t given = s;
          s = at;
          at += given;
        }
      }
      first[count] = at;
      t.row_ptr[nodes] = at;
      t.col.resize(static_cast<std::size_t>(at));
      t.val.resize(static_cast<std::size_t>(at * t.block_size()));  // every block written below
      members.resize(static_cast<std::size_t>(at));
    }
    std::int64_t row = rows_before[thread];
    for (std::int64_t n = begin; n < end; ++n) {
      t.row_ptr[n] = row;
      if (of[n] < 0) continue;
      t.col[row++] = of[n];
      members[next[of[n]]++] = n;
    }
  }

  out.coarse.vectors = k;
  out.coarse.rigid_body_modes = b.rigid_body_modes;
  out.coarse.values.assign(static_cast<std::size_t>(aggregates.count * k * k), 0.0);
#pragma omp parallel if (aggregates.count > 2000)
  {
    std::vector<double> local;
#pragma omp for schedule(static)
    for (std::int64_t a = 0; a < aggregates.count; ++a) {
      local.clear();
      for (auto m = first[a]; m < first[a + 1]; ++m)
        for (int c = 0; c < d; ++c) {
          const std::int64_t eq = members[m] * d + c;
          for (int v = 0; v < k; ++v) local.push_back(decoupled[eq] ? 0.0 : b.values[eq * k + v]);
        }
      orthonormalize(local, k, &out.coarse.values[a * k * k]);
      for (auto m = first[a]; m < first[a + 1]; ++m)
        std::copy_n(&local[(m - first[a]) * d * k], d * k, t.block(t.row_ptr[members[m]]));
    }
  }
  return out;
}

}  // namespace fem::amg
