#pragma once
// One block column of a left-looking blocked Cholesky factorisation in a single launch. The
// block column is a w x w diagonal tile D (w <= block_column_width) and the `below` rows under
// it; the `left` columns just left of it already hold L. The kernel subtracts their
// contribution, A := A - L_left L_leftᵀ (on the FP64 tensor cores in double), factors D := L
// (L Lᵀ = D) and solves B := B L⁻ᵀ.
//
// This is the chain that sets the pace of a band factorisation on a GPU (every step waits for
// the one before), so it is one launch instead of a GEMM, a POTRF and a TRSM, and its columns
// are factored in registers, not through shared memory.
#include <cuda_runtime.h>

#include "kernels/band_layout.hpp"
#include "kernels/cuda/device_buffer.hpp"
#include "kernels/device_matrix.hpp"

namespace fem::kernels::cuda {

constexpr int block_column_width = 64;

template <class T>
struct BlockColumn {
  T* diagonal = nullptr;    // D(0, 0); rows are row-major with leading dimension ld
  long long ld = 0;
  int width = 0;            // columns of D: 1 to block_column_width
  long long below = 0;      // rows under D
  int left = 0;             // factored columns left of D whose update is still to be applied
  long long bandwidth = 0;  // left of D, entries further than this from the diagonal are zero
                            // and are not read (a band's storage need not hold them)
};

// Device scratch the launches share: a counter that the blocks of one launch use to tell the
// last of them (it writes D back once every other block has read it), zero between launches.
// One per stream that launches block_column_cholesky.
class BlockColumnScratch {
 public:
  BlockColumnScratch();
  unsigned* arrivals() const { return arrivals_.get(); }

 private:
  DeviceBuffer<unsigned> arrivals_;
};

// Asynchronously on `stream`. The first pivot that is not positive sets *info, if it is still
// 0, to info_base + its column in D + 1 (cuSOLVER's convention); what follows it is NaN.
template <class T>
void block_column_cholesky(const BlockColumn<T>& column, int* info, int info_base, const BlockColumnScratch& scratch,
                           cudaStream_t stream);

// The block columns of the band factorisation (band_cholesky_cuda.hpp), as it launches them.
// Whether the block column kernel applies the update of the block column before its own (blocks
// of one kernel's width); wider blocks get it from a cuBLAS SYRK and GEMM, which cost less than
// the kernels applying it 64 columns at a time.
bool kernel_applies_previous_block(index_t block);

// The block column kernel's work for the columns from c on (c a multiple of
// block_column_width) of the step whose block column starts at column j, with
// `diagonal` pointing at the entry (j + c, j + c) of a band in `layout` (leading dimension
// layout.window()): as the factorisation launches it.
template <class T>
BlockColumn<T> step_block_column(const BandLayout& layout, T* diagonal, index_t j, index_t c);

}  // namespace fem::kernels::cuda
