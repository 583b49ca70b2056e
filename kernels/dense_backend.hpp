#pragma once
// The declared dense operations. Every back-end implements the same small set of primitives
// (GEMM with an optional lower-triangle mask, Cholesky and triangular solve of one tile, memory
// moves); this class builds the public operations from them: SYRK is a masked GEMM, POTRF and
// TRSM are blocked algorithms whose bulk work is GEMM, and the frontal elimination step is
// POTRF + TRSM + SYRK. All matrices are row-major; the triangular factor L is lower.

#include "kernels/device_matrix.hpp"

#include <functional>
#include <cstdint>
#include <vector>
#include <string>

namespace fem::kernels {

// Which part of C a GEMM writes: all of it, or only the lower triangle (i >= j) as SYRK does.
enum class Fill { full, lower };

class DenseBackend {
public:
  virtual ~DenseBackend() = default;

  virtual std::string name() const = 0;         // the registry name, e.g. "openmp"
  virtual std::string description() const = 0;  // the device and the kernel, for reports
  // True when matrices live in host memory, so wrap() can use caller-owned arrays in place.
  virtual bool uses_host_memory() const = 0;
  // Waits until every operation issued so far has finished (GPU back-ends queue work).
  virtual void synchronize() = 0;
  // Seconds `work` takes on this back-end, queued work included: wall clock between two
  // synchronisations; the CUDA back-ends time it with events on the device.
  virtual double seconds_for(const std::function<void()>& work);

  // --- memory --------------------------------------------------------------------------------
  template <class T>
  DeviceMatrix<T> allocate(index_t rows, index_t cols);  // zero-filled, ld = cols
  template <class T>
  DeviceMatrix<T> upload(const T* host, index_t rows, index_t cols, index_t ld);
  template <class T>
  void upload(const T* host, index_t ld, const DeviceMatrix<T>& dst);
  template <class T>
  void download(const DeviceMatrix<T>& src, T* host, index_t ld);
  // Uses the caller's host array without copying; only where uses_host_memory().
  template <class T>
  DeviceMatrix<T> wrap(T* host, index_t rows, index_t cols, index_t ld);

  // --- operations (double and float) ----------------------------------------------------------
  // C := alpha * op_a(A) * op_b(B) + beta * C. With beta == 0, C is not read.
  void gemm(Op op_a, Op op_b, double alpha, const DeviceMatrix<double>& a,
            const DeviceMatrix<double>& b, double beta, const DeviceMatrix<double>& c);
  void gemm(Op op_a, Op op_b, float alpha, const DeviceMatrix<float>& a,
            const DeviceMatrix<float>& b, float beta, const DeviceMatrix<float>& c);

  // Lower triangle of C := alpha * A * Aᵀ + beta * C (C square); the strict upper triangle is
  // left untouched.
  void syrk(double alpha, const DeviceMatrix<double>& a, double beta, const DeviceMatrix<double>& c);
  void syrk(float alpha, const DeviceMatrix<float>& a, float beta, const DeviceMatrix<float>& c);

  // Solves with the lower-triangular L (non-unit diagonal, strict upper triangle not read):
  // Side::left: B := op(L)^-1 * B; Side::right: B := B * op(L)^-1.
  void trsm(Side side, Op op_l, const DeviceMatrix<double>& l, const DeviceMatrix<double>& b);
  void trsm(Side side, Op op_l, const DeviceMatrix<float>& l, const DeviceMatrix<float>& b);

  // A = L * Lᵀ in place: the lower triangle of A becomes L, the strict upper triangle is left
  // untouched. Throws NotPositiveDefinite naming the first column whose pivot is not positive.
  void potrf(const DeviceMatrix<double>& a);
  void potrf(const DeviceMatrix<float>& a);

  // Eliminates the first `pivots` variables of the symmetric front F (lower triangle used):
  // F11 := L11 (Cholesky), F21 := L21 = F21 * L11^-T, F22 := F22 - L21 * L21ᵀ (the rank-`pivots`
  // update, lower triangle). F12 is left untouched.
  void front_update(const DeviceMatrix<double>& f, index_t pivots);
  void front_update(const DeviceMatrix<float>& f, index_t pivots);

