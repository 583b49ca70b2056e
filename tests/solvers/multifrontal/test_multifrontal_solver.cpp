// The multifrontal solver against a dense solve on random FE-like SPD matrices, in FP64 and in
// mixed precision; what it says about an indefinite matrix and about bad input.
#include <doctest/doctest.h>

#include <sys/resource.h>
#include <unistd.h>

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <span>
#include <sstream>
#include <vector>

#include "fem/config.hpp"
#include "solvers/multifrontal/multifrontal_kernels.hpp"
#include "solvers/linear_solver.hpp"
#include "sparse_test_matrices.hpp"
#include "tests/support/vectors.hpp"

using namespace fem;
using testing::max_rel_diff;
using testing::random_vector;

namespace {

SolveReport solve(const CsrMatrix& a, const std::vector<double>& b, std::vector<double>& x, int dofs_per_node,
                  const std::string& precision = "double") {
  SolverOptions options;
  options.method = SolverMethodId::Multifrontal;
  options.precision = *parse_choice<Precision>(precision);
  auto solver = make_solver(options);
  x.assign(a.rows, 0.0);
  NodeLayout layout;
  layout.dofs_per_node = dofs_per_node;
  return solver->solve(AssembledSystem{a, b, layout}, x);
}

}  // namespace

TEST_CASE("multifrontal agrees with a dense solve on FE-like SPD matrices") {
  struct Case {
    int nx, ny, nz, block, layout;
    std::vector<std::int32_t> constrained;
  };
  const std::vector<Case> cases = {
      {7, 6, 5, 3, 3, {0, 1, 2, 3, 5, 77, 400}},  // 3 dofs per node, layout given, some equations fixed
      {7, 6, 5, 3, 1, {0, 1, 2, 3, 5, 77, 400}},  // the same, block size guessed
      {12, 11, 1, 2, 2, {}},                      // 2D, 2 dofs per node
      {9, 8, 6, 1, 1, {4, 9}},                    // scalar (heat-like)
  };
  for (const auto& c : cases) {
    CAPTURE(c.nx);
    CAPTURE(c.block);
    CAPTURE(c.layout);
    const CsrMatrix a = test::random_fe_like_matrix(c.nx, c.ny, c.nz, c.block, 5, c.constrained);
    const auto b = random_vector(a.rows, 9);
    std::vector<double> x;
    const SolveReport report = solve(a, b, x, c.layout);
    CHECK(max_rel_diff(x, test::dense_solve(a, b)) < 1e-10);
    CHECK(report.residual < 1e-13);
    CHECK(report.figures.at("block_size") == c.block);
    CHECK(report.figures.at("supernodes") > 1);
    CHECK(report.figures.at("factor_bytes") > 0);
    // The symbolic estimate is what the factorisation held (its update stacks are sized by it).
    const double estimate = report.figures.at("estimate_bytes"), used = report.figures.at("factorisation_bytes");
    CHECK(estimate >= used);
    CHECK(estimate <= 1.1 * used);
  }
}

TEST_CASE("mixed precision: an FP32 factor refined in FP64 reaches the FP64 answer") {
  const CsrMatrix a = test::random_fe_like_matrix(8, 7, 6, 3, 21, {0, 1, 2});
  const auto b = random_vector(a.rows, 4);
  std::vector<double> x;
  const SolveReport report = solve(a, b, x, 3, "mixed");
  CHECK(report.figures.at("factor_precision_bits") == 32);
  CHECK(report.figures.at("precision_fallback") == 0);
  CHECK(report.figures.at("refinement_steps") >= 1);
  CHECK(max_rel_diff(x, test::dense_solve(a, b)) < 1e-9);
}

TEST_CASE("mixed precision falls back to an FP64 factor where FP32 cannot factor the matrix") {
  // Positive definite (eigenvalues 2 - 1e-9 and 1e-9), singular once rounded to FP32.
  const double c = 1 - 1e-9;
  const CsrMatrix a = test::csr_from(2, {{{0, 0}, 1.0}, {{0, 1}, c}, {{1, 0}, c}, {{1, 1}, 1.0}});
  const std::vector<double> b = {1.0, 2.0};
  std::vector<double> x;
  const SolveReport report = solve(a, b, x, 1, "mixed");
  CHECK(report.figures.at("precision_fallback") == 1);
  CHECK(report.figures.at("factor_precision_bits") == 64);
  CHECK(max_rel_diff(x, test::dense_solve(a, b)) < 1e-6);  // condition number 2e9
}

