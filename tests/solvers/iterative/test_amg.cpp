// Smoothed-aggregation AMG: its pieces against plain references (block products against dense
// ones, the tentative prolongator against the near-null space it must reproduce, each sparse
// back-end's V-cycle kernels against serial loops), then AMG-PCG on FE systems against the band
// Cholesky solver, with the iteration counts that make it worth it, and on every back-end of this
// machine against the CPU (OpenCL on PoCL in CI; CUDA skips without a device).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>
#include <tuple>

#include <omp.h>

#include "kernels/shared/block_spmv.hpp"
#include "kernels/device_matrix.hpp"
#include "kernels/sparse_backend.hpp"
#include "support/host_memory.hpp"
#include "solvers/iterative/amg/aggregation.hpp"
#include "solvers/iterative/amg/block_sparse.hpp"
#include "solvers/iterative/amg/near_null_space.hpp"
#include "solvers/iterative/amg/smoothed_prolongator.hpp"
#include "solvers/iterative/amg/tentative_prolongator.hpp"
#include "solvers/iterative/amg/v_cycle.hpp"
#include "solvers/iterative/bicgstab.hpp"
#include "solvers/iterative/conjugate_gradient.hpp"
#include "solvers/linear_solver.hpp"
#include "support/large_block_cache.hpp"
#include "tests/solvers/iterative/test_matrices.hpp"

using namespace fem;

namespace {

// A random block matrix: each block present with probability `fill` (always on the diagonal
// when square), entries in [-1, 1].
amg::BlockSparse random_blocks(std::int64_t block_rows, std::int64_t block_cols, int r, int c, double fill,
                               unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0), coin(0.0, 1.0);
  amg::BlockSparse m;
  m.row_block = r;
  m.col_block = c;
  m.block_rows = block_rows;
  m.block_cols = block_cols;
  for (std::int64_t i = 0; i < block_rows; ++i) {
    for (std::int64_t j = 0; j < block_cols; ++j) {
      if (!(coin(rng) < fill || (block_rows == block_cols && i == j))) continue;
      m.col.push_back(static_cast<std::int32_t>(j));
      for (int e = 0; e < r * c; ++e) m.val.push_back(value(rng));
    }
    m.row_ptr.push_back(static_cast<std::int64_t>(m.col.size()));
  }
  return m;
}

// Row-major dense product, the reference.
std::vector<double> dense_product(const std::vector<double>& a, const std::vector<double>& b, std::int64_t n,
                                  std::int64_t k, std::int64_t m) {
  std::vector<double> c(static_cast<std::size_t>(n * m), 0.0);
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t l = 0; l < k; ++l)
      for (std::int64_t j = 0; j < m; ++j) c[i * m + j] += a[i * k + l] * b[l * m + j];
  return c;
}

// The dense copy of any block matrix (to_dense is for square ones; this one is the reference).
std::vector<double> dense_reference(const amg::BlockSparse& a) {
  std::vector<double> d(static_cast<std::size_t>(a.rows() * a.cols()), 0.0);
  for (std::int64_t i = 0; i < a.block_rows; ++i)
    for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
      for (int r = 0; r < a.row_block; ++r)
        for (int c = 0; c < a.col_block; ++c)
          d[(i * a.row_block + r) * a.cols() + a.col[k] * a.col_block + c] = a.block(k)[r * a.col_block + c];
  return d;
}

double max_abs_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::abs(a[i] - b[i]));
  return a.size() == b.size() ? worst : INFINITY;
}

struct AmgRun {
  SolveReport report;
  std::vector<double> u;
};

AmgRun solve_amg(const std::string& method, const testing::FeSystem& fe, double tolerance, bool with_nodes = true,
                 const std::string& device = "cpu", AmgPrecision precision = AmgPrecision::Single) {
  SolverOptions o;
  o.device = parse_choice<Device>(device).value();
  o.preconditioner = Preconditioner::Amg;
  o.tolerance = tolerance;
  o.amg.coarse_size = 200;  // small systems: still several levels
  o.amg.precision = precision;
  auto solver = method == "cg" ? make_conjugate_gradient(o) : make_bicgstab(o);
  AmgRun run;
  run.u.assign(fe.rhs.size(), 0.0);
  run.report = solver->solve(AssembledSystem{fe.matrix, fe.rhs, with_nodes ? fe.nodes() : NodeLayout{}}, run.u);
  return run;
}

std::vector<double> band_cholesky(const testing::FeSystem& fe) {
  SolverOptions o;
  o.method = SolverMethodId::BandCholesky;
  std::vector<double> u(fe.rhs.size(), 0.0);
  make_solver(o)->solve(AssembledSystem{fe.matrix, fe.rhs}, u);
  return u;
}

// The back-ends this build and machine have, each with a MESSAGE for one it lacks.
std::vector<std::unique_ptr<kernels::SparseBackend>> available_backends() {
  std::vector<std::unique_ptr<kernels::SparseBackend>> backends;
  for (const auto& name : kernels::sparse_backend_names()) {
    try {
      backends.push_back(kernels::make_sparse_backend(name));
    } catch (const kernels::BackendUnavailable& e) {
      const std::string why = name + " skipped: " + e.what();
      MESSAGE(why);
    }
  }
  return backends;
}

std::vector<double> on_host(const kernels::SparseVector& v) {
  std::vector<double> h(v.size());
  v.download(h);
  return h;
}

std::unique_ptr<kernels::SparseVector> uploaded(const kernels::SparseBackend& backend, const std::vector<double>& h) {
  auto v = backend.vector(h.size());
  v->upload(h);
  return v;
}

// M^-1 b of a V-cycle on `backend`, b and the answer on the host.
std::vector<double> applied(const kernels::SparseBackend& backend, const amg::VCycle& cycle,
                            const std::vector<double>& b) {
  const auto on_backend = uploaded(backend, b);
  const auto x = backend.vector(b.size());
  cycle.apply(*on_backend, *x);
  return on_host(*x);
}

// Largest |a_i - b_i| over the largest |b_i| (testing::relative_difference divides by at least 1:
// blind to elasticity's small displacements).
double scaled_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = 0, scale = 0;
  for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::abs(a[i] - b[i]));
  for (const double v : b) scale = std::max(scale, std::abs(v));
  return a.size() == b.size() && scale > 0 ? worst / scale : INFINITY;
}

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

