#include "kernels/cuda/device_fronts.hpp"

#include <algorithm>
#include <atomic>
#include <string>
#include <vector>

#include "kernels/cuda/cuda_backend.hpp"
#include "kernels/cuda/cuda_check.hpp"
#include "kernels/cuda/front_kernels.hpp"
#include "kernels/device_matrix.hpp"

namespace fem::kernels::cuda {

namespace {

int as_int(std::int64_t v, const char* what) {
  if (v > 0x7fffffff)
    throw std::invalid_argument(std::string("DeviceFronts: ") + what + " " + std::to_string(v) +
                                " exceeds the 32-bit range of cuBLAS and of our kernels");
  return static_cast<int>(v);
}

// A device array of n values taken on the stream (no device-wide synchronisation).
template <class V>
V* take(std::size_t n, cudaStream_t stream, const char* what) {
  void* p = nullptr;
  check(cudaMallocAsync(&p, std::max<std::size_t>(n, 1) * sizeof(V), stream), what);
  return static_cast<V*>(p);
}

// cuBLAS's calls in both precisions, as the fronts use them, column-major: C := alpha Aᵀ B + beta C
// (C m x n, A k x m, B k x n); C := alpha Aᵀ A + beta C in the upper triangle of the n x n C (A k x n).
cublasStatus_t gemm_tn(cublasHandle_t h, int m, int n, int k, double alpha, const double* a, int lda,
                       const double* b, int ldb, double beta, double* c, int ldc) {
  return cublasDgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &alpha, a, lda, b, ldb, &beta, c, ldc);
}
cublasStatus_t gemm_tn(cublasHandle_t h, int m, int n, int k, float alpha, const float* a, int lda, const float* b,
                       int ldb, float beta, float* c, int ldc) {
  return cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &alpha, a, lda, b, ldb, &beta, c, ldc);
}
cublasStatus_t syrk(cublasHandle_t h, int n, int k, double alpha, const double* a, int lda, double beta, double* c,
                    int ldc) {
  return cublasDsyrk(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T, n, k, &alpha, a, lda, &beta, c, ldc);
}
cublasStatus_t syrk(cublasHandle_t h, int n, int k, float alpha, const float* a, int lda, float beta, float* c,
                    int ldc) {
  return cublasSsyrk(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T, n, k, &alpha, a, lda, &beta, c, ldc);
}
// The substitution's: x := op(U)⁻¹ x (U n x n upper, lda n); y := alpha op(A) x + beta y (A m x n, lda m).
cublasStatus_t trsv(cublasHandle_t h, cublasOperation_t op, int n, const double* u, double* x) {
  return cublasDtrsv(h, CUBLAS_FILL_MODE_UPPER, op, CUBLAS_DIAG_NON_UNIT, n, u, n, x, 1);
}
cublasStatus_t trsv(cublasHandle_t h, cublasOperation_t op, int n, const float* u, float* x) {
  return cublasStrsv(h, CUBLAS_FILL_MODE_UPPER, op, CUBLAS_DIAG_NON_UNIT, n, u, n, x, 1);
}
cublasStatus_t gemv(cublasHandle_t h, cublasOperation_t op, int m, int n, const double* alpha, const double* a,
                    const double* x, const double* beta, double* y) {
  return cublasDgemv(h, op, m, n, alpha, a, m, x, 1, beta, y, 1);
}
cublasStatus_t gemv(cublasHandle_t h, cublasOperation_t op, int m, int n, const float* alpha, const float* a,
                    const float* x, const float* beta, float* y) {
  return cublasSgemv(h, op, m, n, alpha, a, m, x, 1, beta, y, 1);
}

}  // namespace