  // The frontal method's assembly step (double only): the lower triangle of the square `to`
  // (n x n) becomes to(i, j) = from(p, q) + batch(s, t), where p, q = from_index[i],
  // from_index[j] and s, t = batch_index[i], batch_index[j], each pair read as (max, min) so
  // only lower triangles are read; a term with an index of -1 is zero. Both index lists have
  // n entries, on the host. `from` and `batch` are square and in other storage than `to`.
  void front_assemble(const DeviceMatrix<double>& from, const std::vector<std::int32_t>& from_index,
                      const DeviceMatrix<double>& batch,
                      const std::vector<std::int32_t>& batch_index, const DeviceMatrix<double>& to);

protected:
  // Memory primitives. Offsets and pitches in bytes; a rectangle is `rows` rows of `row_bytes`.
  virtual std::shared_ptr<DeviceStorage> allocate_bytes(std::size_t bytes) = 0;  // zero-filled
  virtual std::shared_ptr<DeviceStorage> wrap_host_bytes(void* host, std::size_t bytes);
  virtual void copy_to_device(const void* host, std::size_t host_pitch, DeviceStorage& dst,
                              std::size_t dst_offset, std::size_t dst_pitch, std::size_t row_bytes,
                              std::size_t rows) = 0;
  virtual void copy_to_host(const DeviceStorage& src, std::size_t src_offset, std::size_t src_pitch,
                            void* host, std::size_t host_pitch, std::size_t row_bytes,
                            std::size_t rows) = 0;

  // C := alpha * op_a(A) * op_b(B) + beta * C on the part of C that `fill` names. Shapes have
  // been checked and are non-empty (k may be 0).
  virtual void gemm_kernel(Op op_a, Op op_b, double alpha, const DeviceMatrix<double>& a,
                           const DeviceMatrix<double>& b, double beta,
                           const DeviceMatrix<double>& c, Fill fill) = 0;
  virtual void gemm_kernel(Op op_a, Op op_b, float alpha, const DeviceMatrix<float>& a,
                           const DeviceMatrix<float>& b, float beta, const DeviceMatrix<float>& c,
                           Fill fill) = 0;
  // Unblocked Cholesky of one tile (at most tile_size() wide); returns the first column (within
  // the tile) whose pivot is not positive, or -1.
  virtual index_t potrf_tile(const DeviceMatrix<double>& a) = 0;
  virtual index_t potrf_tile(const DeviceMatrix<float>& a) = 0;
  // Unblocked triangular solve with a tile L (at most tile_size() wide); B may be long.
  virtual void trsm_tile(Side side, Op op_l, const DeviceMatrix<double>& l,
                         const DeviceMatrix<double>& b) = 0;
  virtual void trsm_tile(Side side, Op op_l, const DeviceMatrix<float>& l,
                         const DeviceMatrix<float>& b) = 0;
  // front_assemble with its arguments checked and n > 0; each index array holds n entries.
  virtual void front_assemble_kernel(const DeviceMatrix<double>& from,
                                     const std::int32_t* from_index,
                                     const DeviceMatrix<double>& batch,
                                     const std::int32_t* batch_index,
                                     const DeviceMatrix<double>& to) = 0;
  // Width of the diagonal tiles of the blocked POTRF and TRSM.
  virtual index_t tile_size() const = 0;

private:
  template <class T>
  void gemm_checked(Op op_a, Op op_b, T alpha, const DeviceMatrix<T>& a, const DeviceMatrix<T>& b,
                    T beta, const DeviceMatrix<T>& c, Fill fill, const char* what);
  template <class T>
  void trsm_blocked(Side side, Op op_l, const DeviceMatrix<T>& l, const DeviceMatrix<T>& b);
  template <class T>
  void potrf_blocked(const DeviceMatrix<T>& a);
  template <class T>
  void front_update_blocked(const DeviceMatrix<T>& f, index_t pivots);
  template <class T>
  void check_owned(const DeviceMatrix<T>& m, const char* what, const char* operand) const;
  template <class T>
  bool host_copy_needed(const DeviceMatrix<T>& m, index_t ld, const char* what, const char* operand) const;
};

}  // namespace fem::kernels