// The single- and double-precision V-cycles of one system on one back-end (several levels: a
// coarse size of 200), each applied to the same random vectors: the single one must differ from
// the double one by rounding only (about float epsilon relative, not zero: its matrices are the
// narrowed ones), and be one fixed symmetric positive definite operator, as CG needs.
void check_single_against_double_cycle(const kernels::SparseBackend& backend, const testing::FeSystem& fe) {
  AmgOptions single, twice;
  single.coarse_size = twice.coarse_size = 200;
  single.precision = AmgPrecision::Single;
  twice.precision = AmgPrecision::Double;
  const amg::VCycle single_cycle(backend, fe.matrix, fe.nodes(), single);
  const amg::VCycle double_cycle(backend, fe.matrix, fe.nodes(), twice);
  CHECK(single_cycle.figures().at("amg_single_precision") == 1);
  CHECK(double_cycle.figures().at("amg_single_precision") == 0);
  REQUIRE(single_cycle.figures().at("amg_levels") >= 3);
  const auto x = testing::random_vector(fe.matrix.rows, 41), y = testing::random_vector(fe.matrix.rows, 42);
  const auto mx = applied(backend, single_cycle, x), my = applied(backend, single_cycle, y);
  const double difference = scaled_difference(mx, applied(backend, double_cycle, x));
  MESSAGE("single against double V-cycle on " << backend.name() << ", " << fe.matrix.rows
                                               << " equations: relative difference " << difference);
  CHECK(difference > 1e-9);
  CHECK(difference < 1e-5);
  CHECK(applied(backend, single_cycle, x) == mx);  // the same operator at every application
  // Symmetric to the double sums' rounding, and positive.
  CHECK(std::abs(dot(y, mx) - dot(x, my)) < 1e-12 * std::sqrt(dot(x, mx) * dot(y, my)));
  CHECK(dot(x, mx) > 0);
  CHECK(dot(y, my) > 0);
}

}  // namespace

TEST_CASE("block products, transposes and SpMV match dense references") {
  // Shapes with compile-time kernels (3x3 by 3x6) and without (2x5 by 5x4).
  for (const auto [r, k, c] : {std::array{3, 3, 6}, std::array{2, 5, 4}}) {
    CAPTURE(r);
    const auto a = random_blocks(23, 17, r, k, 0.2, 11u + r);
    const auto b = random_blocks(17, 29, k, c, 0.15, 23u + r);
    const auto ab = amg::product(a, b);
    CHECK(max_abs_difference(dense_reference(ab), dense_product(dense_reference(a), dense_reference(b), a.rows(),
                                                                a.cols(), b.cols())) < 1e-13);
    for (std::int64_t i = 0; i < ab.block_rows; ++i)
      CHECK(std::is_sorted(ab.col.begin() + ab.row_ptr[i], ab.col.begin() + ab.row_ptr[i + 1]));
    const auto at = amg::transpose(a);
    const auto da = dense_reference(a), dat = dense_reference(at);
    for (std::int64_t i = 0; i < a.rows(); ++i)
      for (std::int64_t j = 0; j < a.cols(); ++j) CHECK(dat[j * a.rows() + i] == da[i * a.cols() + j]);
    const auto x = testing::random_vector(a.cols(), 5);
    std::vector<double> y(static_cast<std::size_t>(a.rows()), 0.5), expected(y.size(), 0.0);
    for (std::int64_t i = 0; i < a.rows(); ++i)
      for (std::int64_t j = 0; j < a.cols(); ++j) expected[i] += da[i * a.cols() + j] * x[j];
    amg::multiply(a, x, y);
    CHECK(testing::relative_difference(y, expected) < 1e-14);
    kernels::block_spmv(a, -1.0, x, 1.0, y);  // y -= A x
    CHECK(*std::max_element(y.begin(), y.end()) < 1e-14);
    // The V-cycle's single-precision copy: the same product to float rounding.
    kernels::block_spmv(amg::to_single(a), 1.0, x, 0.0, y);
    CHECK(testing::relative_difference(y, expected) < 1e-6);
  }
}

TEST_CASE("the CSR in node blocks: whole-block rows copied straight, the others gathered, every entry in place") {
  // 3x3 node blocks: random whole blocks (the rows of FE nodes), then a node with a cleared
  // Dirichlet row (its diagonal only), one with a row short of an entry and one with a partial block.
  const auto blocks = random_blocks(40, 40, 3, 3, 0.2, 17);
  std::vector<double> dense = dense_reference(blocks);
  const std::int64_t n = blocks.rows();
  std::vector<char> stored(dense.size());
  for (std::size_t e = 0; e < dense.size(); ++e) stored[e] = dense[e] != 0.0;
  for (std::int64_t j = 0; j < n; ++j) dense[7 * n + j] = 0.0, stored[7 * n + j] = j == 7;  // node 2
  dense[7 * n + 7] = 4.0;
  stored[33 * n + 33] = 1, dense[33 * n + 33] = 1.5;  // node 11: its diagonal block whole ...
  stored[33 * n + 34] = 0, dense[33 * n + 34] = 0.0;  // ... but for one entry
  stored[62 * n + 17] = 1, dense[62 * n + 17] = 2.5;  // node 20: a lone entry in a block of node 5
  CsrMatrix csr;
  csr.rows = n;
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t j = 0; j < n; ++j)
      if (stored[i * n + j]) csr.col.push_back(static_cast<std::int32_t>(j)), csr.val.push_back(dense[i * n + j]);
    csr.row_ptr.push_back(static_cast<std::int64_t>(csr.col.size()));
  }
  const auto converted = amg::to_block_sparse(csr, 3);
  CHECK(converted.block_rows == 40);
  CHECK(dense_reference(converted) == dense);
  for (std::int64_t i = 0; i < converted.block_rows; ++i)
    CHECK(std::is_sorted(converted.col.begin() + converted.row_ptr[i], converted.col.begin() + converted.row_ptr[i + 1]));
}

TEST_CASE("the transpose of a matrix large enough for threads: every block in place, rows sorted") {
  // 3x6 blocks, 1.3 M stored entries (above the size where the transpose runs on all threads).
  const auto a = random_blocks(1500, 700, 3, 6, 0.07, 5);
  REQUIRE(a.nnz() > 1000000);
  const auto t = amg::transpose(a);
  REQUIRE(t.row_block == 6);
  REQUIRE(t.nnz() == a.nnz());
  std::int64_t mismatches = 0;
  for (std::int64_t j = 0; j < t.block_rows; ++j) {
    CHECK(std::is_sorted(t.col.begin() + t.row_ptr[j], t.col.begin() + t.row_ptr[j + 1]));
    for (auto k = t.row_ptr[j]; k < t.row_ptr[j + 1]; ++k) {
      const std::int64_t i = t.col[k];
      const auto first = a.col.begin() + a.row_ptr[i], last = a.col.begin() + a.row_ptr[i + 1];
      const auto at = std::lower_bound(first, last, static_cast<std::int32_t>(j));
      if (at == last || *at != j) {
        ++mismatches;
        continue;
      }
      const double* from = a.block(at - a.col.begin());
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 6; ++c) mismatches += t.block(k)[c * 3 + r] != from[r * 6 + c];
    }
  }
  CHECK(mismatches == 0);
}

