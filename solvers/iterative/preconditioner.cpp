#include "solvers/iterative/preconditioner.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "solvers/linear_solver.hpp"

namespace fem {
namespace {

// Below this many entries a parallel region costs more than it saves.
constexpr std::int64_t kParallelFrom = 50000;

double diagonal_entry(const CsrMatrix& a, std::int64_t i) {
  for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
    if (a.col[k] == i) return a.val[k];
  return 0.0;
}

std::vector<double> checked_diagonal(const CsrMatrix& a) {
  std::vector<double> d(static_cast<std::size_t>(a.rows));
  for (std::int64_t i = 0; i < a.rows; ++i) {
    d[i] = diagonal_entry(a, i);
    if (!(d[i] > 0))
      throw SolveFailure("diagonal entry " + std::to_string(d[i]) + " of equation " + std::to_string(i) +
                             " is not positive: the matrix is not positive definite",
                         i);
  }
  return d;
}

class Identity final : public HostPreconditioner {
 public:
  void apply(std::span<const double> r, std::span<double> z) const override {
    std::copy(r.begin(), r.end(), z.begin());
  }
  std::size_t bytes() const override { return 0; }
  std::optional<InverseBlocks> inverse_blocks() const override { return InverseBlocks{{}, 0}; }
};

class Jacobi final : public HostPreconditioner {
 public:
  explicit Jacobi(const CsrMatrix& a) : inv_diag_(checked_diagonal(a)) {
    for (double& d : inv_diag_) d = 1.0 / d;
  }
  void apply(std::span<const double> r, std::span<double> z) const override {
    const auto n = static_cast<std::int64_t>(r.size());
#pragma omp parallel for schedule(static) if (n > kParallelFrom)
    for (std::int64_t i = 0; i < n; ++i) z[i] = inv_diag_[i] * r[i];
  }
  std::size_t bytes() const override { return inv_diag_.size() * sizeof(double); }
  std::optional<InverseBlocks> inverse_blocks() const override { return InverseBlocks{inv_diag_, 1}; }

 private:
  std::vector<double> inv_diag_;
};

// The inverse of each 3x3 diagonal block, stored in full (9 values) so apply is a small product.
class NodalBlockJacobi final : public HostPreconditioner {
 public:
  explicit NodalBlockJacobi(const CsrMatrix& a) {
    if (a.rows % 3 != 0)
      throw std::invalid_argument("block-jacobi preconditioner: " + std::to_string(a.rows) +
                                  " equations are not whole 3-dof nodes");
    const std::int64_t nodes = a.rows / 3;
    inv_.assign(static_cast<std::size_t>(9 * nodes), 0.0);
    for (std::int64_t b = 0; b < nodes; ++b) {
      double m[3][3] = {};
      for (int r = 0; r < 3; ++r) {
        const std::int64_t i = 3 * b + r;
        for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
          if (a.col[k] >= 3 * b && a.col[k] < 3 * b + 3) m[r][a.col[k] - 3 * b] = a.val[k];
      }
      invert_spd(m, 3 * b, &inv_[9 * b]);
    }
  }
  void apply(std::span<const double> r, std::span<double> z) const override {
    const auto nodes = static_cast<std::int64_t>(r.size() / 3);
#pragma omp parallel for schedule(static) if (nodes > kParallelFrom / 3)
    for (std::int64_t b = 0; b < nodes; ++b) {
      const double* m = &inv_[9 * b];
      const double r0 = r[3 * b], r1 = r[3 * b + 1], r2 = r[3 * b + 2];
      z[3 * b] = m[0] * r0 + m[1] * r1 + m[2] * r2;
      z[3 * b + 1] = m[3] * r0 + m[4] * r1 + m[5] * r2;
      z[3 * b + 2] = m[6] * r0 + m[7] * r1 + m[8] * r2;
    }
  }
  std::size_t bytes() const override { return inv_.size() * sizeof(double); }
  std::optional<InverseBlocks> inverse_blocks() const override { return InverseBlocks{inv_, 3}; }