TEST_CASE("an indefinite matrix fails naming the equation whose pivot is not positive") {
  for (std::int32_t bad : {0, 131, 500}) {
    CAPTURE(bad);
    CsrMatrix a = test::random_fe_like_matrix(7, 6, 5, 3, 8);
    for (auto e = a.row_ptr[bad]; e < a.row_ptr[bad + 1]; ++e)
      if (a.col[e] == bad) a.val[e] = -1.0;  // no earlier pivot sees this entry: the failure is here
    const auto b = random_vector(a.rows, 2);
    std::vector<double> x;
    try {
      solve(a, b, x, 3);
      FAIL("no failure");
    } catch (const SolveFailure& e) {
      CHECK(e.equation() == bad);
      CHECK(std::string(e.what()).find("equation " + std::to_string(bad)) != std::string::npos);
    }
  }
}

TEST_CASE("a singular system (a free body) is refused, naming an equation") {
  // The Laplacian of a grid: positive semi-definite, the constants its null space. Exactly, its
  // last pivot is zero (refused as not positive); shifted by 1e-13 it is positive definite on
  // paper but singular to working precision: the pivots pass, the residual gives it away.
  const int nx = 9, ny = 8;
  for (const double shift : {0.0, 1e-13}) {
    CAPTURE(shift);
    std::map<std::pair<std::int32_t, std::int32_t>, double> entries;
    const auto spring = [&](std::int32_t a, std::int32_t b) {
      entries[{a, a}] += 1, entries[{b, b}] += 1, entries[{a, b}] -= 1, entries[{b, a}] -= 1;
    };
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x) {
        if (x + 1 < nx) spring(y * nx + x, y * nx + x + 1);
        if (y + 1 < ny) spring(y * nx + x, (y + 1) * nx + x);
        entries[{y * nx + x, y * nx + x}] += shift;
      }
    const CsrMatrix a = test::csr_from(nx * ny, entries);
    const std::vector<double> b(a.rows, 1.0);  // along the constants: no solution worth the name
    std::vector<double> x;
    try {
      solve(a, b, x, 1);
      FAIL("no failure");
    } catch (const SolveFailure& e) {
      CHECK(e.equation() >= 0);
      CHECK(e.equation() < a.rows);
      CHECK(std::string(e.what()).find(shift > 0 ? "singular" : "not positive") != std::string::npos);
    }
  }
}

TEST_CASE("bad input is refused with a clear message") {
  const CsrMatrix a = test::random_fe_like_matrix(3, 3, 3, 3, 1);
  std::vector<double> b(a.rows, 1.0), x(a.rows - 1);
  SolverOptions options;
  options.method = SolverMethodId::Multifrontal;
  CHECK_THROWS_AS(make_solver(options)->solve(AssembledSystem{a, b}, x), std::invalid_argument);
  const CsrMatrix empty;
  std::vector<double> none;
  CHECK(make_solver(options)->solve(AssembledSystem{empty, none}, none).residual == 0);
}

namespace {

// A sparse SPD matrix whose graph is an expander (each equation coupled to three random others):
// no ordering keeps its factor small.
CsrMatrix random_expander_matrix(std::int32_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<std::int32_t> any(0, n - 1);
  std::map<std::pair<std::int32_t, std::int32_t>, double> entries;
  for (std::int32_t i = 0; i < n; ++i) {
    entries[{i, i}] += 1.0;
    for (int k = 0; k < 3; ++k) {
      const std::int32_t j = any(rng);
      if (j == i) continue;
      entries[{i, j}] -= 1.0;
      entries[{j, i}] -= 1.0;
      entries[{i, i}] += 1.0;
      entries[{j, j}] += 1.0;
    }
  }
  return test::csr_from(n, entries);
}

constexpr const char* kLimitedChild = "FEM_TEST_ADDRESS_SPACE_LIMITED";

}  // namespace

