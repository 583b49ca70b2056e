#pragma once
// The multifrontal method's large fronts on a CUDA device. The factor panels of those fronts live
// in one device store; update matrices are taken from the stream-ordered memory pool and given
// back as soon as the parent has added them in, so a chain of fronts never leaves the device.
// A front's pivots are eliminated by blocks (our diagonal-block kernel, cuBLAS GEMM and SYRK, see
// eliminate()), its update matrix by one SYRK; the panels stay for the substitution's sweeps over
// them (cuBLAS TRSV and GEMV on a device copy of x). Matrices are row-major as on the host (a
// front is its panel, rows x own columns, and its update matrix, lower triangle); all work is
// queued on one stream (a front's block rows on a second one, joined before the front ends) and
// runs while the host goes on.
// Plain C++17 (the .cu files are compiled as such): no CUDA header needed to use it.
#include <cstdint>
#include <memory>
#include <vector>

namespace fem::kernels::cuda {

// What the device holds from the start (the index arrays are uploaded once).
struct FrontLayout {
  std::int64_t panel_entries = 0;      // the panel store, zeroed
  const std::int32_t* relative = nullptr;  // every extend-add's map of child rows to front rows, concatenated
  std::int64_t relative_count = 0;
  const std::int32_t* below = nullptr;     // every front's rows below its pivots (equations), concatenated
  std::int64_t below_count = 0;
  std::int64_t fronts = 0;             // eliminations to be made, each with its pivot check
  std::int64_t equations = 0;          // the length of the substitution's x
  std::int64_t largest_front = 0;      // rows of the largest front (the elimination's scratch)
};

// A front's elimination on the device, from CUDA events: its panel (L11 and L21, what POTRF and
// TRSM make) and its update matrix (what SYRK makes).
struct EliminationTimes {
  double panel_s = 0, update_s = 0;
};

template <class T>
class DeviceFronts {
 public:
  // Throws BackendUnavailable without a device, std::runtime_error when the device memory is short.
  explicit DeviceFronts(const FrontLayout& layout);
  // The values of the elimination's workspaces (a diagonal block's inverse, a block row's scratch)
  // for fronts of at most `largest_front` rows.
  static std::int64_t workspace_entries(std::int64_t largest_front);
  ~DeviceFronts();
  DeviceFronts(const DeviceFronts&) = delete;
  DeviceFronts& operator=(const DeviceFronts&) = delete;

  // panel[position[i]] += value[i], i < count: the original matrix entries, all fronts at once.
  void add_to_panels(const std::int64_t* position, const T* value, std::int64_t count);

  // An r x r update matrix on the device, zeroed; it stays until release().
  T* new_update(std::int64_t r);
  // A copy on the device of a host update matrix (r x r, row-major); the host array may be
  // freed on return.
  T* upload_update(const T* host, std::int64_t r);
  void release(T* update);

  // Adds the lower triangle of the child's update matrix (rc x rc) into a front whose panel is
  // m x k at `panel` in the store and whose update matrix is `update` (m - k square): the child's
  // row x is the front's row relative[map + x]; columns below `into_panel` land in the panel, the
  // others in the update matrix.
  void extend_add(const T* child, std::int64_t rc, std::int64_t map, std::int64_t into_panel, std::int64_t panel,
                  std::int64_t m, std::int64_t k, T* update);

  // Eliminates the front's k pivots: L11 = chol(F11) and L21 = F21 L11⁻ᵀ in the panel, update -=
  // L21 L21ᵀ (lower triangle); `front` (0 .. fronts - 1) numbers its pivot check.
  void eliminate(std::int64_t panel, std::int64_t m, std::int64_t k, T* update, std::int64_t front);

  struct Failure {
    std::int64_t front = -1, column = -1;  // -1: every pivot was positive
  };
  // Waits for all queued work. The lowest-numbered front whose pivot was not positive, and the
  // column (within the front) of that pivot.
  Failure finish();

  // host[i] = panel[position[i]], i < count (after finish()).
  void gather_from_panels(const std::int64_t* position, std::int64_t count, T* host) const;

  // The substitution, after finish(): x to the device, sweeps over the fronts, x back.
  void upload_x(const T* host);
  void download_x(T* host);
  // With the front whose panel is m x k at `panel`, its pivots the equations first .. first + k - 1
  // and its rows below them at `below` in the layout's list: forward, x[first ..] := L11⁻¹ x[first ..]
  // and x[below rows] -= L21 x[first ..]; backward, x[first ..] := L11⁻ᵀ (x[first ..] - L21ᵀ x[below rows]).
  void forward(std::int64_t panel, std::int64_t m, std::int64_t k, std::int64_t first, std::int64_t below);
  void backward(std::int64_t panel, std::int64_t m, std::int64_t k, std::int64_t first, std::int64_t below);

  // Per front, after finish(): the device's time for its elimination, the assembly left out.
  std::vector<EliminationTimes> elimination_seconds() const;

  // The most device memory held at once: the store, the update matrices and the workspaces.
  std::int64_t peak_bytes() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Device memory free now, in bytes.
std::int64_t free_device_bytes();

extern template class DeviceFronts<double>;
extern template class DeviceFronts<float>;

}  // namespace fem::kernels::cuda