 private:
  // Cholesky of the block (refusing a non-positive pivot), then its inverse column by column.
  static void invert_spd(const double (&m)[3][3], std::int64_t first_equation, double* inv) {
    double l[3][3] = {};
    for (int j = 0; j < 3; ++j) {
      double d = m[j][j];
      for (int k = 0; k < j; ++k) d -= l[j][k] * l[j][k];
      if (!(d > 0))
        throw SolveFailure("the 3x3 block of equations " + std::to_string(first_equation) + ".." +
                               std::to_string(first_equation + 2) + " is not positive definite",
                           first_equation + j);
      l[j][j] = std::sqrt(d);
      for (int i = j + 1; i < 3; ++i) {
        double s = m[i][j];
        for (int k = 0; k < j; ++k) s -= l[i][k] * l[j][k];
        l[i][j] = s / l[j][j];
      }
    }
    for (int c = 0; c < 3; ++c) {
      double y[3], x[3];
      for (int i = 0; i < 3; ++i) {
        double s = i == c ? 1.0 : 0.0;
        for (int k = 0; k < i; ++k) s -= l[i][k] * y[k];
        y[i] = s / l[i][i];
      }
      for (int i = 2; i >= 0; --i) {
        double s = y[i];
        for (int k = i + 1; k < 3; ++k) s -= l[k][i] * x[k];
        x[i] = s / l[i][i];
      }
      for (int i = 0; i < 3; ++i) inv[3 * i + c] = x[i];
    }
  }
  std::vector<double> inv_;
};

// M = (D/w + L) (D/w)^-1 (D/w + U) * w / (2 - w); the constant factor is kept so M^-1 r stays
// the SSOR iterate. The sweeps are sequential (a true Gauss-Seidel, not a per-thread one).
class Ssor final : public HostPreconditioner {
 public:
  Ssor(const CsrMatrix& a, double omega) : a_(a), omega_(omega), diag_(checked_diagonal(a)) {}
  void apply(std::span<const double> r, std::span<double> z) const override {
    const std::int64_t n = a_.rows;
    // forward: (D/w + L) y = r
    for (std::int64_t i = 0; i < n; ++i) {
      double s = r[i];
      for (auto k = a_.row_ptr[i]; k < a_.row_ptr[i + 1] && a_.col[k] < i; ++k) s -= a_.val[k] * z[a_.col[k]];
      z[i] = s * omega_ / diag_[i];
    }
    // scale by (D/w) * (2 - w) / w, then backward: (D/w + U) z = that
    const double scale = (2.0 - omega_) / omega_;
    for (std::int64_t i = 0; i < n; ++i) z[i] *= diag_[i] * scale / omega_;
    for (std::int64_t i = n - 1; i >= 0; --i) {
      double s = z[i];
      for (auto k = a_.row_ptr[i + 1] - 1; k >= a_.row_ptr[i] && a_.col[k] > i; --k) s -= a_.val[k] * z[a_.col[k]];
      z[i] = s * omega_ / diag_[i];
    }
  }
  std::size_t bytes() const override { return diag_.size() * sizeof(double); }

 private:
  const CsrMatrix& a_;
  double omega_;
  std::vector<double> diag_;
};

}  // namespace

std::optional<int> diagonal_block(Preconditioner preconditioner) {
  switch (preconditioner) {
    case Preconditioner::None: return 0;
    case Preconditioner::Jacobi: return 1;
    case Preconditioner::BlockJacobi: return 3;
    default: return std::nullopt;
  }
}

void require_preconditioner(Preconditioner preconditioner, const std::vector<Preconditioner>& supported,
                            const std::string& solver) {
  if (std::find(supported.begin(), supported.end(), preconditioner) != supported.end()) return;
  std::string list;
  for (const auto p : supported) list += (list.empty() ? "" : ", ") + std::string(name_of(p));
  throw SolverUnavailable(std::string("preconditioner '") + name_of(preconditioner) + "' is not available for " + solver +
                          " (available: " + list + ")");
}

std::unique_ptr<HostPreconditioner> make_preconditioner(Preconditioner preconditioner, const CsrMatrix& a) {
  switch (preconditioner) {
    case Preconditioner::None: return std::make_unique<Identity>();
    case Preconditioner::Jacobi: return std::make_unique<Jacobi>(a);
    case Preconditioner::BlockJacobi: return std::make_unique<NodalBlockJacobi>(a);
    case Preconditioner::Ssor: return std::make_unique<Ssor>(a, 1.2);
    case Preconditioner::Auto:  // make_solver resolves it
    case Preconditioner::Amg: break;
  }
  throw std::invalid_argument("the amg preconditioner runs on a sparse back-end: it is made by the Krylov setup");
}

}  // namespace fem
