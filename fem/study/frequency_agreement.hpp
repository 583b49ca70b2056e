#pragma once
// How far an eigen row's lowest modes are from the reference row's, as `max_rel_diff` of a
// modal comparison.
#include <vector>

namespace fem::study {

// Modes compared: the lowest ones, which every method is asked to agree on.
inline constexpr int kComparedModes = 10;

// Over the lowest min(kComparedModes, both counts) eigenvalues (ascending): the largest relative
// difference of the frequencies, |f - f_ref| / f_ref. A rigid-body mode of the reference (its
// eigenvalue at most 1e-8 of the largest compared, zero but for roundoff) has a frequency that is
// the square root of roundoff: it is measured instead as |lambda - lambda_ref| / lambda_max, the
// eigenvalue against the stiffness of the modes compared. Fewer modes than the reference: infinity.
double frequency_difference(const std::vector<double>& eigenvalues, const std::vector<double>& reference);

}  // namespace fem::study