TEST_CASE("the transpose of a single copy is the single copy of the transpose, bit for bit") {
  // What the host setup's R rests on: R = (P's single copy)^T, never made in double.
  const auto p = random_blocks(1500, 700, 3, 6, 0.07, 11);
  REQUIRE(p.nnz() > 1000000);  // on every thread
  const auto narrowed_first = amg::transpose(amg::to_single(p));
  const auto transposed_first = amg::to_single(amg::transpose(p));
  CHECK(narrowed_first.row_block == 6);
  CHECK(narrowed_first.col_block == 3);
  CHECK(narrowed_first.block_rows == transposed_first.block_rows);
  CHECK(narrowed_first.block_cols == transposed_first.block_cols);
  CHECK(std::equal(narrowed_first.row_ptr.begin(), narrowed_first.row_ptr.end(), transposed_first.row_ptr.begin(),
                   transposed_first.row_ptr.end()));
  CHECK(std::equal(narrowed_first.col.begin(), narrowed_first.col.end(), transposed_first.col.begin(),
                   transposed_first.col.end()));
  CHECK(std::equal(narrowed_first.val.begin(), narrowed_first.val.end(), transposed_first.val.begin(),
                   transposed_first.val.end()));
}

TEST_CASE("P^T A P is symmetric and matches the dense triple product") {
  // A symmetric random block matrix (3x3 blocks) and a random prolongator (3x6 blocks).
  auto half = random_blocks(40, 40, 3, 3, 0.1, 7);
  const auto a = amg::product(half, amg::transpose(half));  // M M^T: symmetric
  const auto p = random_blocks(40, 9, 3, 6, 0.2, 8);
  const auto coarse = amg::galerkin_product(a, p);
  const auto dp = dense_reference(p), da = dense_reference(a);
  std::vector<double> dpt(dp.size());
  for (std::int64_t i = 0; i < p.rows(); ++i)
    for (std::int64_t j = 0; j < p.cols(); ++j) dpt[j * p.rows() + i] = dp[i * p.cols() + j];
  const auto expected = dense_product(dpt, dense_product(da, dp, a.rows(), a.cols(), p.cols()), p.cols(), p.rows(),
                                      p.cols());
  const auto got = dense_reference(coarse);
  double scale = 0;
  for (double v : expected) scale = std::max(scale, std::abs(v));
  CHECK(max_abs_difference(got, expected) < 1e-13 * scale);
  const std::int64_t n = coarse.rows();
  double asymmetry = 0;
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j) asymmetry = std::max(asymmetry, std::abs(got[i * n + j] - got[j * n + i]));
  CHECK(asymmetry < 1e-13 * scale);
}

TEST_CASE("a symmetric matrix from its upper half, large enough for threads: exactly symmetric, the upper half kept") {
  const auto full = random_blocks(2000, 2000, 6, 6, 0.02, 31);  // ~80,000 blocks, 2.9 M entries
  amg::BlockSparse upper = full;
  upper.col.clear();
  upper.val.clear();
  for (std::int64_t i = 0; i < full.block_rows; ++i) {
    for (auto k = full.row_ptr[i]; k < full.row_ptr[i + 1]; ++k)
      if (full.col[k] >= i) upper.col.push_back(full.col[k]), upper.val.insert(upper.val.end(), full.block(k), full.block(k) + 36);
    upper.row_ptr[i + 1] = static_cast<std::int64_t>(upper.col.size());
  }
  REQUIRE(upper.nnz() > 1000000);
  for (std::int64_t i = 0; i < upper.block_rows; ++i) {  // symmetric diagonal blocks, as in P^T A P
    double* d = upper.block(upper.row_ptr[i]);
    for (int r = 0; r < 6; ++r)
      for (int c = 0; c < r; ++c) d[r * 6 + c] = d[c * 6 + r];
  }
  const auto m = amg::mirrored(upper);
  const auto t = amg::transpose(m);
  CHECK(t.row_ptr == m.row_ptr);
  CHECK(std::equal(t.col.begin(), t.col.end(), m.col.begin()));
  CHECK(std::equal(t.val.begin(), t.val.end(), m.val.begin()));
  std::int64_t mismatches = 0;
  for (std::int64_t i = 0; i < m.block_rows; ++i) {
    const auto diagonal_on = std::lower_bound(m.col.begin() + m.row_ptr[i], m.col.begin() + m.row_ptr[i + 1], i) - m.col.begin();
    mismatches += m.row_ptr[i + 1] - diagonal_on != upper.row_ptr[i + 1] - upper.row_ptr[i];
    mismatches += !std::equal(m.val.begin() + diagonal_on * 36, m.val.begin() + m.row_ptr[i + 1] * 36,
                              upper.val.begin() + upper.row_ptr[i] * 36);
  }
  CHECK(mismatches == 0);
}

// A T, T and D^-1 of an FE operator in its node blocks, as the setup's first level makes them.
struct FirstTransfer {
  amg::BlockSparse t, at;
  std::vector<double> inv_diag;
};
FirstTransfer first_transfer(const testing::FeSystem& fe, const amg::BlockSparse& a) {
  const auto b = amg::near_null_space(fe.nodes(), fe.matrix.rows);
  FirstTransfer f;
  f.t = amg::tentative_prolongator(amg::aggregate(a, 0.0), b, fe.dofs_per_node, amg::decoupled_equations(a)).t;
  const auto d = amg::diagonal(a);
  f.inv_diag.resize(d.size());
  for (std::size_t i = 0; i < d.size(); ++i) f.inv_diag[i] = d[i] > 0 ? 1.0 / d[i] : 0.0;
  f.at = amg::product(a, f.t);
  return f;
}

