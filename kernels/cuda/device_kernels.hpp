#pragma once
// Launchers of the device kernels; all work on the default stream, asynchronously.

namespace fem::kernels::cuda {

// op(X) element (i, j) is data[i * row_stride + j * col_stride].
template <class T>
struct Operand {
  const T* data;
  long long row_stride;
  long long col_stride;
};

// C := alpha * op(A) * op(B) + beta * C, C row-major m x n; only i >= j when `lower`.
template <class T>
struct GemmCall {
  int m, n, k;
  T alpha;
  Operand<T> a, b;
  T beta;
  T* c;
  long long ldc;
  bool lower;
};

template <class T>
void gemm_naive(const GemmCall<T>& call);
template <class T>
void gemm_tiled(const GemmCall<T>& call);  // shared-memory tiles on CUDA cores
void gemm_dmma(const GemmCall<double>& call);  // shared-memory tiles on FP64 tensor cores

// Lower Cholesky of an n x n tile (n <= max_tile) in place; *info := first bad column or -1.
constexpr int max_tile = 64;
template <class T>
void potrf_tile(T* a, long long lda, int n, int* info);

// Solves tri * X = B in place for every column of B (m columns), tri = n x n triangular seen
// through strides (lower or upper); B element (i, j) at b[i * b_row_stride + j * b_col_stride].
template <class T>
void trsm_tile(Operand<T> tri, bool lower, int n, T* b, long long b_row_stride,
               long long b_col_stride, int m);

// to(i, j), j <= i, := from(max, min of from_index[i], [j]) + batch(likewise), a term dropped
// where an index is -1 (DenseBackend::front_assemble); the index arrays are on the device.
void front_assemble(const double* from, long long ld_from, const int* from_index,
                    const double* batch, long long ld_batch, const int* batch_index, double* to,
                    long long ld_to, int n);

}  // namespace fem::kernels::cuda