TEST_CASE("address-space limited child: a factorisation larger than what is left is refused before it allocates") {
  if (std::getenv(kLimitedChild) == nullptr) return;  // run by the next test, in a process of its own
  // What this process maps now, and 256 MiB more (the factor needs about 1.3 GiB).
  std::ifstream statm("/proc/self/statm");
  std::size_t pages = 0;
  statm >> pages;
  const rlim_t cap = static_cast<rlim_t>(pages) * static_cast<rlim_t>(sysconf(_SC_PAGESIZE)) + (rlim_t{256} << 20);
  const rlimit limit{cap, cap};
  REQUIRE(setrlimit(RLIMIT_AS, &limit) == 0);
  const CsrMatrix a = random_expander_matrix(16000, 5);
  std::vector<double> b(a.rows, 1.0), x(a.rows);
  SolverOptions options;
  options.method = SolverMethodId::Multifrontal;
  CHECK_THROWS_WITH_AS(make_solver(options)->solve(AssembledSystem{a, b}, x),
                       doctest::Contains("the multifrontal factorisation of 16000 equations"), SolveFailure);
}

TEST_CASE("under an address-space limit (ulimit -v) a factorisation that would not fit is refused, naming it") {
  // The limit in a process of its own (this test binary again, the test above alone), whose
  // threads are few: each takes its stack's address space.
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe");
  const std::filesystem::path log = std::filesystem::temp_directory_path() / ("fem_limited_" + std::to_string(getpid()));
  const std::string command = std::string(kLimitedChild) + "=1 OMP_NUM_THREADS=2 OPENBLAS_NUM_THREADS=1 '" +
                              self.string() + "' '--test-case=address-space limited child*' > '" + log.string() +
                              "' 2>&1";
  const int status = std::system(command.c_str());
  std::ifstream in(log);
  std::stringstream output;
  output << in.rdbuf();
  std::filesystem::remove(log);
  CAPTURE(output.str());
  CHECK(status == 0);
  CHECK(output.str().find("1 passed") != std::string::npos);
}

TEST_CASE("the substitution shared among threads gives one thread's answer, for one and for several right-hand sides") {
  // 14^3 nodes of 3 unknowns: subtrees for every thread and separator fronts above them large
  // enough to be split by rows and by columns.
  const CsrMatrix a = test::random_fe_like_matrix(14, 14, 14, 3, 11, {0, 1, 2, 100});
  const std::int64_t n = a.rows;
  std::vector<double> b;
  for (unsigned seed = 21; seed < 24; ++seed) {
    const auto one = random_vector(n, seed);
    b.insert(b.end(), one.begin(), one.end());
  }
  const auto solve_with = [&](int threads, int count) {
    const int before = omp_get_max_threads();
    omp_set_num_threads(threads);
    SolverOptions options;
    options.method = SolverMethodId::Multifrontal;
    auto solver = make_solver(options);
    NodeLayout layout;
    layout.dofs_per_node = 3;
    auto prepared = solver->prepare(a, layout);
    std::vector<double> x(static_cast<std::size_t>(n * count), 0.0);
    prepared->solve(std::span<const double>(b.data(), static_cast<std::size_t>(n * count)), x, count);
    omp_set_num_threads(before);
    return x;
  };
  const std::vector<double> serial = solve_with(1, 3);
  for (int i = 0; i < 3; ++i) {  // each right-hand side solved: A x = b to rounding
    const std::vector<double> xi(serial.begin() + i * n, serial.begin() + (i + 1) * n);
    const std::vector<double> bi(b.begin() + i * n, b.begin() + (i + 1) * n);
    std::vector<double> ax(static_cast<std::size_t>(n), 0.0);
    for (std::int64_t r = 0; r < n; ++r)
      for (std::int64_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) ax[r] += a.val[k] * xi[a.col[k]];
    CHECK(max_rel_diff(ax, bi) < 1e-10);
  }
  for (int threads : {2, 4, 7}) {
    CAPTURE(threads);
    CHECK(max_rel_diff(solve_with(threads, 3), serial) < 1e-12);
    const std::vector<double> first = solve_with(threads, 1);
    CHECK(max_rel_diff(first, std::vector<double>(serial.begin(), serial.begin() + n)) < 1e-12);
  }
}

TEST_CASE("the multifrontal device kernels are there for cuda exactly when the build has CUDA") {
  CHECK(multifrontal::multifrontal_kernels_for("cpu") == nullptr);
  const multifrontal::MultifrontalKernels* cuda = multifrontal::multifrontal_kernels_for("cuda");
  CHECK((cuda != nullptr) == bool(FEM_WITH_CUDA));
  // The elimination's workspaces grow with the largest front (a diagonal block's inverse and a
  // block row's scratch).
  if (cuda) CHECK(cuda->workspace_entries(2000) > cuda->workspace_entries(100));
}
