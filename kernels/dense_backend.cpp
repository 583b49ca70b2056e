#include "kernels/dense_backend.hpp"

#include <algorithm>

#include "support/stopwatch.hpp"

namespace fem::kernels {

double DenseBackend::seconds_for(const std::function<void()>& work) {
  synchronize();
  const Stopwatch watch;
  work();
  synchronize();
  return watch.seconds();
}

namespace {

std::string shape(index_t rows, index_t cols) {
  return std::to_string(rows) + " x " + std::to_string(cols);
}

template <class T>
void check_layout(const DeviceMatrix<T>& m, const char* what, const char* operand) {
  if (m.rows < 0 || m.cols < 0 || m.offset < 0 || (m.rows > 0 && m.ld < m.cols))
    throw std::invalid_argument(std::string(what) + ": " + operand + " has an invalid layout (" +
                                shape(m.rows, m.cols) + ", ld " + std::to_string(m.ld) + ")");
}

}  // namespace

template <class T>
void DenseBackend::check_owned(const DeviceMatrix<T>& m, const char* what,
                               const char* operand) const {
  check_layout(m, what, operand);
  if (!m.storage || m.storage->owner() != this)
    throw std::invalid_argument(std::string(what) + ": " + operand +
                                " was not allocated by the back-end '" + name() + "'");
  const index_t end = m.rows == 0 ? m.offset : m.offset + (m.rows - 1) * m.ld + m.cols;
  if (static_cast<std::size_t>(end) * sizeof(T) > m.storage->bytes())
    throw std::out_of_range(std::string(what) + ": " + operand + " reaches past its storage");
}

// --- memory ------------------------------------------------------------------------------------

std::shared_ptr<DeviceStorage> DenseBackend::wrap_host_bytes(void*, std::size_t) {
  throw std::logic_error("DenseBackend::wrap: the back-end '" + name() +
                         "' does not compute in host memory; use upload()");
}

// Checks a copy between `m` and a host array of leading dimension `ld`; false when there is
// nothing to copy.
template <class T>
bool DenseBackend::host_copy_needed(const DeviceMatrix<T>& m, index_t ld, const char* what, const char* operand) const {
  check_owned(m, what, operand);
  if (m.rows > 0 && ld < m.cols)
    throw std::invalid_argument(std::string(what) + ": host leading dimension " + std::to_string(ld) + " is below the " +
                                std::to_string(m.cols) + " columns");
  return m.rows > 0 && m.cols > 0;
}

template <class T>
DeviceMatrix<T> DenseBackend::allocate(index_t rows, index_t cols) {
  if (rows < 0 || cols < 0)
    throw std::invalid_argument("DenseBackend::allocate: negative size " + shape(rows, cols));
  const auto bytes = std::max<std::size_t>(sizeof(T), static_cast<std::size_t>(rows * cols) * sizeof(T));
  return {allocate_bytes(bytes), 0, rows, cols, cols};
}

template <class T>
DeviceMatrix<T> DenseBackend::upload(const T* host, index_t rows, index_t cols, index_t ld) {
  auto m = allocate<T>(rows, cols);
  upload(host, ld, m);
  return m;
}

template <class T>
void DenseBackend::upload(const T* host, index_t ld, const DeviceMatrix<T>& dst) {
  if (!host_copy_needed(dst, ld, "DenseBackend::upload", "the destination")) return;
  copy_to_device(host, ld * sizeof(T), *dst.storage, dst.offset * sizeof(T), dst.ld * sizeof(T),
                 dst.cols * sizeof(T), dst.rows);
}

template <class T>
void DenseBackend::download(const DeviceMatrix<T>& src, T* host, index_t ld) {
  if (!host_copy_needed(src, ld, "DenseBackend::download", "the source")) return;
  copy_to_host(*src.storage, src.offset * sizeof(T), src.ld * sizeof(T), host, ld * sizeof(T),
               src.cols * sizeof(T), src.rows);
}

template <class T>
DeviceMatrix<T> DenseBackend::wrap(T* host, index_t rows, index_t cols, index_t ld) {
  if (rows < 0 || cols < 0 || (rows > 0 && ld < cols))
    throw std::invalid_argument("DenseBackend::wrap: invalid layout " + shape(rows, cols) +
                                ", ld " + std::to_string(ld));
  const index_t elements = rows == 0 ? 0 : (rows - 1) * ld + cols;
  return {wrap_host_bytes(host, static_cast<std::size_t>(elements) * sizeof(T)), 0, rows, cols, ld};
}

// --- operations --------------------------------------------------------------------------------

template <class T>
void DenseBackend::gemm_checked(Op op_a, Op op_b, T alpha, const DeviceMatrix<T>& a,
                                const DeviceMatrix<T>& b, T beta, const DeviceMatrix<T>& c,
                                Fill fill, const char* what) {
  check_owned(a, what, "A");
  check_owned(b, what, "B");
  check_owned(c, what, "C");
  if (a.cols_of(op_a) != b.rows_of(op_b) || a.rows_of(op_a) != c.rows ||
      b.cols_of(op_b) != c.cols)
    throw std::invalid_argument(std::string(what) + ": op(A) is " +
                                shape(a.rows_of(op_a), a.cols_of(op_a)) + ", op(B) is " +
                                shape(b.rows_of(op_b), b.cols_of(op_b)) + ", C is " +
                                shape(c.rows, c.cols) + ": the shapes do not multiply");
  if (c.rows == 0 || c.cols == 0) return;
  gemm_kernel(op_a, op_b, alpha, a, b, beta, c, fill);
}

void DenseBackend::gemm(Op op_a, Op op_b, double alpha, const DeviceMatrix<double>& a,
                        const DeviceMatrix<double>& b, double beta,
                        const DeviceMatrix<double>& c) {
  gemm_checked(op_a, op_b, alpha, a, b, beta, c, Fill::full, "gemm");
}
void DenseBackend::gemm(Op op_a, Op op_b, float alpha, const DeviceMatrix<float>& a,
                        const DeviceMatrix<float>& b, float beta, const DeviceMatrix<float>& c) {
  gemm_checked(op_a, op_b, alpha, a, b, beta, c, Fill::full, "gemm");
}

void DenseBackend::syrk(double alpha, const DeviceMatrix<double>& a, double beta,
                        const DeviceMatrix<double>& c) {
  gemm_checked(Op::none, Op::transpose, alpha, a, a, beta, c, Fill::lower, "syrk");
}
void DenseBackend::syrk(float alpha, const DeviceMatrix<float>& a, float beta,
                        const DeviceMatrix<float>& c) {
  gemm_checked(Op::none, Op::transpose, alpha, a, a, beta, c, Fill::lower, "syrk");
}

// Blocked over the diagonal tiles of L: solve with one tile, then move its contribution out of
// the rest of B with one GEMM. Forward for L X = B and X Lᵀ = B, backward for Lᵀ X = B, X L = B.
template <class T>
void DenseBackend::trsm_blocked(Side side, Op op_l, const DeviceMatrix<T>& l,
                                const DeviceMatrix<T>& b) {
  check_owned(l, "trsm", "L");
  check_owned(b, "trsm", "B");
  const index_t n = l.rows;
  const index_t solved_dim = side == Side::left ? b.rows : b.cols;
  if (l.cols != n || solved_dim != n)
    throw std::invalid_argument("trsm: L is " + shape(l.rows, l.cols) + " and B is " +
                                shape(b.rows, b.cols) + ": L must be square and match B's " +
                                (side == Side::left ? "rows" : "columns"));
  if (n == 0 || b.rows == 0 || b.cols == 0) return;
  const index_t nb = tile_size();
  const bool forward = (side == Side::left) == (op_l == Op::none);
  const index_t tiles = (n + nb - 1) / nb;
  for (index_t t = 0; t < tiles; ++t) {
    const index_t k0 = (forward ? t : tiles - 1 - t) * nb;
    const index_t kb = std::min(nb, n - k0);
    const auto lkk = l.block(k0, k0, kb, kb);
    if (side == Side::left) {
      const index_t m = b.cols;
      const auto xk = b.block(k0, 0, kb, m);
      trsm_tile(side, op_l, lkk, xk);
      if (forward && k0 + kb < n)  // B2 -= L21 X1
        gemm_kernel(Op::none, Op::none, T(-1), l.block(k0 + kb, k0, n - k0 - kb, kb), xk, T(1),
                    b.block(k0 + kb, 0, n - k0 - kb, m), Fill::full);
      if (!forward && k0 > 0)  // B1 -= L21ᵀ X2
        gemm_kernel(Op::transpose, Op::none, T(-1), l.block(k0, 0, kb, k0), xk, T(1),
                    b.block(0, 0, k0, m), Fill::full);
    } else {
      const index_t m = b.rows;
      const auto xk = b.block(0, k0, m, kb);
      trsm_tile(side, op_l, lkk, xk);
      if (forward && k0 + kb < n)  // B2 -= X1 L21ᵀ
        gemm_kernel(Op::none, Op::transpose, T(-1), xk, l.block(k0 + kb, k0, n - k0 - kb, kb),
                    T(1), b.block(0, k0 + kb, m, n - k0 - kb), Fill::full);
      if (!forward && k0 > 0)  // B1 -= X2 L21
        gemm_kernel(Op::none, Op::none, T(-1), xk, l.block(k0, 0, kb, k0), T(1),
                    b.block(0, 0, m, k0), Fill::full);
    }
  }
}

void DenseBackend::trsm(Side side, Op op_l, const DeviceMatrix<double>& l,
                        const DeviceMatrix<double>& b) {
  trsm_blocked(side, op_l, l, b);
}
void DenseBackend::trsm(Side side, Op op_l, const DeviceMatrix<float>& l,
                        const DeviceMatrix<float>& b) {
  trsm_blocked(side, op_l, l, b);
}

// Right-looking: factor the diagonal tile, solve the panel below it, update the trailing
// lower triangle with one SYRK.
template <class T>
void DenseBackend::potrf_blocked(const DeviceMatrix<T>& a) {
  check_owned(a, "potrf", "A");
  if (a.rows != a.cols)
    throw std::invalid_argument("potrf: A is " + shape(a.rows, a.cols) + ", not square");
  const index_t n = a.rows;
  const index_t nb = tile_size();
  for (index_t j = 0; j < n; j += nb) {
    const index_t jb = std::min(nb, n - j);
    const auto a11 = a.block(j, j, jb, jb);
    const index_t bad = potrf_tile(a11);
    if (bad >= 0) throw NotPositiveDefinite(j + bad);
    const index_t rest = n - j - jb;
    if (rest == 0) break;
    const auto a21 = a.block(j + jb, j, rest, jb);
    trsm_tile(Side::right, Op::transpose, a11, a21);
    gemm_kernel(Op::none, Op::transpose, T(-1), a21, a21, T(1), a.block(j + jb, j + jb, rest, rest),
                Fill::lower);
  }
}

void DenseBackend::potrf(const DeviceMatrix<double>& a) { potrf_blocked(a); }
void DenseBackend::potrf(const DeviceMatrix<float>& a) { potrf_blocked(a); }

template <class T>
void DenseBackend::front_update_blocked(const DeviceMatrix<T>& f, index_t pivots) {
  check_owned(f, "front_update", "the front");
  if (f.rows != f.cols || pivots < 0 || pivots > f.rows)
    throw std::invalid_argument("front_update: the front is " + shape(f.rows, f.cols) +
                                " with " + std::to_string(pivots) +
                                " pivots: it must be square with 0 <= pivots <= its size");
  const index_t n = f.rows;
  const index_t rest = n - pivots;
  if (pivots == 0) return;
  const auto f11 = f.block(0, 0, pivots, pivots);
  potrf_blocked(f11);
  if (rest == 0) return;
  const auto f21 = f.block(pivots, 0, rest, pivots);
  trsm_blocked(Side::right, Op::transpose, f11, f21);
  gemm_kernel(Op::none, Op::transpose, T(-1), f21, f21, T(1), f.block(pivots, pivots, rest, rest),
              Fill::lower);
}

void DenseBackend::front_update(const DeviceMatrix<double>& f, index_t pivots) {
  front_update_blocked(f, pivots);
}
void DenseBackend::front_update(const DeviceMatrix<float>& f, index_t pivots) {
  front_update_blocked(f, pivots);
}

void DenseBackend::front_assemble(const DeviceMatrix<double>& from,
                                  const std::vector<std::int32_t>& from_index,
                                  const DeviceMatrix<double>& batch,
                                  const std::vector<std::int32_t>& batch_index,
                                  const DeviceMatrix<double>& to) {
  check_owned(from, "front_assemble", "the old front");
  check_owned(batch, "front_assemble", "the batch");
  check_owned(to, "front_assemble", "the new front");
  const index_t n = to.rows;
  if (to.cols != n || from.rows != from.cols || batch.rows != batch.cols ||
      static_cast<index_t>(from_index.size()) != n || static_cast<index_t>(batch_index.size()) != n)
    throw std::invalid_argument("front_assemble: the new front is " + shape(to.rows, to.cols) +
                                " with " + std::to_string(from_index.size()) + " and " +
                                std::to_string(batch_index.size()) + " indices, the old front " +
                                shape(from.rows, from.cols) + ", the batch " +
                                shape(batch.rows, batch.cols) +
                                ": all must be square, with one index of each kind per new row");
  const auto check_indices = [n](const std::vector<std::int32_t>& indices, index_t size,
                                 const char* of) {
    for (index_t i = 0; i < n; ++i)
      if (indices[i] < -1 || indices[i] >= size)
        throw std::out_of_range("front_assemble: index " + std::to_string(indices[i]) + " of row " +
                                std::to_string(i) + " is outside " + of + " (size " +
                                std::to_string(size) + ")");
  };
  if (from.storage == to.storage || batch.storage == to.storage)
    throw std::invalid_argument("front_assemble: the new front must be in storage of its own");
  check_indices(from_index, from.rows, "the old front");
  check_indices(batch_index, batch.rows, "the batch");
  if (n == 0) return;
  front_assemble_kernel(from, from_index.data(), batch, batch_index.data(), to);
}

#define FEM_KERNELS_INSTANTIATE_MEMORY(T)                                                     \
  template DeviceMatrix<T> DenseBackend::allocate<T>(index_t, index_t);                       \
  template DeviceMatrix<T> DenseBackend::upload<T>(const T*, index_t, index_t, index_t);      \
  template void DenseBackend::upload<T>(const T*, index_t, const DeviceMatrix<T>&);           \
  template void DenseBackend::download<T>(const DeviceMatrix<T>&, T*, index_t);               \
  template DeviceMatrix<T> DenseBackend::wrap<T>(T*, index_t, index_t, index_t);
FEM_KERNELS_INSTANTIATE_MEMORY(double)
FEM_KERNELS_INSTANTIATE_MEMORY(float)
#undef FEM_KERNELS_INSTANTIATE_MEMORY

}  // namespace fem::kernels
