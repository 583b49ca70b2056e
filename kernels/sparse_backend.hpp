#pragma once
// The sparse side of a compute back-end, beside DenseBackend: vectors in the back-end's memory,
// a matrix in the SpMV format the back-end picks for it, block-diagonal preconditioners, and the
// vector steps of the Krylov methods (fused where a device gains by it). The Krylov methods in
// solvers/iterative are written once against this; kernels/cpu, kernels/cuda and kernels/opencl
// implement it with the same names.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/block_matrix.hpp"
#include "kernels/csr_matrix.hpp"
#include "kernels/device_matrix.hpp"
#include "kernels/level_transfer.hpp"

namespace fem::kernels {

// A vector of doubles in one back-end's memory. Freshly made vectors hold unspecified values.
class SparseVector {
 public:
  virtual ~SparseVector() = default;
  virtual std::size_t size() const = 0;
  virtual void upload(std::span<const double> host) = 0;
  virtual void download(std::span<double> host) const = 0;
  // The entries themselves where the back-end keeps them in host memory (cpu), so that host-only
  // preconditioners (SSOR, AMG today) can work on them; empty on a device.
  virtual std::span<double> host() { return {}; }
  std::span<const double> host() const { return const_cast<SparseVector*>(this)->host(); }
};

// A matrix in one back-end's memory, in the format chosen for it.
class SparseMatrix {
 public:
  virtual ~SparseMatrix() = default;
  virtual std::size_t device_bytes() const = 0;
  virtual std::string setting() const = 0;  // the format and its launch parameters, as matrix() accepts them
  // A double block_matrix()'s values copied into `host` (as many as its BlockMatrix's val, in
  // that order); false where this matrix cannot give them back.
  virtual bool values_to_host(std::span<double> host) const {
    (void)host;
    return false;
  }
};

// M^-1 as inverse diagonal blocks: block 1 (Jacobi), 3 (the nodes of 3D elasticity), or 0 for
// the identity (no preconditioner).
class BlockDiagonal {
 public:
  virtual ~BlockDiagonal() = default;
  virtual int block() const = 0;
  virtual std::size_t device_bytes() const = 0;
};

// What AMG's setup reads of a level's values, so that a device holding them need not send them
// to the host: each equation's diagonal entry and whether its row has no other nonzero, which
// blocks are strong connections (block k off the diagonal with ||A_ij||^2 >= threshold^2 ||A_ii||
// ||A_jj|| > 0, Frobenius norms rounded as the host rounds them: bit k % 32 of word k / 32), and
// the aggregation's join of the nodes left over, made where the values are: for each node i with
// of[i] < 0, joined[i] is of[j] of its strong neighbour j (of[j] >= 0) of the largest ||A_ij||
// rounded to single, the first in its row of equal ones; -1 where it has none; of[i] elsewhere.
struct LevelValues {
  using JoinLeftovers = std::function<void(std::span<const std::int32_t> of, std::span<std::int32_t> joined)>;
  std::vector<double> diagonal;
  std::vector<char> decoupled;
  std::vector<std::uint32_t> strong;
  JoinLeftovers join_leftovers;
};

struct CgSums {
  double rz = 0;  // r . (M^-1 r)
  double rr = 0;  // r . r
};

class SparseBackend {
 public:
  virtual ~SparseBackend() = default;
  virtual std::string name() const = 0;  // "cpu", "cuda", "opencl (the device's name)"
  // True where vectors live in host memory (SparseVector::host() is their entries).
  virtual bool on_host() const { return false; }

  virtual std::unique_ptr<SparseVector> vector(std::size_t n) const = 0;
  // A on this back-end. `setting` is "auto" (the back-end picks, by tuning where it tunes, and
  // records what it measured in `figures`) or one of its format settings; throws
  // std::invalid_argument for a setting it does not know.
  virtual std::unique_ptr<SparseMatrix> matrix(const CsrMatrix& a, const std::string& setting,
                                               std::map<std::string, double>& figures) const = 0;
  // A block matrix, square or rectangular, for block_spmv: the levels of AMG (operators,
  // prolongators, restrictions) in single precision, or a Krylov method's own operator in double
  // (AMG's fine level in its 3x3 blocks, no second conversion); products accumulated in double.
  // Blocks of 1..8 rows and columns. The host back-end keeps a reference: `a` must outlive it.
  virtual std::unique_ptr<SparseMatrix> block_matrix(const BlockMatrix<float>& a) const = 0;
  virtual std::unique_ptr<SparseMatrix> block_matrix(const BlockMatrix<double>& a) const = 0;
  // Whether single_copy() exists here: a device narrows a double block_matrix() itself (no
  // second copy over the bus, none on the host).
  virtual bool makes_single_copies() const { return false; }
  // The single-precision copy of a double block_matrix() of this back-end, made there. Throws
  // std::invalid_argument for another matrix, std::logic_error where makes_single_copies() is false.
  virtual std::unique_ptr<SparseMatrix> single_copy(const SparseMatrix& double_blocks) const {
    (void)double_blocks;
    throw std::logic_error(name() + " makes no single-precision copies of its own");
  }
  // What AMG's setup reads of A's values (LevelValues), made where A is: A a double
  // block_matrix() of this back-end in square blocks, `threshold` the strength test's; its
  // join_leftovers reads A, which must outlive it. None where the back-end leaves that to the
  // host (which then reads A's values itself).
  virtual std::optional<LevelValues> level_values(const SparseMatrix& a, double threshold) const {
    (void)a, (void)threshold;
    return std::nullopt;
  }
  // An AMG level's transfer operators made here (level_transfer.hpp) for A, a double
  // block_matrix() of this back-end (symmetric, its pattern too), and the tentative prolongator T
  // (at most one block per row) on the host. Null where the back-end makes none or A's rows or
  // the blocks' shapes do not fit its kernels: the host makes them then. A must outlive it.
  virtual std::unique_ptr<LevelTransfer> level_transfer(const SparseMatrix& a, const BlockMatrix<double>& t) const {
    (void)a, (void)t;
    return nullptr;
  }
  // Throws std::invalid_argument for a setting matrix() would refuse (checked before any work).
  virtual void check_setting(const std::string& setting) const = 0;
  // `inverse_blocks`: block * block values per block of equations, row-major; block 0 and no
  // values: the identity. Throws std::invalid_argument for a block size the back-end lacks.
  virtual std::unique_ptr<BlockDiagonal> block_diagonal(std::span<const double> inverse_blocks, int block) const = 0;
  virtual bool has_block_diagonal(int block) const = 0;  // whether block_diagonal() takes this block size

