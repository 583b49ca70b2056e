// Dense GEMM kernels, compiled at run time with REAL (double or float), TILE (work-items per
// side of a work-group) and WPT (elements per work-item and direction) as definitions.
// C := alpha * op(A) * op(B) + beta * C; op(X)(i, j) = X[x_off + i * x_rs + j * x_cs];
// C row-major with leading dimension ldc; only i >= j when `lower`.

#ifdef REAL_IS_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

// One work-item per element of C, operands read from global memory.
__kernel void gemm_naive(int m, int n, int k, REAL alpha, __global const REAL* a, long a_off,
                         long a_rs, long a_cs, __global const REAL* b, long b_off, long b_rs,
                         long b_cs, REAL beta, __global REAL* c, long c_off, long ldc, int lower) {
  const int j = get_global_id(0);
  const int i = get_global_id(1);
  if (i >= m || j >= n || (lower && j > i)) return;
  REAL sum = 0;
  for (int p = 0; p < k; ++p) sum += a[a_off + i * a_rs + p * a_cs] * b[b_off + p * b_rs + j * b_cs];
  __global REAL* out = c + c_off + i * ldc + j;
  *out = beta == 0 ? alpha * sum : alpha * sum + beta * *out;
}

// Shared (local) memory tiles: a work-group stages TILE-deep slices of a BLOCK-row panel of A
// and a BLOCK-column panel of B (BLOCK = TILE * WPT); each work-item accumulates WPT x WPT
// elements whose rows and columns are TILE apart.
#define BLOCK (TILE * WPT)
__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void gemm_tiled(int m, int n, int k, REAL alpha, __global const REAL* a, long a_off, long a_rs,
                long a_cs, __global const REAL* b, long b_off, long b_rs, long b_cs, REAL beta,
                __global REAL* c, long c_off, long ldc, int lower) {
  const int row0 = get_group_id(1) * BLOCK;
  const int col0 = get_group_id(0) * BLOCK;
  if (lower && col0 > row0 + BLOCK - 1) return;  // the whole group is above the diagonal
  __local REAL as[TILE][BLOCK + 1];  // as[kk][r] = op(A)(row0 + r, k0 + kk)
  __local REAL bs[TILE][BLOCK];      // bs[kk][q] = op(B)(k0 + kk, col0 + q)
  const int tx = get_local_id(0), ty = get_local_id(1);
  const int tid = ty * TILE + tx;
  REAL acc[WPT][WPT];
  for (int r = 0; r < WPT; ++r)
    for (int q = 0; q < WPT; ++q) acc[r][q] = 0;

  for (int k0 = 0; k0 < k; k0 += TILE) {
    for (int e = tid; e < BLOCK * TILE; e += TILE * TILE) {
      const int ar = a_cs == 1 ? e / TILE : e % BLOCK;
      const int ak = a_cs == 1 ? e % TILE : e / BLOCK;
      const int gi = row0 + ar, gk = k0 + ak;
      as[ak][ar] = gi < m && gk < k ? a[a_off + gi * a_rs + gk * a_cs] : 0;
      const int bq = b_cs == 1 ? e % BLOCK : e / TILE;
      const int bk = b_cs == 1 ? e / BLOCK : e % TILE;
      const int gj = col0 + bq, gk2 = k0 + bk;
      bs[bk][bq] = gj < n && gk2 < k ? b[b_off + gk2 * b_rs + gj * b_cs] : 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int kk = 0; kk < TILE; ++kk) {
      REAL a_reg[WPT], b_reg[WPT];
      for (int r = 0; r < WPT; ++r) a_reg[r] = as[kk][ty + TILE * r];
      for (int q = 0; q < WPT; ++q) b_reg[q] = bs[kk][tx + TILE * q];
      for (int r = 0; r < WPT; ++r)
        for (int q = 0; q < WPT; ++q) acc[r][q] += a_reg[r] * b_reg[q];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }

  for (int r = 0; r < WPT; ++r)
    for (int q = 0; q < WPT; ++q) {
      const int i = row0 + ty + TILE * r, j = col0 + tx + TILE * q;
      if (i >= m || j >= n || (lower && j > i)) continue;
      __global REAL* out = c + c_off + i * ldc + j;
      *out = beta == 0 ? alpha * acc[r][q] : alpha * acc[r][q] + beta * *out;
    }
}
