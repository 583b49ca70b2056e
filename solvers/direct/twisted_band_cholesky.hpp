#pragma once
// The two-sided ("twisted", burn at both ends) band Cholesky: half the critical path of the
// one-sided factorisation, no more flops. The band is cut at row m into
//   T = [0, m), S = [m, m + kd) (the separator, kd rows) and B = [m + kd, n).
// T and B do not touch (their rows are more than kd apart), so eliminating T top-down updates
// only T and S, and eliminating B bottom-up (top-down on the reflected matrix J A J) only B and
// S; S, dense, takes both Schur complements and is eliminated last. That is the Cholesky
// factorisation of A in the order T, B reversed, S, with no fill outside the band, so the factor
// fits the layout the band is loaded in (TwistedBand: n + kd rows, kd more than one-sided):
//   - top: rows [0, m + kd) of the band, factored as a band of their own by a one-sided walker,
//     hold L_TT and L_ST; their S block first holds L1, L1 L1ᵀ = A_SS - C_top;
//   - bottom: S and B reflected (J A J, n - m rows), loaded so (load_twisted_band) and factored by
//     a second walker at the same time, hold L_BB and L_SB (reflected); their S block first holds
//     L2 with (J L2 J)(J L2 J)ᵀ = A_SS - C_bot;
//   - separator: A_SS - C_top - C_bot = L1 L1ᵀ + (J L2 J)(J L2 J)ᵀ - A_SS (a copy of A_SS taken
//     before; the back-end's SYRKs), written into the top's S block and factored there by the
//     walker on the whole device (those kd rows are a band of their own, every entry inside its
//     bandwidth) into L_S; the bottom's S block becomes the identity, for the substitution.
// The substitution (with y = L⁻¹ b by blocks): forward over the bottom band with the right-hand
// side [b_B reversed, 0] gives y_B and, in its S rows, -L_SB y_B (the identity's diagonal), which
// is added to b_S; forward and back over the top band give x_S and x_T (it is the factor of
// [[A_TT, A_TS], [A_ST, A_SS - C_bot]]); back over the bottom band with its S rows set to x_S
// (reflected) gives x_B, since the identity passes x_S through and L_BBᵀ x_B = y_B - L_SBᵀ x_S.
//
// A pivot that is not positive is named by its equation in A: the top walker's first (T, or S
// as one-sided Cholesky meets it), else the bottom's (B, or S from below), else the separator's.
#include <cstddef>
#include <functional>

#include "solvers/direct/band_cholesky.hpp"

namespace fem::band {

// Where the band is cut: T = [0, m), S = [m, m + kd), B = [m + kd, n).
struct TwistedSplit {
  index_t n = 0, kd = 0, m = 0;
  index_t top_rows() const { return m + kd; }         // T and S: the top walker's band
  index_t bottom_rows() const { return n - m; }       // S and B, reflected: the bottom walker's band
  index_t bottom_only_rows() const { return n - m - kd; }  // B
  // The equation of A that row i of the reflected band is.
  index_t original_of_reflected(index_t i) const { return n - 1 - i; }
};

// The split at m (0 <= m <= n - kd, kd >= 1; throws std::invalid_argument otherwise).
TwistedSplit twisted_split(index_t n, index_t kd, index_t m);
// The split whose two walkers' bands are as long as the rows allow: m + kd and n - m rows.
TwistedSplit balanced_split(index_t n, index_t kd);

// A band in the two-sided layout on a back-end: the top and bottom bands (n + kd rows) and the
// separator's two kd x kd blocks. Loaded it holds A's entries (every other stored entry zero);
// factor_twisted turns it into the factor.
template <class T>
struct TwistedBand {
  TwistedSplit split;
  BandOnBackend<T> top;     // rows [0, m + kd) of A's band; factored: L_TT, then [L_ST | L_S]
  BandOnBackend<T> bottom;  // S and B reflected, row i equation n - 1 - i; factored: L_BB, then [L_SB | I]
  kernels::DeviceMatrix<T> separator;  // dense kd x kd: A_SS, then A_SS - C_top - C_bot
  kernels::DeviceMatrix<T> triangle;   // dense kd x kd: L1, then J L2 J

  // The back-end memory it takes.
  std::size_t bytes() const;
};

// Where the bottom band starts: right after the top band's rows, at the next multiple of this
// many bytes in their one allocation: packed right after the top's rows, its rows lie off the
// 256-byte grid the walkers read in, and they are slower
// (bench/results/2026-11-27-band-gpu-two-sided.md); 256 is as fast as an allocation of its own.
inline constexpr std::size_t kBottomAlignment = 256;

// The most back-end memory a TwistedBand for `layout` takes: n + kd rows, 2 kd^2 entries and the
// bottom band's alignment.
std::size_t twisted_bytes(const BandLayout& layout, std::size_t element_bytes);

// A zero-filled TwistedBand for a band in `layout` cut by `split` (no memory check: the loaders
// make theirs, naming what they load).
template <class T>
TwistedBand<T> allocate_twisted(kernels::DenseBackend& backend, const BandLayout& layout, const TwistedSplit& split);

// Where the factorisation's time went (the back-end synchronised between the parts), seconds.
struct TwistedTimes {
  double copy_s = 0;       // A_SS copied into the separator's block
  double walkers_s = 0;    // the two walkers, side by side
  double top_s = 0, bottom_s = 0;  // each walker's, from the same start to its return
  double combine_s = 0;    // S = L1 L1ᵀ + (J L2 J)(J L2 J)ᵀ - A_SS, written into the top band
  double separator_s = 0;  // S factored, the bottom's S block made the identity
};

// Factors a band in place (layout and rows as given) on share `part` of `parts` of the device,
// throwing kernels::NotPositiveDefinite naming its first failing row: the top band with (0, 2)
// and the bottom one with (1, 2) from two threads at once, then the separator with (0, 1).
template <class T>
using Walker = std::function<void(const BandOnBackend<T>&, int part, int parts)>;

// Factors a loaded TwistedBand in place (no allocation, no copy of the bands). Throws
// kernels::NotPositiveDefinite naming an equation of A.
template <class T>
void factor_twisted(kernels::DenseBackend& backend, const TwistedBand<T>& band, const Walker<T>& walker,
                    TwistedTimes* times = nullptr);

// Solves A X = B in place for the n x r right-hand sides X (row-major, on the back-end).
template <class T>
void substitute_twisted(kernels::DenseBackend& backend, const TwistedBand<T>& factor,
                        const kernels::DeviceMatrix<T>& x);

}  // namespace fem::band
