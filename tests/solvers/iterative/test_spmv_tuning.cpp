// SpMV tuning on the host: the model's ranking where the answer is known, the tuning cache (round
// trip, which shapes share an entry, broken files, atomic writes), the timing sample, and the
// tuner's use of them with a stand-in timer. The devices' own tuners are tested beside their
// kernels (test_spmv_opencl, test_spmv_cuda).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <stdexcept>

#include "kernels/shared/spmv_autotune.hpp"
#include "tests/solvers/iterative/scoped_cache_directory.hpp"
#include "tests/solvers/iterative/test_matrices.hpp"

using namespace fem;
using namespace fem::kernels;

namespace {

// The 5-point Laplacian of an nx x ny grid in natural order: five diagonals.
CsrMatrix grid_laplacian(int nx, int ny) {
  CsrMatrix a;
  a.rows = std::int64_t(nx) * ny;
  for (std::int64_t i = 0; i < a.rows; ++i) {
    for (const std::int64_t j : {i - nx, i - 1, i, i + 1, i + nx})
      if (j >= 0 && j < a.rows) {
        a.col.push_back(static_cast<std::int32_t>(j));
        a.val.push_back(j == i ? 4.0 : -1.0 + 0.001 * static_cast<double>(i % 7));
      }
    a.row_ptr.push_back(static_cast<std::int64_t>(a.col.size()));
  }
  return a;
}

// Row lengths from a power law (most rows 8-20 entries, a few up to 2000), random columns: a
// citation or social graph's adjacency.
CsrMatrix power_law_rows(std::int64_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::uniform_int_distribution<std::int32_t> column(0, static_cast<std::int32_t>(n - 1));
  CsrMatrix a;
  a.rows = n;
  std::set<std::int32_t> cols;
  for (std::int64_t i = 0; i < n; ++i) {
    const auto pareto = 8 * std::pow(1.0 - uniform(rng), -1.0 / 1.5);
    const auto length = std::min<std::int64_t>(2000, static_cast<std::int64_t>(pareto));
    cols.clear();
    while (static_cast<std::int64_t>(cols.size()) < length) cols.insert(column(rng));
    for (auto c : cols) a.col.push_back(c), a.val.push_back(uniform(rng));
    a.row_ptr.push_back(static_cast<std::int64_t>(a.col.size()));
  }
  return a;
}

// A few settings of every layout, as a device would list them.
std::vector<SpmvCandidate> every_layout() {
  return {{"cds", SpmvLayout::Cds, 1, 0.97},        {"bell", SpmvLayout::Bell, 1, 0.95},
          {"bcsr/t16", SpmvLayout::Bcsr, 16, 0.92}, {"bcsr/t1", SpmvLayout::Bcsr, 1, 0.92},
          {"dia", SpmvLayout::Dia, 1, 0.94},        {"sell", SpmvLayout::Sell, 1, 0.85},
          {"ell", SpmvLayout::Ell, 1, 0.80},        {"csr/t32", SpmvLayout::Csr, 32, 0.80},
          {"csr/t8", SpmvLayout::Csr, 8, 0.80},     {"csr/t2", SpmvLayout::Csr, 2, 0.80},
          {"hyb", SpmvLayout::Hyb, 1, 0.70},        {"csr", SpmvLayout::Csr, 1, 0.30}};
}

SpmvLayout first_layout(const CsrMatrix& a) {
  return rank_by_model(row_statistics(a), every_layout(), 1e12).front().candidate.layout;
}

// Options for a tuner run against a cache in `directory`, warnings collected.
SpmvAutotuneOptions options_in(const std::filesystem::path& directory, std::vector<std::string>* warnings = nullptr) {
  SpmvAutotuneOptions o;
  o.device = "test device, driver 1";
  o.cache = SpmvTuningCache(directory, [warnings](const std::string& w) {
    if (warnings) warnings->push_back(w);
  });
  return o;
}

}  // namespace

