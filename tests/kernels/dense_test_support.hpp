#pragma once
// Shared by the dense-kernel tests: random inputs with a fixed seed, an independent naive
// product, error norms, and one cached instance of each back-end (OpenCL compiles its kernels
// once per instance).

#include "kernels/dense_registry.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <random>
#include <vector>

namespace fem::kernels::test {

// A row-major host matrix with its own storage.
template <class T>
struct HostMatrix {
  index_t rows = 0, cols = 0;
  std::vector<T> data;
  HostMatrix(index_t r, index_t c) : rows(r), cols(c), data(static_cast<std::size_t>(r * c)) {}
  T& operator()(index_t i, index_t j) { return data[static_cast<std::size_t>(i * cols + j)]; }
  T operator()(index_t i, index_t j) const { return data[static_cast<std::size_t>(i * cols + j)]; }
};

// Uniform in [-1, 1]: non-symmetric, no structure that could hide an indexing error.
template <class T>
HostMatrix<T> random_matrix(index_t rows, index_t cols, unsigned seed) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  HostMatrix<T> m(rows, cols);
  for (auto& v : m.data) v = static_cast<T>(dist(gen));
  return m;
}

// M Mᵀ / n + I: symmetric positive definite and well conditioned; the strict upper triangle
// is filled with a marker the factorisation must leave alone.
template <class T>
HostMatrix<T> random_spd(index_t n, unsigned seed, T upper_marker) {
  const auto m = random_matrix<double>(n, n, seed);
  HostMatrix<T> a(n, n);
  for (index_t i = 0; i < n; ++i)
    for (index_t j = 0; j < n; ++j) {
      double s = i == j ? 1.0 : 0.0;
      for (index_t k = 0; k < n; ++k) s += m(i, k) * m(j, k) / static_cast<double>(n);
      a(i, j) = j > i ? upper_marker : static_cast<T>(s);
    }
  return a;
}

// Lower triangular with a dominant diagonal in [1, 2]: well conditioned, unlike a random one;
// the strict upper triangle holds junk the solvers must not read.
template <class T>
HostMatrix<T> random_lower(index_t n, unsigned seed) {
  auto l = random_matrix<T>(n, n, seed);
  for (index_t i = 0; i < n; ++i) {
    for (index_t j = 0; j < i; ++j) l(i, j) /= static_cast<T>(n);
    l(i, i) = static_cast<T>(1.5) + l(i, i) / 2;
    for (index_t j = i + 1; j < n; ++j) l(i, j) = static_cast<T>(1e30);
  }
  return l;
}

// op(X)(i, j) of a host matrix.
template <class T>
T at(const HostMatrix<T>& x, Op op, index_t i, index_t j) {
  return op == Op::none ? x(i, j) : x(j, i);
}

// ‖x - ref‖_F / ‖ref‖_F
template <class T>
double relative_error(const HostMatrix<T>& x, const HostMatrix<T>& ref) {
  double diff = 0, norm = 0;
  for (std::size_t e = 0; e < ref.data.size(); ++e) {
    diff += std::pow(static_cast<double>(x.data[e]) - static_cast<double>(ref.data[e]), 2);
    norm += std::pow(static_cast<double>(ref.data[e]), 2);
  }
  return std::sqrt(diff / norm);
}

template <class T>
double tolerance() {
  return std::is_same_v<T, double> ? 1e-12 : 1e-4;  // float: stated, eps_float ~ 6e-8 times sizes
}

inline DenseBackend& serial() {
  static auto backend = make_dense_backend("serial");
  return *backend;
}

// The back-end `name`, created once; null (with a MESSAGE) where it cannot run here.
inline DenseBackend* backend_or_skip(const std::string& name) {
  static std::map<std::string, std::unique_ptr<DenseBackend>> cache;
  const auto status = dense_backend_status(name);
  if (!status.available) {
    MESSAGE("skipping back-end '" << name << "': " << status.reason);
    return nullptr;
  }
  auto& slot = cache[name];
  if (!slot) slot = make_dense_backend(name);
  return slot.get();
}

// Every back-end compared with the serial reference.
inline std::vector<std::string> compared_backends() {
  return {"openmp", "cuda", "cuda-naive", "cublas", "opencl", "opencl-naive"};
}

// Runs `operation` on a copy of `x` with the back-end and returns the result.
template <class T, class Operation>
HostMatrix<T> run_on(DenseBackend& backend, const HostMatrix<T>& x, Operation operation) {
  auto device = backend.upload(x.data.data(), x.rows, x.cols, x.cols);
  operation(device);
  HostMatrix<T> result(x.rows, x.cols);
  backend.download(device, result.data.data(), result.cols);
  return result;
}

}  // namespace fem::kernels::test
