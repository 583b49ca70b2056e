// ELL and sliced ELL SpMV, one work-item per row, entries column-major (kernels/cpu/sparse_formats.hpp).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void spmv_ell(const long n, const long width, __global const int* col, __global const double* val,
                       __global const double* x, __global double* y) {
  const long i = get_global_id(0);
  if (i >= n) return;
  double sum = 0.0;
  for (long k = 0; k < width; ++k) {
    const int c = col[k * n + i];
    if (c < 0) break;  // rows are left-packed: padding only at the end
    sum += val[k * n + i] * x[c];
  }
  y[i] = sum;
}

__kernel void spmv_sell(const long n, const int height, __global const long* slice_ptr,
                        __global const int* slice_width, __global const int* col, __global const double* val,
                        __global const double* x, __global double* y) {
  const long i = get_global_id(0);
  if (i >= n) return;
  const long slice = i / height;
  const long base = slice_ptr[slice] + i % height;
  const int width = slice_width[slice];
  double sum = 0.0;
  for (int k = 0; k < width; ++k) {
    const int c = col[base + (long)k * height];
    if (c < 0) break;
    sum += val[base + (long)k * height] * x[c];
  }
  y[i] = sum;
}