template <class T>
struct DeviceFronts<T>::State {
  cudaStream_t stream = nullptr;
  cublasHandle_t blas = nullptr;
  // The block rows of a front's pivots on their own stream (higher priority), beside the main
  // stream's updates of the rows below them; `ready` and `done` hand the panel over between them.
  cudaStream_t side = nullptr;
  cublasHandle_t side_blas = nullptr;
  cudaEvent_t ready = nullptr, done = nullptr;
  T* panels = nullptr;
  int* relative = nullptr;
  int* below = nullptr;
  T* x = nullptr;                // the substitution's vector
  T* t = nullptr;                // and its rows below a front's pivots
  std::int64_t t_entries = 0;
  int* info = nullptr;           // one pivot check per front
  T* inverse = nullptr;          // the inverse of a diagonal block
  T* scratch = nullptr;          // a block row of a panel on its way through GEMM
  std::int64_t fronts = 0, equations = 0;
  std::int64_t held = 0, peak = 0;  // bytes
  std::vector<std::pair<T*, std::int64_t>> sizes;  // update matrices alive, and their bytes
  std::vector<cudaEvent_t> began, factored, ended;  // per front: its elimination, its panel done

  void hold(std::int64_t bytes) {
    held += bytes;
    peak = std::max(peak, held);
  }
  void reserve_t(std::int64_t entries) {
    if (entries <= t_entries) return;
    cudaFreeAsync(t, stream);
    held -= t_entries * static_cast<std::int64_t>(sizeof(T));
    t = take<T>(entries, stream, "allocating the substitution's workspace");
    t_entries = entries;
    hold(entries * static_cast<std::int64_t>(sizeof(T)));
  }
};

template <class T>
DeviceFronts<T>::DeviceFronts(const FrontLayout& layout) : state_(std::make_unique<State>()) {
  const std::string reason = unavailable_reason();
  if (!reason.empty()) throw BackendUnavailable(reason);
  State& s = *state_;
  s.fronts = layout.fronts;
  check(cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking), "cudaStreamCreate");
  check(cublasCreate(&s.blas), "cublasCreate");
  check(cublasSetStream(s.blas, s.stream), "cublasSetStream");
  int least = 0, greatest = 0;
  check(cudaDeviceGetStreamPriorityRange(&least, &greatest), "cudaDeviceGetStreamPriorityRange");
  check(cudaStreamCreateWithPriority(&s.side, cudaStreamNonBlocking, greatest), "cudaStreamCreate");
  check(cublasCreate(&s.side_blas), "cublasCreate");
  check(cublasSetStream(s.side_blas, s.side), "cublasSetStream");
  check(cudaEventCreateWithFlags(&s.ready, cudaEventDisableTiming), "cudaEventCreate");
  check(cudaEventCreateWithFlags(&s.done, cudaEventDisableTiming), "cudaEventCreate");
  // Freed blocks stay in the pool for the next update matrix instead of going back to the driver.
  cudaMemPool_t pool = nullptr;
  check(cudaDeviceGetDefaultMemPool(&pool, 0), "cudaDeviceGetDefaultMemPool");
  std::uint64_t keep = UINT64_MAX;
  check(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep), "cudaMemPoolSetAttribute");

  s.panels = take<T>(layout.panel_entries, s.stream, "allocating the panel store");
  check(cudaMemsetAsync(s.panels, 0, layout.panel_entries * sizeof(T), s.stream), "zeroing the panel store");
  const auto upload_list = [&](const std::int32_t* list, std::int64_t count, const char* what) {
    int* d = take<int>(count, s.stream, what);
    check(cudaMemcpyAsync(d, list, count * sizeof(int), cudaMemcpyHostToDevice, s.stream), what);
    return d;
  };
  s.relative = upload_list(layout.relative, layout.relative_count, "uploading the extend-add maps");
  s.below = upload_list(layout.below, layout.below_count, "uploading the fronts' rows");
  s.info = take<int>(s.fronts, s.stream, "allocating the pivot checks");
  check(cudaMemsetAsync(s.info, 0, s.fronts * sizeof(int), s.stream), "zeroing the pivot checks");
  s.x = take<T>(layout.equations, s.stream, "allocating the substitution's vector");
  const std::int64_t inverse_entries = kDiagonalBlock * kDiagonalBlock;
  s.inverse = take<T>(inverse_entries, s.stream, "allocating the diagonal blocks' inverse");
  s.scratch = take<T>(workspace_entries(layout.largest_front) - inverse_entries, s.stream,
                      "allocating the elimination's scratch");
  for (auto* events : {&s.began, &s.factored, &s.ended}) {
    events->resize(s.fronts);
    for (auto& e : *events) check(cudaEventCreate(&e), "cudaEventCreate");
  }
  s.hold(static_cast<std::int64_t>((layout.panel_entries + layout.equations + workspace_entries(layout.largest_front)) *
                                       sizeof(T) +
                                   (layout.relative_count + layout.below_count + s.fronts) * sizeof(int)));
  s.equations = layout.equations;
  // The caller's lists may go once the copies are done.
  check(cudaStreamSynchronize(s.stream), "uploading the fronts' layout");
}