TEST_CASE("P^T A P of an FE operator large enough for threads: the row-by-row product as the whole one") {
  // 24 x 24 x 24 hex8 (15,625 nodes, 3.6 M stored entries; A T and P above a million): the fused
  // product and the transposes run on every thread, each range of coarse rows making the rows of
  // A P it reads (some of them twice).
  const auto fe = testing::elasticity_box(24, 24, 24);
  const auto a = amg::to_block_sparse(fe.matrix, 3);
  REQUIRE(a.nnz() > 1000000);
  const auto [t, at, inv_diag] = first_transfer(fe, a);
  REQUIRE(at.nnz() > 1000000);
  const auto p = amg::smoothed_prolongator(at, t, inv_diag, 0.5);
  const auto r = amg::transpose(p);
  // R made from (A T)^T before the damping is known: P^T to the last bit.
  const auto r_early = amg::smoothed_restriction(amg::transpose(at), t, inv_diag, 0.5);
  CHECK(r_early.row_ptr == r.row_ptr);
  CHECK(std::equal(r_early.col.begin(), r_early.col.end(), r.col.begin()));
  CHECK(std::equal(r_early.val.begin(), r_early.val.end(), r.val.begin()));
  // P and R in one pass over A T: the same bits.
  const auto [p_fused, r_fused] = amg::smoothed_prolongator_and_restriction(at, t, inv_diag, 0.5);
  CHECK(p_fused.row_ptr == p.row_ptr);
  CHECK(std::equal(p_fused.col.begin(), p_fused.col.end(), p.col.begin()));
  CHECK(std::equal(p_fused.val.begin(), p_fused.val.end(), p.val.begin()));
  CHECK(r_fused.row_ptr == r.row_ptr);
  CHECK(std::equal(r_fused.col.begin(), r_fused.col.end(), r.col.begin()));
  CHECK(std::equal(r_fused.val.begin(), r_fused.val.end(), r.val.begin()));
  const auto fused = amg::galerkin_product(a, p);
  // The same bits on one thread and on more threads than cores (threads delayed: the others cut
  // pieces off theirs, each piece making its band of A P again from its own first row on).
  for (const int threads : {1, 9}) {
    const int saved = omp_get_max_threads();
    omp_set_num_threads(threads);
    const auto again = amg::galerkin_product(a, p);
    omp_set_num_threads(saved);
    CHECK(again.row_ptr == fused.row_ptr);
    CHECK(std::equal(again.col.begin(), again.col.end(), fused.col.begin()));
    CHECK(std::equal(again.val.begin(), again.val.end(), fused.val.begin()));
  }
  const auto whole = amg::product(r, amg::product(a, p));  // A P whole, then R (A P), both halves
  REQUIRE(fused.row_ptr == whole.row_ptr);
  CHECK(std::equal(fused.col.begin(), fused.col.end(), whole.col.begin()));
  double worst = 0, scale = 0;
  for (std::size_t e = 0; e < whole.val.size(); ++e)
    worst = std::max(worst, std::abs(fused.val[e] - whole.val[e])), scale = std::max(scale, std::abs(whole.val[e]));
  CHECK(worst < 1e-13 * scale);
}

// The largest difference between two block matrices of one pattern, relative to b's largest entry.
double relative_difference(const amg::BlockSparse& a, const amg::BlockSparse& b) {
  double worst = 0, scale = 0;
  for (std::size_t e = 0; e < b.val.size(); ++e)
    worst = std::max(worst, std::abs(a.val[e] - b.val[e])), scale = std::max(scale, std::abs(b.val[e]));
  return scale > 0 ? worst / scale : INFINITY;
}

bool same_pattern(const amg::BlockSparse& a, const amg::BlockSparse& b) {
  return a.row_block == b.row_block && a.col_block == b.col_block && a.row_ptr == b.row_ptr &&
         std::equal(a.col.begin(), a.col.end(), b.col.begin(), b.col.end());
}

TEST_CASE("aggregates from strong blocks and a join found elsewhere (LevelValues): the host's own, and what they say is used") {
  // A serial reference of what a device gives (each block tested on its own, the join node by
  // node), on meshes with several rows to a word of marks and one large enough for threads.
  for (const auto& fe : {testing::elasticity_box(12, 10, 8), testing::elasticity_box(5, 5, 4, 2, ElementShape::Tetrahedron),
                         testing::heat_square(200, 150)}) {
    CAPTURE(fe.dofs_per_node);
    const auto a = amg::to_block_sparse(fe.matrix, fe.dofs_per_node);
    const auto norm = [&](std::int64_t k) { return std::sqrt(amg::squared_norm(a.block(k), a.block_size())); };
    std::vector<double> diag_norm(static_cast<std::size_t>(a.block_rows));
    for (std::int64_t i = 0; i < a.block_rows; ++i)
      for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k)
        if (a.col[k] == i) diag_norm[i] = norm(k);
    for (const double threshold : {0.0, 0.08, 0.25}) {
      CAPTURE(threshold);
      kernels::LevelValues found;
      found.strong.assign((a.col.size() + 31) / 32, 0);
      std::vector<char> strong(a.col.size(), 0);
      for (std::int64_t i = 0; i < a.block_rows; ++i)
        for (auto k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
          const std::int32_t j = a.col[k];
          const double n2 = j == i ? 0.0 : amg::squared_norm(a.block(k), a.block_size());
          strong[k] = n2 > 0 && n2 >= threshold * threshold * diag_norm[i] * diag_norm[j];
          if (strong[k]) found.strong[k / 32] |= 1u << (k % 32);
        }
      int joins = 0;
      found.join_leftovers = [&](std::span<const std::int32_t> of, std::span<std::int32_t> joined) {
        ++joins;
        for (std::int64_t i = 0; i < a.block_rows; ++i) {
          joined[i] = of[i];
          float best = 0;
          for (auto k = a.row_ptr[i]; of[i] < 0 && k < a.row_ptr[i + 1]; ++k)
            if (strong[k] && of[a.col[k]] >= 0 && static_cast<float>(norm(k)) > best)
              best = static_cast<float>(norm(k)), joined[i] = of[a.col[k]];
        }
      };
      const auto host = amg::aggregate(a, threshold);
      const auto made = amg::aggregate(a, threshold, {}, &found);
      CHECK(joins == 1);
      CHECK(host.count > 1);
      CHECK(made.count == host.count);
      CHECK(made.of_node == host.of_node);
      // No strong block found: every node isolated, whatever A's values say.
      std::fill(found.strong.begin(), found.strong.end(), 0u);
      const auto none = amg::aggregate(a, threshold, {}, &found);
      CHECK(none.count == 0);
      CHECK(std::count(none.of_node.begin(), none.of_node.end(), -1) == a.block_rows);
    }
  }
}

