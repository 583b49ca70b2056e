#pragma once
// An AMG level's transfer operators made on a sparse back-end's device (smoothed aggregation):
// A T from the device's double A and the host's tentative prolongator T, then P = T - omega D^-1
// A T and R = P^T there, and the upper blocks of the Galerkin product P^T A P, which the host
// mirrors into the next level's operator. P and R stay on the device for the V-cycle, in single
// precision; the host never holds them.
#include <memory>
#include <optional>
#include <span>
#include <utility>

#include "kernels/block_matrix.hpp"

namespace fem::kernels {

class SparseMatrix;

class LevelTransfer {
 public:
  virtual ~LevelTransfer() = default;
  // P and R from the A T made with the transfer (D^-1: a value per equation, on the host).
  virtual void smooth(std::span<const double> inv_diag, double omega) = 0;
  // After smooth(): the blocks on and above the diagonal of P^T A P, or nullopt where the product
  // does not fit the device (the host makes it from prolongator() then).
  virtual std::optional<BlockMatrix<double>> upper_galerkin_product() const = 0;
  // After smooth(): P and R copied to the host, in double.
  virtual BlockMatrix<double> prolongator() const = 0;
  virtual BlockMatrix<double> restriction() const = 0;
  // After smooth(): P and R in single precision for the V-cycle's block_spmv(); their double
  // copies (and A T's inputs) are freed. Call once.
  virtual std::pair<std::unique_ptr<SparseMatrix>, std::unique_ptr<SparseMatrix>> single_copies() = 0;
};

}  // namespace fem::kernels
