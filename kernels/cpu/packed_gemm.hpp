#pragma once
// Cache-blocked, packed GEMM on host memory, parallel with OpenMP. Operands are packed into
// contiguous micro-panels so the innermost loop reads both with unit stride and vectorises
// (the "transpose B first" lesson of the matrix-algebra paper, generalised to blocks).

#include "kernels/cpu/strided_view.hpp"
#include "kernels/dense_backend.hpp"

namespace fem::kernels::cpu {

// C := alpha * A * B + beta * C on the part of C that `fill` names; A and B are op-applied
// views of any strides, C has unit column stride. Uses omp_get_max_threads() threads.
void packed_gemm(double alpha, StridedView<const double> a, StridedView<const double> b,
                 double beta, StridedView<double> c, Fill fill);
void packed_gemm(float alpha, StridedView<const float> a, StridedView<const float> b, float beta,
                 StridedView<float> c, Fill fill);

}  // namespace fem::kernels::cpu