TEST_CASE("a level's values read by a device: the host's diagonal, decoupled rows and aggregates (3D hex8 and tet10, 2D, heat)") {
  // Thresholds that put blocks on both sides of the test (0.25: many weak ones), on every
  // back-end that reads them (cuda; the others leave them to the host).
  const auto square = testing::heat_square(40, 30);
  const auto tiny = amg::to_block_sparse(square.matrix, 1);
  std::vector<std::unique_ptr<kernels::SparseBackend>> readers;
  for (auto& backend : available_backends())
    if (backend->level_values(*backend->block_matrix(tiny), 0.0)) readers.push_back(std::move(backend));
  if (readers.empty()) {
    MESSAGE("no back-end here reads a level's values: the host reads them");
    return;
  }
  for (const auto& fe : {testing::elasticity_box(12, 10, 8), testing::elasticity_box(5, 5, 4, 2, ElementShape::Tetrahedron),
                         testing::elasticity_strip(40, 20), square}) {
    CAPTURE(fe.dofs_per_node);
    const auto a = amg::to_block_sparse(fe.matrix, fe.dofs_per_node);
    const auto host_decoupled = amg::decoupled_equations(a);
    for (const double threshold : {0.0, 0.08, 0.25}) {
      CAPTURE(threshold);
      const auto host = amg::aggregate(a, threshold);
      for (const auto& backend : readers) {
        CAPTURE(backend->name());
        const auto on_backend = backend->block_matrix(a);  // the join reads it
        const auto values = backend->level_values(*on_backend, threshold);
        REQUIRE(values);
        const auto diagonal = amg::diagonal(a);
        CHECK(std::equal(values->diagonal.begin(), values->diagonal.end(), diagonal.begin(), diagonal.end()));
        CHECK(values->decoupled == host_decoupled);
        REQUIRE(values->strong.size() == (a.col.size() + 31) / 32);
        const auto made = amg::aggregate(a, threshold, {}, &*values);
        CHECK(made.count == host.count);
        CHECK(made.of_node == host.of_node);
      }
    }
  }
}

TEST_CASE("a level's transfer made by a device: P, R and P^T A P as the host's (3D hex8 and tet10, 2D, heat)") {
  // Every back-end that makes them (cuda; the others leave them to the host) against the host, on
  // the first level of FE operators: 3 x 6, 2 x 3 and 1 x 1 blocks of P, the tet10 mesh's
  // irregular rows and aggregates.
  std::vector<std::unique_ptr<kernels::SparseBackend>> makers;
  for (auto& backend : available_backends()) {
    const auto tiny = testing::heat_square(6, 5);
    const auto a = amg::to_block_sparse(tiny.matrix, 1);
    if (backend->level_transfer(*backend->block_matrix(a), first_transfer(tiny, a).t)) makers.push_back(std::move(backend));
  }
  if (makers.empty()) {
    MESSAGE("no back-end here makes a level's transfer: the host makes it");
    return;
  }
  for (const auto& fe : {testing::elasticity_box(24, 24, 24), testing::elasticity_box(5, 5, 4, 2, ElementShape::Tetrahedron),
                         testing::elasticity_strip(90, 40), testing::heat_square(160, 130)}) {
    CAPTURE(fe.dofs_per_node);
    const auto a = amg::to_block_sparse(fe.matrix, fe.dofs_per_node);
    const auto f = first_transfer(fe, a);
    const auto p = amg::smoothed_prolongator(f.at, f.t, f.inv_diag, 0.6);
    const auto coarse = amg::galerkin_product(a, p);
    for (const auto& backend : makers) {
      CAPTURE(backend->name());
      const auto a_there = backend->block_matrix(a);
      std::vector<double> first_values;
      for (int run = 0; run < 2; ++run) {
        const auto made = backend->level_transfer(*a_there, f.t);
        REQUIRE(made);
        made->smooth(f.inv_diag, 0.6);
        const auto p_made = made->prolongator();
        REQUIRE(same_pattern(p_made, p));
        CHECK(relative_difference(p_made, p) < 1e-14);
        const auto r_made = made->restriction(), r_of_p = amg::transpose(p_made);
        REQUIRE(same_pattern(r_made, r_of_p));
        CHECK(std::equal(r_made.val.begin(), r_made.val.end(), r_of_p.val.begin()));  // P^T to the last bit
        const auto upper = made->upper_galerkin_product();
        REQUIRE(upper);
        const auto coarse_made = amg::galerkin_from_upper(*upper);
        REQUIRE(same_pattern(coarse_made, coarse));
        const double difference = relative_difference(coarse_made, coarse);
        CHECK(difference < 1e-12);
        // The same bits every run: the sums' order does not depend on the threads' timing.
        if (run == 0) first_values.assign(upper->val.begin(), upper->val.end());
        else CHECK(std::equal(first_values.begin(), first_values.end(), upper->val.begin(), upper->val.end()));
        const auto [p_single, r_single] = made->single_copies();
        CHECK(p_single->setting().find("fp32") != std::string::npos);
        CHECK(r_single->setting().find("fp32") != std::string::npos);
        std::ostringstream line;
        line << backend->name() << ": " << coarse.block_rows << " coarse rows, " << upper->col.size()
             << " upper blocks, largest difference " << difference << " of the largest entry";
        if (run == 0) MESSAGE(line.str());
      }
    }
  }
}

TEST_CASE("the tentative prolongator of many nodes (made on all threads): one block per aggregated node") {
  // 300,000 nodes (above the size where T is made on all threads) in aggregates of 1 to 40 nodes
  // spread over the numbering, every 97th node isolated; one near-null vector of distinct values,
  // so that each block is its node's value over its aggregate's norm.
  constexpr std::int64_t kNodes = 300000, kAggregates = 12000;
  amg::Aggregates aggregates;
  aggregates.count = kAggregates;
  aggregates.of_node.resize(kNodes);
  std::mt19937 rng(5);
  for (std::int64_t n = 0; n < kNodes; ++n)
    aggregates.of_node[n] = n % 97 == 0 ? -1 : static_cast<std::int32_t>((n * 7919 + rng() % 3) % kAggregates);
  amg::NearNullSpace b;
  b.vectors = 1;
  b.values.resize(kNodes);
  for (std::int64_t n = 0; n < kNodes; ++n) b.values[n] = 1.0 + static_cast<double>(n % 1000);
  std::vector<double> norm2(kAggregates, 0.0);
  for (std::int64_t n = 0; n < kNodes; ++n)
    if (aggregates.of_node[n] >= 0) norm2[aggregates.of_node[n]] += b.values[n] * b.values[n];
  const auto t = amg::tentative_prolongator(aggregates, b, 1, std::vector<char>(kNodes, 0));
  REQUIRE(t.t.row_ptr.size() == kNodes + 1);
  std::int64_t wrong = 0;
  for (std::int64_t n = 0; n < kNodes; ++n) {
    const std::int32_t a = aggregates.of_node[n];
    const auto k = t.t.row_ptr[n];
    if (t.t.row_ptr[n + 1] - k != (a >= 0 ? 1 : 0)) ++wrong;
    else if (a >= 0 && (t.t.col[k] != a || std::abs(t.t.val[k] - b.values[n] / std::sqrt(norm2[a])) > 1e-14)) ++wrong;
  }
  CHECK(wrong == 0);
  for (std::int64_t a = 0; a < kAggregates; ++a)
    if (std::abs(t.coarse.values[a] - std::sqrt(norm2[a])) > 1e-12 * std::sqrt(norm2[a])) ++wrong;
  CHECK(wrong == 0);
}

