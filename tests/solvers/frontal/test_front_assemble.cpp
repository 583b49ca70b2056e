// The dense back-ends' front_assemble (the frontal method's gather of the old front and a
// step's summed elements) against a direct loop, on every back-end that can run here.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>

#include "kernels/dense_registry.hpp"
#include "tests/support/vectors.hpp"

using namespace fem::kernels;
using fem::testing::random_vector;

namespace {

// n indices into a matrix of `size`: a shuffled selection with about a third left out (-1).
std::vector<std::int32_t> random_indices(index_t n, index_t size, unsigned seed) {
  std::mt19937 gen(seed);
  std::vector<std::int32_t> pool(static_cast<std::size_t>(size));
  for (index_t i = 0; i < size; ++i) pool[i] = static_cast<std::int32_t>(i);
  std::shuffle(pool.begin(), pool.end(), gen);
  std::vector<std::int32_t> out(static_cast<std::size_t>(n), -1);
  std::size_t next = 0;
  for (auto& x : out)
    if (gen() % 3 != 0 && next < pool.size()) x = pool[next++];
  return out;
}

}  // namespace

TEST_CASE("front_assemble gathers the old front and the batch into the new front on every back-end") {
  for (const auto& name : dense_backend_names()) {
    const auto status = dense_backend_status(name);
    if (!status.available) {
      MESSAGE("skipping " << name << ": " << status.reason);
      continue;
    }
    CAPTURE(name);
    auto backend = make_dense_backend(name);
    for (const index_t n : {1, 37, 131}) {
      CAPTURE(n);
      const index_t old_size = n / 2 + 5, batch_size = n / 3 + 2, old_ld = old_size + 3;
      const auto old_values = random_vector(static_cast<std::size_t>(old_size * old_ld), 1 + n);
      const auto batch_values = random_vector(static_cast<std::size_t>(batch_size * batch_size), 2 + n);
      const auto from_index = random_indices(n, old_size, 3 + n);
      const auto batch_index = random_indices(n, batch_size, 4 + n);
      // The old front as a block of a wider matrix, the new one in a matrix with junk above.
      const auto old_storage = backend->upload(old_values.data(), old_size, old_ld, old_ld);
      const auto old_front = old_storage.block(0, 0, old_size, old_size);
      const auto batch = backend->upload(batch_values.data(), batch_size, batch_size, batch_size);
      const std::vector<double> junk(static_cast<std::size_t>((n + 1) * (n + 1)), 7.25);
      const auto to_storage = backend->upload(junk.data(), n + 1, n + 1, n + 1);
      backend->front_assemble(old_front, from_index, batch, batch_index, to_storage.block(1, 1, n, n));
      std::vector<double> result(junk.size());
      backend->download(to_storage, result.data(), n + 1);

      double worst = 0;
      for (index_t i = 0; i < n; ++i)
        for (index_t j = 0; j < n; ++j) {
          const double got = result[(i + 1) * (n + 1) + j + 1];
          if (j > i) {
            CHECK(got == 7.25);  // the upper triangle is left alone
            continue;
          }
          double expected = 0;
          const auto fi = from_index[i], fj = from_index[j], bi = batch_index[i], bj = batch_index[j];
          if (fi >= 0 && fj >= 0) expected += old_values[std::max(fi, fj) * old_ld + std::min(fi, fj)];
          if (bi >= 0 && bj >= 0) expected += batch_values[std::max(bi, bj) * batch_size + std::min(bi, bj)];
          worst = std::max(worst, std::abs(got - expected));
        }
      CHECK(worst == 0);
      for (index_t j = 0; j <= n; ++j) CHECK(result[j] == 7.25);  // the row above the block
    }
  }
}

TEST_CASE("front_assemble rejects indices outside its inputs and a target sharing their storage") {
  auto backend = make_dense_backend("serial");
  const auto old_front = backend->allocate<double>(4, 4);
  const auto batch = backend->allocate<double>(3, 3);
  const auto to = backend->allocate<double>(2, 2);
  CHECK_THROWS_AS(backend->front_assemble(old_front, {0, 4}, batch, {0, 1}, to), std::out_of_range);
  CHECK_THROWS_AS(backend->front_assemble(old_front, {0, 1}, batch, {-2, 1}, to), std::out_of_range);
  CHECK_THROWS_AS(backend->front_assemble(old_front, {0}, batch, {0}, to), std::invalid_argument);
  CHECK_THROWS_AS(backend->front_assemble(old_front, {0, 1}, batch, {0, 1}, old_front.block(0, 2, 2, 2)),
                  std::invalid_argument);
}
