// Stiffness assembly on the CUDA device: one thread per (cell, node a, node b) integrates the
// pair's block over the cell's quadrature points with the host's formulas
// (shared/element_stiffness.hpp), recomputing the point's Jacobian rather than storing it, and
// adds the block into the CSR values or the node blocks with atomicAdd (the row's column found by
// binary search); then one thread per row applies the prescribed values.
#include <cuda_runtime.h>

#include <cmath>

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/stiffness_assembly_kernels.hpp"
#include "kernels/shared/element_stiffness.hpp"

namespace fem::kernels::cuda {
namespace {

namespace es = element_stiffness;

constexpr int kMaxNodes = 27;
constexpr double kPi = 3.14159265358979323846;  // std::numbers::pi, which device code cannot name
constexpr int kThreads = 128;

__device__ double out_of_plane(const StiffnessMeshView& m, int dim, const double* x) {
  if (m.axisymmetric) return 2 * kPi * x[0];
  return dim == 2 ? m.thickness : 1.0;
}

// The offset of column `column` in the row (present: the pattern holds every pair of a cell).
__device__ std::int64_t find_column(const std::int32_t* cols, std::int64_t width, std::int32_t column) {
  std::int64_t lo = 0, hi = width;
  while (lo < hi) {
    const std::int64_t mid = (lo + hi) / 2;
    if (cols[mid] < column) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

template <int Dim, int E>
__global__ void assemble_pairs(StiffnessMeshView m, CellBatchView b, double* values, unsigned long long* inverted) {
  const int n = b.nodes;
  const std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t c = t / (n * n);
  if (c >= b.cells) return;
  const int a = static_cast<int>(t % (n * n)) / n, bn = static_cast<int>(t % n);
  const int* nodes = b.node + c * n;
  double xyz[3 * kMaxNodes];
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < 3; ++k) xyz[3 * i + k] = m.coords[3 * static_cast<std::int64_t>(nodes[i]) + k];

  const int d = m.elastic ? Dim : 1;
  const int material = b.material[c];
  // The thread of pair (a, a) integrates node a's share of the body load too (N_a f, as the host).
  const bool body = m.body_force != nullptr && bn == a;
  double load[3] = {0, 0, 0};
  double G[E * E] = {};
  double sign = 0;
  for (int q = 0; q < b.points; ++q) {
    const double* N = b.N + q * n;
    const double* dN = b.dN + q * n * Dim;
    double x[3], inv[3][3] = {};
    const double det = es::map_point<Dim>(n, xyz, N, dN, x, inv);
    const double s = det > 0 ? 1.0 : -1.0;
    if (sign == 0) sign = s;
    if (det == 0 || s != sign || (Dim == 3 && s < 0)) {
      atomicMin(inverted, static_cast<unsigned long long>(b.cell[c]));
      return;
    }
    const double w = b.weight[q] * fabs(det) * out_of_plane(m, Dim, x);
    if (body)
      for (int i = 0; i < d; ++i) load[i] += w * N[a] * m.body_force[3 * material + i];
    double ga[3], gb[3];
    es::physical_gradient<Dim>(&dN[a * Dim], inv, ga);
    es::physical_gradient<Dim>(&dN[bn * Dim], inv, gb);
    if (m.elastic) {
      if constexpr (E > Dim) {
        ga[2] = N[a] / x[0];
        gb[2] = N[bn] / x[0];
      }
      es::add_pair<E>(w, ga, gb, G);
    } else {
      es::add_dot_pair<Dim>(w, ga, gb, G);
    }
  }
  if (body)
    for (int i = 0; i < d; ++i) atomicAdd(&m.rhs[m.first_dof[nodes[a]] + i], load[i]);
  double K[Dim * Dim];
  if (m.elastic) es::pair_block<Dim, E>({m.lambda[material], m.mu[material]}, G, E, K, Dim);
  else K[0] = m.k[material] * G[0];

  if (m.node_blocks) {
    const std::int64_t block_row = m.first_dof[nodes[a]] / d;
    const std::int64_t start = m.row_ptr[block_row];
    const auto offset = find_column(m.col + start, m.row_ptr[block_row + 1] - start,
                                    static_cast<std::int32_t>(m.first_dof[nodes[bn]] / d));
    double* block = values + (start + offset) * d * d;
    for (int i = 0; i < d * d; ++i) atomicAdd(&block[i], K[i]);
    return;
  }
  const std::int64_t row0 = m.first_dof[nodes[a]];
  const std::int64_t start = m.row_ptr[row0];
  const auto offset = find_column(m.col + start, m.row_ptr[row0 + 1] - start,
                                  static_cast<std::int32_t>(m.first_dof[nodes[bn]]));
  for (int i = 0; i < d; ++i)
    for (int j = 0; j < d; ++j) atomicAdd(&values[m.row_ptr[row0 + i] + offset + j], K[i * d + j]);
}

// Entry e added where its row and column sit: in its node block (block > 0) or its CSR row.
__global__ void add_scalar_entries(std::int64_t count, const std::int64_t* row, const std::int64_t* column,
                                   const double* value, int block, const std::int64_t* row_ptr, const std::int32_t* col,
                                   double* values) {
  const std::int64_t e = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e >= count) return;
  if (block > 0) {
    const std::int64_t block_row = row[e] / block, start = row_ptr[block_row];
    const auto offset = find_column(col + start, row_ptr[block_row + 1] - start, static_cast<std::int32_t>(column[e] / block));
    atomicAdd(&values[((start + offset) * block + row[e] % block) * block + column[e] % block], value[e]);
    return;
  }
  const std::int64_t start = row_ptr[row[e]];
  const auto offset = find_column(col + start, row_ptr[row[e] + 1] - start, static_cast<std::int32_t>(column[e]));
  atomicAdd(&values[start + offset], value[e]);
}

// The entries of scalar row i, as (column, value) pairs: of a CSR row, or of row i % d of the
// d x d blocks of block row i / d.
struct CsrRow {
  const std::int64_t* row_ptr;
  const std::int32_t* col;
  double* values;
  template <class Visit>
  __device__ void visit(std::int64_t i, Visit&& f) const {
    for (auto k = row_ptr[i]; k < row_ptr[i + 1]; ++k) f(static_cast<std::int64_t>(col[k]), values[k]);
  }
};

struct BlockRow {
  int d;
  const std::int64_t* row_ptr;
  const std::int32_t* col;
  double* values;
  template <class Visit>
  __device__ void visit(std::int64_t i, Visit&& f) const {
    const std::int64_t block_row = i / d, r = i % d;
    for (auto k = row_ptr[block_row]; k < row_ptr[block_row + 1]; ++k)
      for (int j = 0; j < d; ++j) f(static_cast<std::int64_t>(col[k]) * d + j, values[(k * d + r) * d + j]);
  }
};

// The host's apply_constraints, row by row: a free row lifts and clears its prescribed columns,
// a prescribed row keeps its diagonal alone (1 where no element stiffened it).
template <class Row>
__global__ void apply_prescribed_rows(std::int64_t rows, Row row, const double* g, double* rhs) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  if (isnan(g[i])) {
    double lift = 0;
    row.visit(i, [&](std::int64_t column, double& value) {
      if (isnan(g[column])) return;
      lift += value * g[column];
      value = 0;
    });
    rhs[i] -= lift;
    return;
  }
  double diagonal = 0;
  double* diagonal_at = nullptr;
  row.visit(i, [&](std::int64_t column, double& value) {
    if (column == i) {
      diagonal = value;
      diagonal_at = &value;
    } else {
      value = 0;
    }
  });
  if (!(diagonal > 0)) {
    diagonal = 1;
    if (diagonal_at) *diagonal_at = 1;
  }
  rhs[i] = diagonal * g[i];
}

unsigned int blocks_for(std::int64_t threads) {
  return static_cast<unsigned int>((threads + kThreads - 1) / kThreads);
}

template <int Dim, int E>
void launch_pairs(const StiffnessMeshView& m, const CellBatchView& b, double* values, unsigned long long* inverted) {
  const std::int64_t threads = b.cells * b.nodes * b.nodes;
  if (threads > 0) assemble_pairs<Dim, E><<<blocks_for(threads), kThreads>>>(m, b, values, inverted);
  check(cudaGetLastError(), "the stiffness pair kernel's launch");
}

}  // namespace