template <class T>
std::int64_t DeviceFronts<T>::workspace_entries(std::int64_t largest_front) {
  return kDiagonalBlock * (kDiagonalBlock + std::max<std::int64_t>(largest_front, 1));
}

template <class T>
DeviceFronts<T>::~DeviceFronts() {
  State& s = *state_;
  cudaStreamSynchronize(s.stream);
  for (auto& [p, bytes] : s.sizes) cudaFreeAsync(p, s.stream);
  cudaFreeAsync(s.panels, s.stream);
  cudaFreeAsync(s.relative, s.stream);
  cudaFreeAsync(s.below, s.stream);
  cudaFreeAsync(s.x, s.stream);
  cudaFreeAsync(s.t, s.stream);
  cudaFreeAsync(s.info, s.stream);
  cudaFreeAsync(s.inverse, s.stream);
  cudaFreeAsync(s.scratch, s.stream);
  cudaStreamSynchronize(s.stream);
  // The pool keeps what it was given (see the constructor): hand it back for the rest of the program.
  cudaMemPool_t pool = nullptr;
  if (cudaDeviceGetDefaultMemPool(&pool, 0) == cudaSuccess) cudaMemPoolTrimTo(pool, 0);
  for (const auto* events : {&s.began, &s.factored, &s.ended})
    for (auto e : *events) cudaEventDestroy(e);
  if (s.blas) cublasDestroy(s.blas);
  if (s.side_blas) cublasDestroy(s.side_blas);
  cudaEventDestroy(s.ready);
  cudaEventDestroy(s.done);
  cudaStreamSynchronize(s.side);
  cudaStreamDestroy(s.side);
  cudaStreamDestroy(s.stream);
}

template <class T>
void DeviceFronts<T>::add_to_panels(const std::int64_t* position, const T* value, std::int64_t count) {
  State& s = *state_;
  auto* p = take<std::int64_t>(count, s.stream, "allocating the entries' positions");
  auto* v = take<T>(count, s.stream, "allocating the entries");
  check(cudaMemcpyAsync(p, position, count * sizeof(std::int64_t), cudaMemcpyHostToDevice, s.stream),
        "uploading the entries' positions");
  check(cudaMemcpyAsync(v, value, count * sizeof(T), cudaMemcpyHostToDevice, s.stream), "uploading the entries");
  scatter_add(s.panels, p, v, count, s.stream);
  const std::int64_t bytes = count * static_cast<std::int64_t>(sizeof(std::int64_t) + sizeof(T));
  s.hold(bytes);
  cudaFreeAsync(p, s.stream);
  cudaFreeAsync(v, s.stream);
  s.held -= bytes;
  // The caller's arrays may go once the copies are done.
  check(cudaStreamSynchronize(s.stream), "adding the original entries");
}

