#pragma once
// The multifrontal method's device kernels, declared beside the algorithm (Ginkgo's pattern):
// what device_factorisation.cpp asks of a back-end that holds the large fronts in its own memory.
// A back-end folder with them implements MultifrontalKernels and FrontKernels (CUDA:
// kernels/cuda/multifrontal_kernels_cuda.cpp and device_fronts.hpp), and multifrontal_kernels_for
// (multifrontal_kernels.cpp) picks the implementation: the one place that knows which this build
// has. Matrices are row-major as on the host (a front is its panel, rows x own columns, and its
// update matrix, lower triangle).
// Plain C++17 (the CUDA files include it): no device header needed to use it.
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace fem::multifrontal {

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

// A front's elimination on the device, from the device's own clock: its panel (L11 and L21, what
// POTRF and TRSM make) and its update matrix (what SYRK makes).
struct EliminationTimes {
  double panel_s = 0, update_s = 0;
};

// The fronts of one factorisation in device memory: the panels in one store, the update matrices
// alive until their parent has added them in, and the substitution's sweeps over the panels.
template <class T>
class FrontKernels {
 public:
  virtual ~FrontKernels() = default;

  // panel[position[i]] += value[i], i < count: the original matrix entries, all fronts at once.
  virtual void add_to_panels(const std::int64_t* position, const T* value, std::int64_t count) = 0;

  // An r x r update matrix on the device, zeroed; it stays until release().
  virtual T* new_update(std::int64_t r) = 0;
  // A copy on the device of a host update matrix (r x r, row-major); the host array may be
  // freed on return.
  virtual T* upload_update(const T* host, std::int64_t r) = 0;
  virtual void release(T* update) = 0;

  // Adds the lower triangle of the child's update matrix (rc x rc) into a front whose panel is
  // m x k at `panel` in the store and whose update matrix is `update` (m - k square): the child's
  // row x is the front's row relative[map + x]; columns below `into_panel` land in the panel, the
  // others in the update matrix.
  virtual void extend_add(const T* child, std::int64_t rc, std::int64_t map, std::int64_t into_panel,
                          std::int64_t panel, std::int64_t m, std::int64_t k, T* update) = 0;

  // Eliminates the front's k pivots: L11 = chol(F11) and L21 = F21 L11⁻ᵀ in the panel, update -=
  // L21 L21ᵀ (lower triangle); `front` (0 .. fronts - 1) numbers its pivot check.
  virtual void eliminate(std::int64_t panel, std::int64_t m, std::int64_t k, T* update, std::int64_t front) = 0;

  struct Failure {
    std::int64_t front = -1, column = -1;  // -1: every pivot was positive
  };
  // Waits for all queued work. The lowest-numbered front whose pivot was not positive, and the
  // column (within the front) of that pivot.
  virtual Failure finish() = 0;

  // host[i] = panel[position[i]], i < count (after finish()).
  virtual void gather_from_panels(const std::int64_t* position, std::int64_t count, T* host) const = 0;

  // The substitution, after finish(): x to the device, sweeps over the fronts, x back.
  virtual void upload_x(const T* host) = 0;
  virtual void download_x(T* host) = 0;
  // With the front whose panel is m x k at `panel`, its pivots the equations first .. first + k - 1
  // and its rows below them at `below` in the layout's list: forward, x[first ..] := L11⁻¹ x[first ..]
  // and x[below rows] -= L21 x[first ..]; backward, x[first ..] := L11⁻ᵀ (x[first ..] - L21ᵀ x[below rows]).
  virtual void forward(std::int64_t panel, std::int64_t m, std::int64_t k, std::int64_t first, std::int64_t below) = 0;
  virtual void backward(std::int64_t panel, std::int64_t m, std::int64_t k, std::int64_t first, std::int64_t below) = 0;

  // Per front, after finish(): the device's time for its elimination, the assembly left out.
  virtual std::vector<EliminationTimes> elimination_seconds() const = 0;

  // The most device memory held at once: the store, the update matrices and the workspaces.
  virtual std::int64_t peak_bytes() const = 0;
};

// A back-end's multifrontal kernels: whether its device can be used, its memory, and the fronts.
class MultifrontalKernels {
 public:
  virtual ~MultifrontalKernels() = default;
  // Empty when a device can be used here; otherwise why not.
  virtual std::string unavailable_reason() const = 0;
  // Device memory free now, in bytes.
  virtual std::int64_t free_device_bytes() const = 0;
  // The values of the elimination's workspaces for fronts of at most `largest_front` rows.
  virtual std::int64_t workspace_entries(std::int64_t largest_front) const = 0;
  // The fronts of `layout` on the device. Throw kernels::BackendUnavailable without a device,
  // std::runtime_error when the device memory is short.
  virtual std::unique_ptr<FrontKernels<double>> make_fronts_fp64(const FrontLayout& layout) const = 0;
  virtual std::unique_ptr<FrontKernels<float>> make_fronts_fp32(const FrontLayout& layout) const = 0;

  template <class T>
  std::unique_ptr<FrontKernels<T>> make_fronts(const FrontLayout& layout) const {
    if constexpr (std::is_same_v<T, double>) return make_fronts_fp64(layout);
    else return make_fronts_fp32(layout);
  }
};

// The multifrontal kernels of the compute device `device` ("cuda"); null where this build has none.
const MultifrontalKernels* multifrontal_kernels_for(const std::string& device);

}  // namespace fem::multifrontal

namespace fem::kernels::cuda {

// The CUDA back-end's multifrontal kernels.
const multifrontal::MultifrontalKernels& multifrontal_kernels();

}  // namespace fem::kernels::cuda
