// Tunable CSR SpMV (Mossaiby): WG work-items per work-group, ROWS_PER_GROUP (R) rows per work-group, both given
// as -D definitions so the index arithmetic folds and the reduction unrolls; TEAM = WG / R
// work-items cooperate on a row. ROWS_PER_GROUP = WG is the one-row-per-work-item (naive) kernel.
// The team's reduction folds in local memory with two barriers instead of the paper's log2(TEAM).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#ifndef WG
#error "build with -D WG=<work-group size>"
#endif
#ifndef ROWS_PER_GROUP
#error "build with -D ROWS_PER_GROUP=<rows per work-group>"
#endif
#define TEAM (WG / ROWS_PER_GROUP)

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void spmv_csr(const long n, __global const int* restrict row_ptr, __global const int* restrict col,
              __global const double* restrict val, __global const double* restrict x, __global double* restrict y) {
  const int local_id = get_local_id(0);
  const long row = (long)get_group_id(0) * ROWS_PER_GROUP + local_id / TEAM;
  const int lane = local_id % TEAM;
  double partial = 0.0;
  if (row < n) {
    const int end = row_ptr[row + 1];
    for (int k = row_ptr[row] + lane; k < end; k += TEAM) partial += val[k] * x[col[k]];
  }
#if TEAM > 1
  // The team's partial sums: folded to (at most) 4 per row by lanes 0..3, then added by lane 0.
  // Two barriers, both outside the row < n branches (a barrier in divergent code is undefined).
  __local double scratch[WG];
  scratch[local_id] = partial;
  barrier(CLK_LOCAL_MEM_FENCE);
#if TEAM > 4
  if (lane < 4) {
    double s = scratch[local_id];
#pragma unroll
    for (int j = 4; j < TEAM; j += 4) s += scratch[local_id + j];
    scratch[local_id] = s;  // lane j reads and writes only entries j (mod 4) of its team
  }
  barrier(CLK_LOCAL_MEM_FENCE);
#endif
#if TEAM == 2
  if (lane == 0) partial = scratch[local_id] + scratch[local_id + 1];
#else
  if (lane == 0) partial = (scratch[local_id] + scratch[local_id + 1]) + (scratch[local_id + 2] + scratch[local_id + 3]);
#endif
#endif
  if (row < n && lane == 0) y[row] = partial;
}