TEST_CASE("the tentative prolongator reproduces the rigid-body modes on every aggregate") {
  const auto fe = testing::elasticity_box(6, 3, 3);
  const auto a = amg::to_block_sparse(fe.matrix, 3);
  const auto b = amg::near_null_space(fe.nodes(), fe.matrix.rows);
  REQUIRE(b.vectors == 6);
  REQUIRE(b.rigid_body_modes);
  const auto aggregates = amg::aggregate(a, 0.0);
  const auto decoupled = amg::decoupled_equations(a);
  // The clamped face (xmin, 4 x 4 nodes) is cleared: its equations and nodes drop out.
  CHECK(std::count(decoupled.begin(), decoupled.end(), 1) == 3 * 16);
  CHECK(std::count(aggregates.of_node.begin(), aggregates.of_node.end(), -1) == 16);
  CHECK(aggregates.count > 3);
  CHECK(aggregates.count < static_cast<std::int64_t>(aggregates.of_node.size()) / 4);
  const auto t = amg::tentative_prolongator(aggregates, b, 3, decoupled);
  // T B_coarse = B wherever the equation is coupled, 0 where decoupled.
  for (int v = 0; v < 6; ++v) {
    CAPTURE(v);
    std::vector<double> coarse_vector(static_cast<std::size_t>(t.t.cols())), reproduced(fe.rhs.size());
    for (std::size_t i = 0; i < coarse_vector.size(); ++i) coarse_vector[i] = t.coarse.values[i * 6 + v];
    amg::multiply(t.t, coarse_vector, reproduced);
    double worst = 0, scale = 0;
    for (std::size_t i = 0; i < reproduced.size(); ++i) {
      const double want = decoupled[i] ? 0.0 : b.values[i * 6 + v];
      worst = std::max(worst, std::abs(reproduced[i] - want));
      scale = std::max(scale, std::abs(want));
    }
    CHECK(worst < 1e-12 * scale);
  }
  // Its columns are orthonormal: T^T T = I.
  const auto tt = amg::product(amg::transpose(t.t), t.t);
  const auto dense = amg::to_dense(tt);
  const std::int64_t n = tt.rows();
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j < n; ++j) CHECK(dense[i * n + j] == doctest::Approx(i == j ? 1.0 : 0.0).epsilon(1e-12).scale(1));
}

TEST_CASE("AMG-PCG on 3D elasticity: few iterations, nearly independent of the mesh, the direct answer") {
  // Boxes of 2n x n x n hex8 cells, n = 8, 12, 16 (4k to 29k equations); the band Cholesky
  // answer only on the two smaller ones (the largest costs seconds).
  std::vector<int> iterations;
  for (const int n : {8, 12, 16}) {
    CAPTURE(n);
    const auto fe = testing::elasticity_box(2 * n, n, n);
    const auto run = solve_amg("cg", fe, 1e-8);
    iterations.push_back(run.report.iterations);
    CHECK(run.report.iterations <= 40);
    CHECK(run.report.figures.at("amg_levels") >= 2);
    CHECK(run.report.figures.at("amg_rigid_body_modes") == 1);
    CHECK(run.report.figures.at("amg_operator_complexity") > 1.0);
    CHECK(run.report.figures.at("amg_operator_complexity") < 2.0);
    if (n < 16) CHECK(testing::relative_difference(run.u, band_cholesky(fe)) < 1e-6);
  }
  MESSAGE("AMG-PCG iterations on 3D boxes of 2n x n x n cells, n = 8, 12, 16: ", iterations[0], ", ", iterations[1], ", ", iterations[2]);
  CHECK(iterations[1] <= 1.3 * iterations[0]);
  CHECK(iterations[2] <= 1.3 * iterations[1]);
}

TEST_CASE("AMG setups in one process reuse each other's arrays, whose old contents never reach a result") {
  // The large arrays come from the process's large-block cache: the second setup of a system is
  // made in the pages the others freed (no fresh memory), which hold the values of another system
  // (the same one scaled) in between; the answer is the first one to the last bit.
  const auto fe = testing::elasticity_box(24, 24, 24);
  auto scaled = fe;
  for (auto& v : scaled.matrix.val) v *= 2.0;
  const auto first = solve_amg("cg", fe, 1e-8);
  const auto other = solve_amg("cg", scaled, 1e-8);
  const auto again = solve_amg("cg", fe, 1e-8);
  CHECK(other.report.figures.at("amg_setup_reused_bytes") > 50e6);
  CHECK(again.report.figures.at("amg_setup_mapped_bytes") < 0.05 * again.report.figures.at("amg_setup_reused_bytes"));
  CHECK(again.report.iterations == first.report.iterations);
  CHECK(again.u == first.u);
}

TEST_CASE("a solver asking for the free host memory gets the pages AMG setups left in the cache") {
  const auto fe = testing::elasticity_box(16, 16, 16);
  solve_amg("cg", fe, 1e-8);
  const std::size_t cached = fem::LargeBlockCache::process().counts().cached_bytes;
  REQUIRE(cached > 10e6);  // the spent setup's arrays
  const std::size_t unmapped_before = fem::LargeBlockCache::process().counts().unmapped_bytes;
  host_available_memory();
  const auto after = fem::LargeBlockCache::process().counts();
  CHECK(after.cached_bytes == 0);
  CHECK(after.unmapped_bytes - unmapped_before == cached);
}

TEST_CASE("AMG on 2D elasticity and heat, with CG and BiCGSTAB") {
  for (const auto& fe : {testing::elasticity_strip(80, 20), testing::heat_square(60, 50)}) {
    CAPTURE(fe.dofs_per_node);
    const auto direct = band_cholesky(fe);
    for (const char* method : {"cg", "bicgstab"}) {
      CAPTURE(method);
      const auto run = solve_amg(method, fe, 1e-10);
      CHECK(run.report.iterations <= 40);
      CHECK(testing::relative_difference(run.u, direct) < 1e-6);
    }
  }
}