template <class T>
T* DeviceFronts<T>::new_update(std::int64_t r) {
  State& s = *state_;
  const std::int64_t bytes = r * r * static_cast<std::int64_t>(sizeof(T));
  T* u = take<T>(r * r, s.stream, "allocating an update matrix");
  check(cudaMemsetAsync(u, 0, bytes, s.stream), "zeroing an update matrix");
  s.sizes.push_back({u, bytes});
  s.hold(bytes);
  return u;
}

template <class T>
T* DeviceFronts<T>::upload_update(const T* host, std::int64_t r) {
  State& s = *state_;
  const std::int64_t bytes = r * r * static_cast<std::int64_t>(sizeof(T));
  T* u = take<T>(r * r, s.stream, "allocating an update matrix");
  // From pageable memory the copy has left the host array when the call returns.
  check(cudaMemcpyAsync(u, host, bytes, cudaMemcpyHostToDevice, s.stream), "uploading an update matrix");
  s.sizes.push_back({u, bytes});
  s.hold(bytes);
  return u;
}

template <class T>
void DeviceFronts<T>::release(T* update) {
  State& s = *state_;
  const auto it = std::find_if(s.sizes.begin(), s.sizes.end(), [&](const auto& e) { return e.first == update; });
  if (it == s.sizes.end()) return;
  check(cudaFreeAsync(update, s.stream), "freeing an update matrix");
  s.held -= it->second;
  *it = s.sizes.back();
  s.sizes.pop_back();
}

template <class T>
void DeviceFronts<T>::extend_add(const T* child, std::int64_t rc, std::int64_t map, std::int64_t into_panel,
                                 std::int64_t panel, std::int64_t m, std::int64_t k, T* update) {
  State& s = *state_;
  cuda::extend_add(child, as_int(rc, "update rows"), s.relative + map, as_int(into_panel, "columns"), s.panels + panel,
                   as_int(k, "pivots"), update, as_int(m - k, "update rows"), s.stream);
}

