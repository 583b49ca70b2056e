// Vector kernels of CG on OpenCL: work-group partial sums, finished by one work-group on the
// device so only the final scalars are read back. GROUP (a power of two) is a -D definition.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#ifndef GROUP
#define GROUP 256
#endif

// Sums value over the work-group; the result is valid in work-item 0.
double group_sum(double value, __local double* scratch) {
  const int l = get_local_id(0);
  scratch[l] = value;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = GROUP / 2; s > 0; s >>= 1) {
    if (l < s) scratch[l] += scratch[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  return scratch[0];
}

__kernel __attribute__((reqd_work_group_size(GROUP, 1, 1)))
void dot_partial(const long n, __global const double* x, __global const double* y, __global double* partial) {
  __local double scratch[GROUP];
  double s = 0.0;
  for (long i = get_global_id(0); i < n; i += get_global_size(0)) s += x[i] * y[i];
  s = group_sum(s, scratch);
  if (get_local_id(0) == 0) partial[get_group_id(0)] = s;
}

// u += alpha p; r -= alpha q; partial sums of r.(D r), then of r.r, (D = 1 when has_diag = 0).
__kernel __attribute__((reqd_work_group_size(GROUP, 1, 1)))
void cg_update(const long n, const double alpha, __global const double* p, __global const double* q,
               __global double* u, __global double* r, __global const double* inv_diag, const int has_diag,
               __global double* partial) {
  __local double scratch[GROUP];
  double rz = 0.0, rr = 0.0;
  for (long i = get_global_id(0); i < n; i += get_global_size(0)) {
    u[i] += alpha * p[i];
    const double ri = r[i] - alpha * q[i];
    r[i] = ri;
    rz += ri * (has_diag ? inv_diag[i] * ri : ri);
    rr += ri * ri;
  }
  rz = group_sum(rz, scratch);
  if (get_local_id(0) == 0) partial[get_group_id(0)] = rz;
  barrier(CLK_LOCAL_MEM_FENCE);
  rr = group_sum(rr, scratch);
  if (get_local_id(0) == 0) partial[get_num_groups(0) + get_group_id(0)] = rr;
}

// p = D r + beta p (p is not read when beta = 0: it may be unset)
__kernel void cg_direction(const long n, const double beta, __global const double* r, __global const double* inv_diag,
                           const int has_diag, __global double* p) {
  const long i = get_global_id(0);
  if (i < n) p[i] = (has_diag ? inv_diag[i] * r[i] : r[i]) + (beta != 0.0 ? beta * p[i] : 0.0);
}

// y = a x + b y (y is not read when b = 0: it may be unset)
__kernel void axpby(const long n, const double a, __global const double* x, const double b, __global double* y) {
  const long i = get_global_id(0);
  if (i < n) y[i] = a * x[i] + (b != 0.0 ? b * y[i] : 0.0);
}

// out[0..count) = sums of `count` consecutive runs of `groups` partials; one work-group.
__kernel __attribute__((reqd_work_group_size(GROUP, 1, 1)))
void finish_sums(const int groups, const int count, __global const double* partial, __global double* out) {
  __local double scratch[GROUP];
  for (int c = 0; c < count; ++c) {
    double s = 0.0;
    for (int g = get_local_id(0); g < groups; g += GROUP) s += partial[c * groups + g];
    s = group_sum(s, scratch);
    if (get_local_id(0) == 0) out[c] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

// The smoothing step of AMG scaled by a diagonal s: d = a (s .* r) + b d; x = c x + d (d is not
// read when b = 0, x not when c = 0).
__kernel void diagonal_step(const long n, const double a, __global const double* s, __global const double* r,
                            const double b, __global double* d, const double c, __global double* x) {
  const long i = get_global_id(0);
  if (i >= n) return;
  const double di = a * s[i] * r[i] + (b != 0.0 ? b * d[i] : 0.0);
  d[i] = di;
  x[i] = (c != 0.0 ? c * x[i] : 0.0) + di;
}

#ifdef BLOCK_R
// y = alpha A x + beta y (y not read when beta = 0) for a block matrix of BLOCK_R x BLOCK_C
// blocks of BLOCK_VALUE (float or double; row-major) on double vectors: LANES work-items share a block row,
// striding over its blocks, and their partial sums meet in local memory. BLOCK_GROUP work-items
// per work-group (a multiple of LANES, both powers of two).
__kernel __attribute__((reqd_work_group_size(BLOCK_GROUP, 1, 1)))
void block_spmv(const long block_rows, __global const long* row_ptr, __global const int* col,
                __global const BLOCK_VALUE* val, const double alpha, __global const double* x, const double beta,
                __global double* y) {
  __local double partial[BLOCK_R * BLOCK_GROUP];
  const int l = get_local_id(0), lane = l % LANES;
  const long row = get_global_id(0) / LANES;
  double s[BLOCK_R];
  for (int r = 0; r < BLOCK_R; ++r) s[r] = 0.0;
  if (row < block_rows)
    for (long k = row_ptr[row] + lane; k < row_ptr[row + 1]; k += LANES) {
      __global const BLOCK_VALUE* b = val + k * (BLOCK_R * BLOCK_C);
      __global const double* xc = x + (long)col[k] * BLOCK_C;
      for (int c = 0; c < BLOCK_C; ++c) {
        const double xv = xc[c];
        for (int r = 0; r < BLOCK_R; ++r) s[r] += b[r * BLOCK_C + c] * xv;
      }
    }
  for (int r = 0; r < BLOCK_R; ++r) partial[r * BLOCK_GROUP + l] = s[r];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int w = LANES / 2; w > 0; w >>= 1) {
    if (lane < w)
      for (int r = 0; r < BLOCK_R; ++r) partial[r * BLOCK_GROUP + l] += partial[r * BLOCK_GROUP + l + w];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lane == 0 && row < block_rows)
    for (int r = 0; r < BLOCK_R; ++r) {
      const long i = row * BLOCK_R + r;
      y[i] = alpha * partial[r * BLOCK_GROUP + l] + (beta != 0.0 ? beta * y[i] : 0.0);
    }
}
#endif