TEST_CASE("AMG without coordinates falls back to constants and says so") {
  const auto fe = testing::elasticity_box(8, 4, 4);
  SolverOptions o;
  o.preconditioner = Preconditioner::Amg;
  o.tolerance = 1e-8;
  std::string said;
  o.progress = [&](const std::string& line) { said += line; };
  std::vector<double> u(fe.rhs.size(), 0.0);
  NodeLayout layout = fe.nodes();
  layout.coordinates = {};
  const auto report = make_conjugate_gradient(o)->solve(AssembledSystem{fe.matrix, fe.rhs, layout}, u);
  CHECK(said.find("no node coordinates") != std::string::npos);
  CHECK(report.figures.at("amg_rigid_body_modes") == 0);
  CHECK(report.figures.at("amg_near_null_vectors") == 3);
  CHECK(testing::relative_difference(u, band_cholesky(fe)) < 1e-6);
}

TEST_CASE("AMG where coarsening stalls, and on a matrix that is not positive definite") {
  // A diagonal matrix of 9000 equations: no connections, nothing to aggregate, too large for the
  // dense coarse factor; the smoother alone serves as the one level, and CG still converges.
  testing::FeSystem diagonal;
  diagonal.matrix.rows = 9000;
  diagonal.rhs = testing::random_vector(9000, 3);
  for (std::int64_t i = 0; i < 9000; ++i) {
    diagonal.matrix.col.push_back(static_cast<std::int32_t>(i));
    diagonal.matrix.val.push_back(1.0 + static_cast<double>(i % 10));
    diagonal.matrix.row_ptr.push_back(i + 1);
  }
  const auto run = solve_amg("cg", diagonal, 1e-10, false);
  CHECK(run.report.figures.at("amg_levels") == 1);
  CHECK(run.report.iterations <= 20);
  for (std::int64_t i = 0; i < 9000; i += 997) CHECK(run.u[i] == doctest::Approx(diagonal.rhs[i] / (1.0 + i % 10)));

  auto bad = testing::elasticity_box(4, 2, 2);
  for (auto k = bad.matrix.row_ptr[40]; k < bad.matrix.row_ptr[41]; ++k)
    if (bad.matrix.col[k] == 40) bad.matrix.val[k] = -bad.matrix.val[k];
  CHECK_THROWS_WITH_AS(solve_amg("cg", bad, 1e-8), doctest::Contains("equation 40"), SolveFailure);
}

TEST_CASE("the single-precision V-cycle is the double one to rounding, one fixed symmetric positive operator") {
  // 3D elasticity (3x3, 3x6, 6x6 blocks on the levels) and 2D heat (1x1 on the fine level), on
  // every back-end of this machine (CUDA skips without a device).
  for (const auto& fe : {testing::elasticity_box(16, 8, 8), testing::heat_square(80, 60)}) {
    CAPTURE(fe.dofs_per_node);
    for (const auto& backend : available_backends()) check_single_against_double_cycle(*backend, fe);
  }
}

TEST_CASE("CG with the single-precision AMG: the double one's iterations within 1, the same answer") {
  // 3D elasticity on hex8 and on tet4, 2D plane stress, 2D heat.
  for (const auto& fe : {testing::elasticity_box(16, 8, 8), testing::elasticity_box(12, 6, 6, 1, ElementShape::Tetrahedron),
                         testing::elasticity_strip(80, 20), testing::heat_square(60, 50)}) {
    CAPTURE(fe.matrix.rows);
    const auto twice = solve_amg("cg", fe, 1e-10, true, "cpu", AmgPrecision::Double);
    const auto single = solve_amg("cg", fe, 1e-10, true, "cpu", AmgPrecision::Single);
    CHECK(std::abs(single.report.iterations - twice.report.iterations) <= 1);
    CHECK(single.report.iterations <= 40);
    CHECK(scaled_difference(single.u, twice.u) < 1e-7);
    CHECK(single.report.figures.at("amg_single_precision") == 1);
    CHECK(twice.report.figures.at("amg_single_precision") == 0);
  }
}

TEST_CASE("each back-end's block SpMV and diagonal step match serial loops") {
  // Square and rectangular shapes with compiled kernels, and one run-time shape (2x5); rows of
  // 0 to ~30 blocks; y = alpha A x + beta y with beta 0 on a vector of NaN (it must not be read).
  const double nan = std::nan("");
  for (const auto& backend : available_backends()) {
    CAPTURE(backend->name());
    for (const auto& [r, c, rows, cols, fill] : {std::tuple{3, 3, 60, 60, 0.4}, std::tuple{3, 6, 70, 13, 0.3},
                                               std::tuple{6, 3, 13, 70, 0.3}, std::tuple{6, 6, 40, 40, 0.5},
                                               std::tuple{1, 1, 300, 300, 0.1}, std::tuple{2, 5, 31, 17, 0.2}}) {
      CAPTURE(r);
      CAPTURE(c);
      const auto blocks = random_blocks(rows, cols, r, c, fill, 100u + r * 10 + c);
      const auto single = amg::to_single(blocks);
      const auto x = testing::random_vector(blocks.cols(), 7), y0 = testing::random_vector(blocks.rows(), 8);
      // Single-precision blocks (the levels) and double ones (a Krylov operator), each against
      // its own serial product.
      const auto check = [&](const auto& m, const std::unique_ptr<kernels::SparseMatrix>& matrix) {
        std::vector<double> plain(y0.size(), 0.0);
        for (std::int64_t i = 0; i < m.block_rows; ++i)
          for (auto k = m.row_ptr[i]; k < m.row_ptr[i + 1]; ++k)
            for (int br = 0; br < r; ++br)
              for (int bc = 0; bc < c; ++bc) plain[i * r + br] += double(m.block(k)[br * c + bc]) * x[m.col[k] * c + bc];
        const auto dx = uploaded(*backend, x);
        auto dy = uploaded(*backend, std::vector<double>(y0.size(), nan));
        backend->block_spmv(*matrix, 1.0, *dx, 0.0, *dy);
        CHECK(testing::relative_difference(on_host(*dy), plain) < 1e-13);
        dy->upload(y0);
        backend->block_spmv(*matrix, -0.5, *dx, 2.0, *dy);
        std::vector<double> expected(y0.size());
        for (std::size_t i = 0; i < expected.size(); ++i) expected[i] = -0.5 * plain[i] + 2.0 * y0[i];
        CHECK(testing::relative_difference(on_host(*dy), expected) < 1e-13);
      };
      check(single, backend->block_matrix(single));
      const auto doubles = backend->block_matrix(blocks);
      check(blocks, doubles);
      // A device's own narrowing of the double blocks multiplies as the host's single copy does.
      if (backend->makes_single_copies()) check(single, backend->single_copy(*doubles));
      else CHECK_THROWS_AS(backend->single_copy(*doubles), std::logic_error);
    }
    const std::int64_t n = 1001;
    const auto s = testing::random_vector(n, 11), r = testing::random_vector(n, 12), d0 = testing::random_vector(n, 13),
               x0 = testing::random_vector(n, 14);
    const auto ds = uploaded(*backend, s), dr = uploaded(*backend, r);
    auto dd = uploaded(*backend, d0), dx = uploaded(*backend, x0);
    backend->diagonal_step(0.7, *ds, *dr, -0.3, *dd, 1.5, *dx);
    std::vector<double> d(n), x(n);
    for (std::int64_t i = 0; i < n; ++i) d[i] = 0.7 * s[i] * r[i] - 0.3 * d0[i], x[i] = 1.5 * x0[i] + d[i];
    CHECK(testing::relative_difference(on_host(*dd), d) < 1e-15);
    CHECK(testing::relative_difference(on_host(*dx), x) < 1e-15);
    dd->upload(std::vector<double>(n, nan));
    dx->upload(std::vector<double>(n, nan));
    backend->diagonal_step(0.7, *ds, *dr, 0.0, *dd, 0.0, *dx);
    for (std::int64_t i = 0; i < n; ++i) d[i] = 0.7 * s[i] * r[i];
    CHECK(testing::relative_difference(on_host(*dd), d) < 1e-15);
    CHECK(testing::relative_difference(on_host(*dx), d) < 1e-15);
  }
}

