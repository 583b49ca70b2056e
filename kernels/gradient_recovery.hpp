#pragma once
// Recovery of the gradient quantities at the nodes on a compute device: the declared operation,
// in plain arrays, and the registry that gives the device's implementation. Each cell's strain
// and stress (or heat flux) at its stiffness rule's points is extrapolated to its nodes and the
// nodes' sums and cell counts come back; the host divides (fem/post/cell_results.hpp's sweep on
// the device).
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "kernels/stiffness_assembler.hpp"

namespace fem::kernels {

struct GradientRecovery {
  int space_dim = 3;                          // 2 or 3
  bool elastic = true;                        // 3D isotropic elasticity (12 values a node), else conduction (3)
  std::span<const double> coords;             // 3 per mesh node
  std::span<const std::int64_t> first_dof;    // per mesh node: its first equation
  std::span<const double> lambda, mu, k;      // per material (Lame form; conduction)
  std::vector<CellBatch> batches;             // the cells by type, with the shape table at their points
  std::vector<std::span<const double>> extrapolation;  // per batch: nodes x points, row-major
  std::span<const double> solution;           // per equation
};

class GradientRecoverer {
 public:
  virtual ~GradientRecoverer() = default;
  // `sums` (mesh nodes x 12 or 3): the cells' extrapolated values added at each node, strain
  // then stress (engineering shear) or the heat flux; `counts`: the cells at each node. False,
  // with nothing written, where the device has not the memory free (the host recovers then).
  virtual bool recover(const GradientRecovery& input, std::span<double> sums, std::span<int> counts) = 0;
};

// The CUDA device's recoverer; null in a build without CUDA or on a machine without a device.
std::unique_ptr<GradientRecoverer> cuda_gradient_recoverer();

}  // namespace fem::kernels
