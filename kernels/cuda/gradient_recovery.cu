// Gradient recovery on the CUDA device: one thread per cell computes the gradient of the solution
// at each of its stiffness rule's points with the assembly's Jacobian (shared/element_stiffness.hpp),
// the strain and the isotropic stress (or the heat flux) there, extrapolates the point values to
// its nodes and adds them into the nodes' sums with atomicAdd (the order of the additions varies:
// the host's sums agree to roundoff).
#include <cuda_runtime.h>

#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/gradient_recovery_kernels.hpp"
#include "kernels/shared/element_stiffness.hpp"

namespace fem::kernels::cuda {
namespace {

namespace es = element_stiffness;

constexpr int kMaxNodes = 27;
constexpr int kThreads = 128;

// The values at one point from H[i][j] = du_i/dx_j: strain (xx yy zz xy yz xz, engineering
// shear) and stress of 3D isotropic elasticity, or the flux -k grad T (3, zero beyond Dim).
template <int Dim, bool Elastic>
__device__ void point_values(const double (*H)[3], double lambda, double mu, double k, double* out) {
  if constexpr (Elastic) {
    const double e[6] = {H[0][0], H[1][1], H[2][2], H[0][1] + H[1][0], H[1][2] + H[2][1], H[0][2] + H[2][0]};
    const double trace = e[0] + e[1] + e[2];
    for (int i = 0; i < 6; ++i) out[i] = e[i];
    for (int i = 0; i < 3; ++i) out[6 + i] = lambda * trace + 2 * mu * e[i];
    for (int i = 3; i < 6; ++i) out[6 + i] = mu * e[i];
  } else {
    for (int j = 0; j < 3; ++j) out[j] = j < Dim ? -k * H[0][j] : 0.0;
  }
}

template <int Dim, bool Elastic>
__global__ void recover_cells(RecoveryMeshView m, CellBatchView b, const double* extrapolation, double* sums,
                              int* counts) {
  constexpr int d = Elastic ? Dim : 1;
  constexpr int width = Elastic ? 12 : 3;
  const std::int64_t c = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (c >= b.cells) return;
  const int n = b.nodes;
  const int* nodes = b.node + c * n;
  double xyz[3 * kMaxNodes], ue[3 * kMaxNodes];
  for (int a = 0; a < n; ++a) {
    const auto node = static_cast<std::int64_t>(nodes[a]);
    for (int k = 0; k < 3; ++k) xyz[3 * a + k] = m.coords[3 * node + k];
    for (int i = 0; i < d; ++i) ue[d * a + i] = m.solution[m.first_dof[node] + i];
  }
  const int material = b.material[c];
  const double lambda = m.lambda[material], mu = m.mu[material], conduction = m.k[material];
  double shares[kMaxNodes * width] = {};
  for (int q = 0; q < b.points; ++q) {
    const double* N = b.N + q * n;
    const double* dN = b.dN + q * n * Dim;
    double x[3], inv[3][3] = {};
    es::map_point<Dim>(n, xyz, N, dN, x, inv);  // a flat cell leaves inv zero: no gradient there
    double G[Dim][3] = {};  // G[j][i] = du_i/dxi_j
    for (int a = 0; a < n; ++a)
      for (int j = 0; j < Dim; ++j)
        for (int i = 0; i < d; ++i) G[j][i] += dN[a * Dim + j] * ue[d * a + i];
    double H[3][3] = {};
    for (int i = 0; i < d; ++i)
      for (int k = 0; k < Dim; ++k)
        for (int j = 0; j < Dim; ++j) H[i][k] += G[j][i] * inv[j][k];
    double values[width];
    point_values<Dim, Elastic>(H, lambda, mu, conduction, values);
    for (int a = 0; a < n; ++a) {
      const double w = extrapolation[a * b.points + q];
      for (int v = 0; v < width; ++v) shares[a * width + v] += w * values[v];
    }
  }
  for (int a = 0; a < n; ++a) {
    const auto node = static_cast<std::int64_t>(nodes[a]);
    for (int v = 0; v < width; ++v) atomicAdd(&sums[node * width + v], shares[a * width + v]);
    atomicAdd(&counts[node], 1);
  }
}

}  // namespace

void add_cell_gradients(const RecoveryMeshView& mesh, const CellBatchView& batch, const double* extrapolation,
                        double* sums, int* counts) {
  if (batch.cells == 0) return;
  const auto blocks = static_cast<unsigned>((batch.cells + kThreads - 1) / kThreads);
  if (mesh.elastic) recover_cells<3, true><<<blocks, kThreads>>>(mesh, batch, extrapolation, sums, counts);
  else if (mesh.space_dim == 3) recover_cells<3, false><<<blocks, kThreads>>>(mesh, batch, extrapolation, sums, counts);
  else recover_cells<2, false><<<blocks, kThreads>>>(mesh, batch, extrapolation, sums, counts);
  check(cudaGetLastError(), "the gradient recovery kernel's launch");
}

}  // namespace fem::kernels::cuda
