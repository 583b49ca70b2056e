// Unblocked Cholesky and triangular solve of one diagonal tile (at most MAX_TILE wide), the
// small serial steps of the blocked algorithms; REAL and MAX_TILE come as definitions.

// Right-looking Cholesky of the tile by one work-group; info[0] := first bad pivot or -1.
__kernel void potrf_tile(__global REAL* a, long a_off, long lda, int n, __global int* info) {
  __local REAL t[MAX_TILE][MAX_TILE + 1];
  __local int failed;
  const int id = get_local_id(0), size = get_local_size(0);
  for (int e = id; e < n * n; e += size) {
    const int i = e / n, j = e % n;
    if (j <= i) t[i][j] = a[a_off + i * lda + j];
  }
  if (id == 0) {
    failed = 0;
    info[0] = -1;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int j = 0; j < n; ++j) {
    if (id == 0) {
      if (t[j][j] > 0) {
        t[j][j] = sqrt(t[j][j]);
      } else {
        failed = 1;
        info[0] = j;
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (failed) return;
    for (int i = j + 1 + id; i < n; i += size) t[i][j] /= t[j][j];
    barrier(CLK_LOCAL_MEM_FENCE);
    const int rest = n - j - 1;
    for (int e = id; e < rest * rest; e += size) {
      const int i = j + 1 + e / rest, q = j + 1 + e % rest;
      if (q <= i) t[i][q] -= t[i][j] * t[q][j];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (int e = id; e < n * n; e += size) {
    const int i = e / n, j = e % n;
    if (j <= i) a[a_off + i * lda + j] = t[i][j];
  }
}

// tri * X = B for every column of B, one work-item per column; tri(i, k) =
// l[l_off + i * l_rs + k * l_cs] is lower or upper triangular; B(i, j) = b[b_off + i*b_rs + j*b_cs].
__kernel void trsm_tile(__global const REAL* l, long l_off, long l_rs, long l_cs, int lower, int n,
                        __global REAL* b, long b_off, long b_rs, long b_cs, int m) {
  __local REAL t[MAX_TILE][MAX_TILE + 1];
  const int id = get_local_id(0), size = get_local_size(0);
  for (int e = id; e < n * n; e += size) {
    const int i = e / n, k = e % n;
    t[i][k] = (lower ? k <= i : k >= i) ? l[l_off + i * l_rs + k * l_cs] : 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const int j = get_global_id(0);
  if (j >= m) return;
  __global REAL* x = b + b_off + j * b_cs;
  for (int step = 0; step < n; ++step) {
    const int i = lower ? step : n - 1 - step;
    REAL sum = x[i * b_rs];
    if (lower)
      for (int k = 0; k < i; ++k) sum -= t[i][k] * x[k * b_rs];
    else
      for (int k = i + 1; k < n; ++k) sum -= t[i][k] * x[k * b_rs];
    x[i * b_rs] = sum / t[i][i];
  }
}
