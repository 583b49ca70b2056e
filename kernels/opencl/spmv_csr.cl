// Tunable CSR SpMV (Mossaiby): WG work-items per work-group, ROWS_PER_GROUP (R) rows per work-group, both given
// as -D definitions so the index arithmetic folds and the reduction unrolls; TEAM = WG / R
// work-items cooperate on a row. ROWS_PER_GROUP = WG is the one-row-per-work-item (naive) kernel.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#ifndef WG
#error "build with -D WG=<work-group size>"
#endif
#ifndef ROWS_PER_GROUP
#error "build with -D ROWS_PER_GROUP=<rows per work-group>"
#endif
#define TEAM (WG / ROWS_PER_GROUP)

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void spmv_csr(const long n, __global const int* row_ptr, __global const int* col, __global const double* val,
              __global const double* x, __global double* y) {
  __local double scratch[WG];
  const int local_id = get_local_id(0);
  const long row = (long)get_group_id(0) * ROWS_PER_GROUP + local_id / TEAM;
  const int lane = local_id % TEAM;
  double partial = 0.0;
  if (row < n)
    for (int k = row_ptr[row] + lane; k < row_ptr[row + 1]; k += TEAM) partial += val[k] * x[col[k]];
#if TEAM > 1
  scratch[local_id] = partial;
  barrier(CLK_LOCAL_MEM_FENCE);  // barriers stay outside the row < n branches
#if TEAM > 32
  for (int s = TEAM / 2; s > 16; s >>= 1) {
    if (lane < s) scratch[local_id] += scratch[local_id + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
#endif
#if TEAM >= 32
  if (lane < 16) scratch[local_id] += scratch[local_id + 16];
  barrier(CLK_LOCAL_MEM_FENCE);
#endif
#if TEAM >= 16
  if (lane < 8) scratch[local_id] += scratch[local_id + 8];
  barrier(CLK_LOCAL_MEM_FENCE);
#endif
#if TEAM >= 8
  if (lane < 4) scratch[local_id] += scratch[local_id + 4];
  barrier(CLK_LOCAL_MEM_FENCE);
#endif
#if TEAM >= 4
  if (lane < 2) scratch[local_id] += scratch[local_id + 2];
  barrier(CLK_LOCAL_MEM_FENCE);
#endif
  if (lane < 1) partial = scratch[local_id] + scratch[local_id + 1];
#endif
  if (row < n && lane == 0) y[row] = partial;
}