TEST_CASE("the model ranks the layouts where the answer is known") {
  // Five diagonals: DIA stores no index at all.
  CHECK(first_layout(grid_laplacian(60, 50)) == SpmvLayout::Dia);
  // Without DIA (OpenCL), a banded matrix's even rows suit the sliced-ELL kernels best.
  auto no_dia = every_layout();
  std::erase_if(no_dia, [](const auto& c) { return c.layout == SpmvLayout::Dia; });
  const auto banded = rank_by_model(row_statistics(grid_laplacian(60, 50)), no_dia, 1e12);
  CHECK((banded.front().candidate.layout == SpmvLayout::Sell || banded.front().candidate.layout == SpmvLayout::Ell));
  // Power-law rows: padding formats blow up; vector CSR with a team per row.
  const CsrMatrix web = power_law_rows(20000, 3);
  const auto ranked = rank_by_model(row_statistics(web), every_layout(), 1e12);
  CHECK(ranked.front().candidate.layout == SpmvLayout::Csr);
  CHECK(ranked.front().candidate.lanes > 1);
  CHECK(std::isinf(spmv_bytes(row_statistics(web), SpmvLayout::Ell)));
  CHECK(std::isinf(spmv_bytes(row_statistics(web), SpmvLayout::Dia)));
  // Nodal elasticity: whole 3x3 blocks, one index per 9 values.
  const SpmvLayout blocks = first_layout(testing::elasticity_box(8, 6, 6).matrix);
  CHECK((blocks == SpmvLayout::Bell || blocks == SpmvLayout::Bcsr || blocks == SpmvLayout::Cds));
  // A small blocked matrix on a large GPU: one thread per block row (BELL, CDS) leaves it idle;
  // wide teams per row or block row fill it.
  const RowStats small_box = row_statistics(testing::elasticity_box(12, 8, 8).matrix);
  const auto small = rank_by_model(small_box, every_layout(), 1e12, 135168);
  CHECK(small.front().candidate.lanes >= 8);
  for (std::size_t k = 0; k < 3; ++k)
    CHECK((small[k].candidate.layout != SpmvLayout::Bell && small[k].candidate.layout != SpmvLayout::Cds));
  // One lane per block row reads 27 blocks in sequence: far behind a team of 16.
  const RowStats box = row_statistics(testing::elasticity_box(8, 6, 6).matrix);
  CHECK(team_use(box, SpmvLayout::Bcsr, 16) > 2 * team_use(box, SpmvLayout::Bcsr, 1));
}

TEST_CASE("the model's bytes are the formats' own on a small matrix") {
  // Tridiagonal, 96 rows: CSR moves 12 bytes a nonzero and 8 a row pointer; DIA 8 per stored
  // entry of its 3 diagonals; both read x and write y once.
  CsrMatrix a;
  a.rows = 96;
  for (std::int64_t i = 0; i < a.rows; ++i) {
    for (std::int64_t j = std::max<std::int64_t>(0, i - 1); j <= std::min<std::int64_t>(a.rows - 1, i + 1); ++j)
      a.col.push_back(static_cast<std::int32_t>(j)), a.val.push_back(1.0);
    a.row_ptr.push_back(static_cast<std::int64_t>(a.col.size()));
  }
  const RowStats s = row_statistics(a);
  CHECK(s.nnz == 3 * 96 - 2);
  CHECK(s.slice_slots == 3 * 96);
  CHECK(spmv_bytes(s, SpmvLayout::Csr) == doctest::Approx(12.0 * s.nnz + 8.0 * 97 + 16.0 * 96));
  CHECK(spmv_bytes(s, SpmvLayout::Dia) == doctest::Approx(8.0 * 3 * 96 + 16.0 * 96));
  CHECK(std::isinf(spmv_bytes(s, SpmvLayout::Bell)));  // not 3x3 blocks
}

