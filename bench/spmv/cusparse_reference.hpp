#pragma once
// cuSPARSE's CSR SpMV (FP64) on the same matrix and vectors, the figure our kernels are held to.
#include <memory>

#include "kernels/csr_matrix.hpp"

namespace fem::bench {

class CusparseCsr {
 public:
  enum class Algorithm { Alg1, Alg2 };
  CusparseCsr(const CsrMatrix& a, Algorithm algorithm);
  ~CusparseCsr();
  void apply(const double* x, double* y);  // device pointers
 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace fem::bench