TEST_CASE("AMG on every back-end agrees with the CPU AMG: iterations within 2, the same answer") {
  // 3D elasticity (3x3, 3x6, 6x6 blocks on the levels) with CG and BiCGSTAB, 2D heat (1x1) with CG;
  // the levels in single precision (a device narrows the fine one itself) and in double.
  const auto box = testing::elasticity_box(16, 8, 8);
  const auto square = testing::heat_square(60, 50);
  for (const auto& [fe, method] : {std::pair{&box, std::string("cg")}, std::pair{&box, std::string("bicgstab")},
                                   std::pair{&square, std::string("cg")}}) {
    CAPTURE(method);
    CAPTURE(fe->dofs_per_node);
    const auto cpu = solve_amg(method, *fe, 1e-10);
    for (const auto& backend : available_backends()) {
      const std::string device = backend->name().substr(0, backend->name().find(' '));
      if (device == "cpu") continue;
      CAPTURE(device);
      for (const auto precision : {AmgPrecision::Single, AmgPrecision::Double}) {
        CAPTURE(name_of(precision));
        const auto run = solve_amg(method, *fe, 1e-10, true, device, precision);
        CHECK(std::abs(run.report.iterations - cpu.report.iterations) <= 2);
        CHECK(scaled_difference(run.u, cpu.u) < 1e-6);
        CHECK(run.report.figures.at("amg_levels") == cpu.report.figures.at("amg_levels"));
        CHECK(run.report.figures.count("spmv_tuned_seconds") == 0);  // A is AMG's fine operator: no tuning
        const std::string line = method + " AMG (" + name_of(precision) + ") on " + device + ": " +
                                 std::to_string(run.report.iterations) + " iterations (cpu " +
                                 std::to_string(cpu.report.iterations) + ")";
        MESSAGE(line);
      }
    }
  }
}

TEST_CASE("Krylov AMG handed K in node blocks: the CSR route's iterations and answer, on every back-end") {
  // 3D elasticity (3 x 3 blocks) and 2D heat (1 x 1), the assembly's node blocks as to_block_sparse
  // makes them from CSR: the hierarchy reads them in place instead of converting.
  const auto box = testing::elasticity_box(16, 8, 8);
  const auto square = testing::heat_square(60, 50);
  for (const auto* fe : {&box, &square}) {
    CAPTURE(fe->dofs_per_node);
    const auto blocks = amg::to_block_sparse(fe->matrix, fe->dofs_per_node);
    const CsrMatrix back = amg::to_csr(blocks);  // the inverse, entry for entry
    CHECK(back.row_ptr == fe->matrix.row_ptr);
    CHECK(std::equal(back.col.begin(), back.col.end(), fe->matrix.col.begin(), fe->matrix.col.end()));
    CHECK(std::equal(back.val.begin(), back.val.end(), fe->matrix.val.begin(), fe->matrix.val.end()));
    for (const auto& backend : available_backends()) {
      const std::string device = backend->name().substr(0, backend->name().find(' '));
      for (const std::string method : {"cg", "bicgstab"}) {
        CAPTURE(device);
        CAPTURE(method);
        SolverOptions o;
        o.device = parse_choice<Device>(device).value();
        o.preconditioner = Preconditioner::Amg;
        o.tolerance = 1e-10;
        o.amg.coarse_size = 200;
        auto solver = method == "cg" ? make_conjugate_gradient(o) : make_bicgstab(o);
        REQUIRE(solver->takes_node_blocks());
        std::vector<double> from_csr(fe->rhs.size(), 0.0), from_blocks(fe->rhs.size(), 0.0);
        const auto csr_run = solver->solve(AssembledSystem{fe->matrix, fe->rhs, fe->nodes()}, from_csr);
        const auto block_run = solver->solve(AssembledSystem{blocks, fe->rhs, fe->nodes()}, from_blocks);
        CHECK(block_run.iterations == csr_run.iterations);
        CHECK(block_run.figures.at("amg_levels") == csr_run.figures.at("amg_levels"));
        CHECK(scaled_difference(from_blocks, from_csr) < 1e-12);
      }
    }
  }
  SolverOptions jacobi;
  jacobi.preconditioner = Preconditioner::Jacobi;
  CHECK_FALSE(make_conjugate_gradient(jacobi)->takes_node_blocks());
  SolverOptions direct;
  direct.method = SolverMethodId::BandCholesky;
  const auto elastic_blocks = amg::to_block_sparse(box.matrix, 3);
  CHECK_THROWS_AS(make_solver(direct)->prepare(elastic_blocks, box.nodes()), std::logic_error);
  // Blocks that are not the nodes' dofs square are refused, not misread.
  SolverOptions amg_cg;
  amg_cg.preconditioner = Preconditioner::Amg;
  const auto scalar_blocks = amg::to_block_sparse(box.matrix, 1);
  std::vector<double> u(box.rhs.size(), 0.0);
  CHECK_THROWS_AS(make_conjugate_gradient(amg_cg)->solve(AssembledSystem{scalar_blocks, box.rhs, box.nodes()}, u),
                  std::invalid_argument);
}
