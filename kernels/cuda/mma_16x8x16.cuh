#pragma once
// One 16 x 8 x 16 step of the FP64 tensor cores (sm_90), the step every FP64
// tensor-core kernel of the project is made of (gemm_dmma.cu, block_column_strip.cuh and the
// kernels that include it).

namespace fem::kernels::cuda {

// D := A B + D. Lane (g = lane / 4, t = lane % 4) holds a[q] = A(g + 8 (q % 2), t + 4 (q / 2)),
// b[q] = B(t + 4 q, g) and d[q] = D(g + 8 (q / 2), 2 t + q % 2).
__device__ inline void mma_16x8x16(double (&d)[4], const double (&a)[8], const double (&b)[4]) {
  asm(
      "mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, "
      "{%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15}, {%0, %1, %2, %3};\n"
      : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
      : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(a[4]), "d"(a[5]), "d"(a[6]), "d"(a[7]), "d"(b[0]),
        "d"(b[1]), "d"(b[2]), "d"(b[3]));
}

}  // namespace fem::kernels::cuda