TEST_CASE("the tuning cache keeps settings per device and shape, and similar matrices share them") {
  const testing::ScopedCacheDirectory dir;
  std::vector<std::string> warnings;
  const SpmvTuningCache cache(dir.path(), [&](const std::string& w) { warnings.push_back(w); });
  const std::string box = spmv_shape_key(row_statistics(testing::elasticity_box(20, 10, 10).matrix));
  CHECK_FALSE(cache.find("GPU A", box));
  cache.store("GPU A", box, "bell/b256");
  cache.store("GPU B", box, "csr-vector/t8");
  CHECK(cache.find("GPU A", box) == "bell/b256");
  CHECK(cache.find("GPU B", box) == "csr-vector/t8");
  CHECK_FALSE(cache.find("GPU C", box));  // another device
  cache.store("GPU A", box, "cds");       // replaced, not added
  CHECK(cache.find("GPU A", box) == "cds");
  // A slightly larger box of the same kind is "a similar case"; a 2D heat problem, a box 27
  // times larger and a random matrix are not.
  CHECK(spmv_shape_key(row_statistics(testing::elasticity_box(20, 10, 11).matrix)) == box);
  CHECK(spmv_shape_key(row_statistics(testing::elasticity_box(60, 30, 30).matrix)) != box);
  CHECK(spmv_shape_key(row_statistics(testing::heat_square(60, 60).matrix)) != box);
  CHECK(spmv_shape_key(row_statistics(testing::random_irregular(3993, 80, 4))) != box);
  CHECK(warnings.empty());
  // Written through a temporary file renamed over the cache: nothing else is left in the folder.
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) files.push_back(entry.path());
  REQUIRE(files.size() == 1);
  CHECK(files[0] == cache.file());
}

TEST_CASE("a corrupt, foreign or unwritable tuning cache is ignored with one warning") {
  const testing::ScopedCacheDirectory dir;
  std::vector<std::string> warnings;
  const SpmvTuningCache cache(dir.path(), [&](const std::string& w) { warnings.push_back(w); });
  // The file as `text` (appended to what is there or replacing it): found nothing, said `why` once.
  auto ignored_as = [&](const std::string& text, std::ios::openmode mode, const char* why) {
    std::ofstream(cache.file(), mode) << text;
    warnings.clear();
    CHECK_FALSE(cache.find("GPU", "shape"));
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0].find(why) != std::string::npos);
  };
  cache.store("GPU", "shape", "ell");
  ignored_as("GPU\tno setting here\n", std::ios::app, "corrupt");
  cache.store("GPU", "shape", "sell");  // replaces the broken file
  CHECK(cache.find("GPU", "shape") == "sell");
  ignored_as("fem spmv tuning cache v0\nGPU\tshape\tell\n", std::ios::trunc, "another version");
  ignored_as("\x01\x02 not a cache\n", std::ios::trunc, "corrupt");
  // A cache folder that is a file: storing warns instead of failing the solve.
  const SpmvTuningCache blocked(cache.file(), [&](const std::string& w) { warnings.push_back(w); });
  warnings.clear();
  CHECK_NOTHROW(blocked.store("GPU", "shape", "ell"));
  CHECK(warnings.size() == 1);
}

TEST_CASE("the cache folder comes from FEM_CACHE_DIR, else XDG_CACHE_HOME, else HOME") {
  const testing::ScopedCacheDirectory dir;
  CHECK(spmv_cache_directory() == dir.path());
  ::unsetenv("FEM_CACHE_DIR");
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  const std::string saved_xdg = xdg ? xdg : "";
  ::setenv("XDG_CACHE_HOME", "/somewhere", 1);
  CHECK(spmv_cache_directory() == std::filesystem::path("/somewhere/fem"));
  ::unsetenv("XDG_CACHE_HOME");
  if (const char* home = std::getenv("HOME"))
    CHECK(spmv_cache_directory() == std::filesystem::path(home) / ".cache" / "fem");
  if (!saved_xdg.empty()) ::setenv("XDG_CACHE_HOME", saved_xdg.c_str(), 1);
}

TEST_CASE("the timing sample keeps a banded matrix's diagonals and blocks, and an unstructured one's row lengths") {
  const CsrMatrix banded = grid_laplacian(300, 200);
  const auto sample = timing_sample(banded, 20000);
  REQUIRE(sample);
  CHECK(sample->rows % 96 == 0);
  CHECK(sample->nnz() <= 20000);
  CHECK(row_statistics(*sample).diagonals == 5);
  CHECK_FALSE(timing_sample(banded, banded.nnz()));  // small enough: timed whole
  const CsrMatrix box = testing::elasticity_box(16, 8, 8).matrix;
  const auto box_sample = timing_sample(box, box.nnz() / 4);
  REQUIRE(box_sample);
  CHECK(row_statistics(*box_sample).block3);
  // Random columns: wrapped around the window, so every row keeps (nearly) its length.
  const CsrMatrix random = power_law_rows(30000, 5);
  const auto wrapped = timing_sample(random, random.nnz() / 10);
  REQUIRE(wrapped);
  const std::int64_t first = (random.rows - wrapped->rows) / 2 / 96 * 96;
  const std::int64_t entries = random.row_ptr[first + wrapped->rows] - random.row_ptr[first];
  CHECK(wrapped->nnz() >= 0.95 * static_cast<double>(entries));
  CHECK_NOTHROW(check_csr(*wrapped));
}