  // Row `row` of `rows`, a matrix of a dense back-end of this device, as a vector of this back-end
  // (its entries in place, no copy): blocks of vectors that dense GEMMs combine and SpMV and
  // preconditioners apply to (LOBPCG). Throws std::invalid_argument for a matrix in another
  // device's memory or a row outside it, std::logic_error where the back-end has no views.
  virtual std::unique_ptr<SparseVector> view(const DeviceMatrix<double>& rows, index_t row) const;

  // A for spmv_rows(), in the form this back-end multiplies many vectors with at once (cuSPARSE's
  // CSR on cuda); this default is matrix(a, "auto"). The host back-end keeps a reference: `a`
  // must outlive it.
  virtual std::unique_ptr<SparseMatrix> rows_matrix(const CsrMatrix& a) const;
  // y_j = A x_j for every row j of `x` and `y`, matrices of a dense back-end of this device (as
  // view() takes them), A from rows_matrix(): LOBPCG's products with a block. This default makes
  // one spmv() per row; a device reads A once for all of them.
  virtual void spmv_rows(const SparseMatrix& a, const DeviceMatrix<double>& x, const DeviceMatrix<double>& y) const;

  virtual void spmv(const SparseMatrix& a, const SparseVector& x, SparseVector& y) const = 0;  // y = A x
  // y = alpha A x + beta y for a block_matrix() A (y is not read when beta = 0: it may be unset).
  virtual void block_spmv(const SparseMatrix& a, double alpha, const SparseVector& x, double beta,
                          SparseVector& y) const = 0;
  // A smoothing step scaled by a diagonal s: d = a (s .* r) + b d, then x = c x + d (d is not
  // read when b = 0, x not when c = 0). One pass: the Chebyshev and l1-Jacobi steps of AMG.
  virtual void diagonal_step(double a, const SparseVector& s, const SparseVector& r, double b, SparseVector& d,
                             double c, SparseVector& x) const = 0;
  virtual void apply(const BlockDiagonal& m, const SparseVector& r, SparseVector& z) const = 0;  // z = M^-1 r
  virtual double dot(const SparseVector& x, const SparseVector& y) const = 0;
  // y = a x + b y (y is not read when b = 0: it may be unset)
  virtual void axpby(double a, const SparseVector& x, double b, SparseVector& y) const = 0;
  // Preconditioned CG with a block-diagonal M, two passes per iteration:
  // u += alpha p, r -= alpha q, and the sums of the new r;
  virtual CgSums cg_update(double alpha, const SparseVector& p, const SparseVector& q, SparseVector& u, SparseVector& r,
                           const BlockDiagonal& m) const = 0;
  // p = M^-1 r + beta p (p is not read when beta = 0).
  virtual void cg_direction(double beta, const SparseVector& r, const BlockDiagonal& m, SparseVector& p) const = 0;
};

// The first entry of row `row` of `rows`, for a view() of the sparse back-end of `device`, whose
// memory `in_memory_of_device` says a dense back-end computes in; throws std::invalid_argument as
// view() does.
double* view_start(const DeviceMatrix<double>& rows, index_t row, const std::string& device,
                   bool (*in_memory_of_device)(const DenseBackend&));

// The devices a sparse back-end exists for: cpu, cuda, opencl.
const std::vector<std::string>& sparse_backend_names();
// Throws BackendUnavailable (device_matrix.hpp) when this build or machine lacks the device, with
// the reason, and std::invalid_argument for an unknown name.
std::unique_ptr<SparseBackend> make_sparse_backend(const std::string& device);

}  // namespace fem::kernels