// The panel by block rows of kPanelBlock pivots, right-looking. Within a block row, blocks of
// kDiagonalBlock pivots: each block's Cholesky factor and inverse by factor_diagonal_block, the
// rest of its rows multiplied by that inverse (a GEMM: cuBLAS's TRSM is slow on the fronts'
// shapes, cuSOLVER's POTRF latency-bound), then the block row's other rows
// updated. Once a block row is done, the rows below it take its update with an inner dimension of
// kPanelBlock: the next block row's first, so that its elimination (on the side stream, mostly
// latency) runs beside the update of the rest (the bulk of the flops, on the main stream). Then
// the update matrix in one SYRK (on the tensor cores, near DGEMM's rate at these sizes).
// cuBLAS is column-major: the row-major m x k panel is its k x m matrix U = [U11 U12] (ld k),
// U11 upper, and the row-major update matrix's lower triangle its upper one (ld r).
template <class T>
void DeviceFronts<T>::eliminate(std::int64_t panel, std::int64_t m, std::int64_t k, T* update, std::int64_t front) {
  State& s = *state_;
  constexpr int kPanelBlock = 4 * kDiagonalBlock;
  const int kk = as_int(k, "pivots"), mm = as_int(m, "front rows"), r = mm - kk;
  T* u = s.panels + panel;
  const auto at = [&](int i, int j) { return u + i + static_cast<std::int64_t>(j) * kk; };
  // Rows [j0, j1) of U once the rows above them are in: by blocks, on the side stream.
  const auto block_row = [&](int j0, int j1) {
    for (int j = j0; j < j1; j += kDiagonalBlock) {
      const int b = std::min(kDiagonalBlock, j1 - j), right = mm - j - b, below = j1 - j - b;
      factor_diagonal_block(at(j, j), b, kk, s.inverse, s.info + front, j, s.side);
      if (right == 0) continue;
      // U(j:j+b, j+b:m) := U(j:j+b, j:j+b)⁻ᵀ U(j:j+b, j+b:m), through the scratch.
      check(gemm_tn(s.side_blas, b, right, b, T(1), s.inverse, b, at(j, j + b), kk, T(0), s.scratch, b), "GEMM");
      check(cudaMemcpy2DAsync(at(j, j + b), kk * sizeof(T), s.scratch, b * sizeof(T), b * sizeof(T), right,
                              cudaMemcpyDeviceToDevice, s.side),
            "copying a block row back");
      if (below == 0) continue;
      // The block row's other rows: U(j+b:j1, j+b:m) -= U(j:j+b, j+b:j1)ᵀ U(j:j+b, j+b:m).
      check(syrk(s.side_blas, below, b, T(-1), at(j, j + b), kk, T(1), at(j + b, j + b), kk), "SYRK");
      check(gemm_tn(s.side_blas, below, mm - j1, b, T(-1), at(j, j + b), kk, at(j, j1), kk, T(1), at(j + b, j1), kk),
            "GEMM");
    }
  };
  // Rows [i0, i1) of U take the update of the finished block row [j0, j1):
  // U(i0:i1, i0:m) -= U(j0:j1, i0:i1)ᵀ U(j0:j1, i0:m), on the main stream.
  const auto update_rows = [&](int j0, int j1, int i0, int i1) {
    if (i0 == i1) return;
    check(syrk(s.blas, i1 - i0, j1 - j0, T(-1), at(j0, i0), kk, T(1), at(i0, i0), kk), "SYRK");
    if (mm > i1)
      check(gemm_tn(s.blas, i1 - i0, mm - i1, j1 - j0, T(-1), at(j0, i0), kk, at(j0, i1), kk, T(1), at(i0, i1), kk),
            "GEMM");
  };
  check(cudaEventRecord(s.began[front], s.stream), "cudaEventRecord");
  check(cudaEventRecord(s.ready, s.stream), "cudaEventRecord");
  for (int j0 = 0; j0 < kk; j0 += kPanelBlock) {
    const int j1 = std::min(j0 + kPanelBlock, kk), j2 = std::min(j1 + kPanelBlock, kk);
    check(cudaStreamWaitEvent(s.side, s.ready, 0), "cudaStreamWaitEvent");
    block_row(j0, j1);
    check(cudaEventRecord(s.done, s.side), "cudaEventRecord");
    check(cudaStreamWaitEvent(s.stream, s.done, 0), "cudaStreamWaitEvent");
    // The next block row first (what the side stream waits for), then the rows below it, whose
    // columns past kk are those of U12 (the SYRK and GEMM of update_rows).
    update_rows(j0, j1, j1, j2);
    check(cudaEventRecord(s.ready, s.stream), "cudaEventRecord");
    update_rows(j0, j1, j2, kk);
  }
  check(cudaEventRecord(s.factored[front], s.stream), "cudaEventRecord");
  // update -= U12ᵀ U12 (its upper triangle, column-major).
  if (r > 0) check(syrk(s.blas, r, kk, T(-1), at(0, kk), kk, T(1), update, r), "SYRK");
  check(cudaEventRecord(s.ended[front], s.stream), "cudaEventRecord");
}

template <class T>
std::vector<EliminationTimes> DeviceFronts<T>::elimination_seconds() const {
  const State& s = *state_;
  std::vector<EliminationTimes> times(s.fronts);
  const auto seconds = [](cudaEvent_t from, cudaEvent_t to) {
    float ms = 0;
    check(cudaEventElapsedTime(&ms, from, to), "cudaEventElapsedTime");
    return ms * 1e-3;
  };
  for (std::int64_t f = 0; f < s.fronts; ++f)
    times[f] = {seconds(s.began[f], s.factored[f]), seconds(s.factored[f], s.ended[f])};
  return times;
}