void add_cell_matrices(const StiffnessMeshView& mesh, const CellBatchView& batch, double* values,
                       unsigned long long* inverted) {
  if (mesh.space_dim == 3) launch_pairs<3, 3>(mesh, batch, values, inverted);
  else if (mesh.elastic && mesh.axisymmetric) launch_pairs<2, 3>(mesh, batch, values, inverted);
  else launch_pairs<2, 2>(mesh, batch, values, inverted);
}

void add_entries(std::int64_t count, const std::int64_t* row, const std::int64_t* column, const double* value,
                 int block, const std::int64_t* row_ptr, const std::int32_t* col, double* values) {
  if (count > 0) add_scalar_entries<<<blocks_for(count), kThreads>>>(count, row, column, value, block, row_ptr, col, values);
  check(cudaGetLastError(), "the boundary entries' kernel's launch");
}

void apply_prescribed(std::int64_t rows, int block, const std::int64_t* row_ptr, const std::int32_t* col,
                      const double* g, double* values, double* rhs) {
  if (rows > 0 && block > 0)
    apply_prescribed_rows<<<blocks_for(rows), kThreads>>>(rows, BlockRow{block, row_ptr, col, values}, g, rhs);
  else if (rows > 0)
    apply_prescribed_rows<<<blocks_for(rows), kThreads>>>(rows, CsrRow{row_ptr, col, values}, g, rhs);
  check(cudaGetLastError(), "the prescribed-values kernel's launch");
}

}  // namespace fem::kernels::cuda