TEST_CASE("the tuner times only the model's first few, keeps the fastest, and the cache skips the timing") {
  const testing::ScopedCacheDirectory dir;
  const CsrMatrix a = testing::elasticity_box(8, 6, 6).matrix;
  const auto candidates = every_layout();
  const auto ranked = rank_by_model(row_statistics(a), candidates, 1e12);
  // The stand-in device: the model's third choice is really the fastest; "bell" does not fit.
  std::map<std::string, double> device_seconds;
  for (std::size_t k = 0; k < ranked.size(); ++k)
    device_seconds[ranked[k].candidate.setting] = 1e-3 * static_cast<double>(k + 1);
  device_seconds[ranked[2].candidate.setting] = 1e-4;
  std::set<std::string> timed;
  const SpmvTimer timer = [&](const CsrMatrix& m, const std::string& setting, int repeats) {
    CHECK(m.rows == a.rows);
    CHECK(repeats >= 1);
    timed.insert(setting);
    return device_seconds.at(setting);
  };
  auto options = options_in(dir.path());
  const auto first = autotune_spmv(a, candidates, timer, options);
  CHECK(first.source == "timed");
  CHECK(timed.size() == 3);
  CHECK(first.timed.size() == 3);
  CHECK(first.setting == ranked[2].candidate.setting);
  CHECK(first.seconds > 0);
  // Again: from the cache, nothing timed.
  timed.clear();
  const auto second = autotune_spmv(a, candidates, timer, options);
  CHECK(second.source == "cache");
  CHECK(second.setting == first.setting);
  CHECK(timed.empty());
  // fresh times again; model never times; another device misses the cache.
  options.tuning = SpmvTuning::Fresh;
  CHECK(autotune_spmv(a, candidates, timer, options).source == "timed");
  CHECK(timed.size() == 3);
  timed.clear();
  options.tuning = SpmvTuning::Model;
  const auto model = autotune_spmv(a, candidates, timer, options);
  CHECK(model.source == "model");
  CHECK(model.setting == ranked.front().candidate.setting);
  CHECK(timed.empty());
  options.tuning = SpmvTuning::Cache;
  options.device = "another device";
  CHECK(autotune_spmv(a, candidates, timer, options).source == "timed");
  std::map<std::string, double> figures;
  second.record(figures);
  CHECK(figures.at("spmv_tuning_cached") == 1.0);
  CHECK(figures.at("spmv_tuning_timed") == 0.0);
}

TEST_CASE("a candidate that refuses the sample gives way to the next in rank") {
  const testing::ScopedCacheDirectory dir;
  const CsrMatrix a = testing::elasticity_box(8, 6, 6).matrix;
  const auto candidates = every_layout();
  const std::string refused = rank_by_model(row_statistics(a), candidates, 1e12).front().candidate.setting;
  std::vector<std::string> asked;
  const SpmvTimer timer = [&](const CsrMatrix&, const std::string& setting, int) {
    asked.push_back(setting);
    if (setting == refused) throw FormatRefused("padding");
    return 1e-3;
  };
  const auto result = autotune_spmv(a, candidates, timer, options_in(dir.path()));
  CHECK(result.timed.size() == 3);
  CHECK(result.setting != refused);
  CHECK(std::count(asked.begin(), asked.end(), refused) == 1);
}

TEST_CASE("auto settings carry the tuning mode") {
  CHECK(auto_spmv_tuning("auto") == SpmvTuning::Cache);
  CHECK(auto_spmv_tuning(auto_spmv_setting("fresh")) == SpmvTuning::Fresh);
  CHECK(auto_spmv_tuning(auto_spmv_setting("model")) == SpmvTuning::Model);
  CHECK(auto_spmv_setting("cache") == "auto");
  CHECK_FALSE(auto_spmv_tuning("bell/b256"));
  CHECK_THROWS_AS(auto_spmv_tuning("auto/sometimes"), std::invalid_argument);
}