template <class T>
typename DeviceFronts<T>::Failure DeviceFronts<T>::finish() {
  State& s = *state_;
  std::vector<int> info(s.fronts);
  check(cudaMemcpyAsync(info.data(), s.info, info.size() * sizeof(int), cudaMemcpyDeviceToHost, s.stream),
        "reading the pivot checks");
  check(cudaStreamSynchronize(s.stream), "the device fronts");
  for (std::int64_t f = 0; f < s.fronts; ++f)
    if (info[f] > 0) return {f, info[f] - 1};  // as LAPACK: the leading minor of order info is not positive
  return {};
}

template <class T>
void DeviceFronts<T>::gather_from_panels(const std::int64_t* position, std::int64_t count, T* host) const {
  State& s = *state_;
  auto* p = take<std::int64_t>(count, s.stream, "allocating the gather's positions");
  T* v = take<T>(count, s.stream, "allocating the gathered entries");
  check(cudaMemcpyAsync(p, position, count * sizeof(std::int64_t), cudaMemcpyHostToDevice, s.stream),
        "uploading the gather's positions");
  gather(s.panels, p, count, v, s.stream);
  check(cudaMemcpyAsync(host, v, count * sizeof(T), cudaMemcpyDeviceToHost, s.stream), "downloading gathered entries");
  cudaFreeAsync(p, s.stream);
  cudaFreeAsync(v, s.stream);
  check(cudaStreamSynchronize(s.stream), "gathering from the panels");
}

template <class T>
void DeviceFronts<T>::upload_x(const T* host) {
  State& s = *state_;
  check(cudaMemcpyAsync(s.x, host, s.equations * sizeof(T), cudaMemcpyHostToDevice, s.stream), "uploading x");
}

template <class T>
void DeviceFronts<T>::download_x(T* host) {
  State& s = *state_;
  check(cudaMemcpyAsync(host, s.x, s.equations * sizeof(T), cudaMemcpyDeviceToHost, s.stream), "downloading x");
  check(cudaStreamSynchronize(s.stream), "the substitution");
}

template <class T>
void DeviceFronts<T>::forward(std::int64_t panel, std::int64_t m, std::int64_t k, std::int64_t first,
                              std::int64_t below) {
  State& s = *state_;
  const int kk = as_int(k, "pivots"), r = as_int(m - k, "rows below the pivots");
  const T* l11 = s.panels + panel;
  T* own = s.x + first;
  // Column-major, the panel's L11 is U = L11ᵀ and its L21 the k x r block L21ᵀ (see eliminate).
  check(trsv(s.blas, CUBLAS_OP_T, kk, l11, own), "TRSV");
  if (r == 0) return;
  s.reserve_t(r);
  const T one = 1, zero = 0;
  check(gemv(s.blas, CUBLAS_OP_T, kk, r, &one, l11 + k * k, own, &zero, s.t), "GEMV");
  scatter_subtract(s.x, s.below + below, s.t, r, s.stream);
}

template <class T>
void DeviceFronts<T>::backward(std::int64_t panel, std::int64_t m, std::int64_t k, std::int64_t first,
                               std::int64_t below) {
  State& s = *state_;
  const int kk = as_int(k, "pivots"), r = as_int(m - k, "rows below the pivots");
  const T* l11 = s.panels + panel;
  T* own = s.x + first;
  if (r > 0) {
    s.reserve_t(r);
    gather_rows(s.x, s.below + below, r, s.t, s.stream);
    const T one = 1, minus_one = -1;
    check(gemv(s.blas, CUBLAS_OP_N, kk, r, &minus_one, l11 + k * k, s.t, &one, own), "GEMV");
  }
  check(trsv(s.blas, CUBLAS_OP_N, kk, l11, own), "TRSV");
}

template <class T>
std::int64_t DeviceFronts<T>::peak_bytes() const {
  return state_->peak;
}

std::int64_t free_device_bytes() {
  std::size_t free = 0, total = 0;
  check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
  return static_cast<std::int64_t>(free);
}

template class DeviceFronts<double>;
template class DeviceFronts<float>;

}  // namespace fem::kernels::cuda
