#include "fem/renumber/permutation.hpp"

#include <numeric>
#include <stdexcept>
#include <string>

namespace fem::renumber {
namespace {

// The inverse of `map`, which must be a permutation of 0..n-1; `what` names it in messages.
std::vector<int> inverse_of(const std::vector<int>& map, const char* what) {
  const int n = static_cast<int>(map.size());
  std::vector<int> inverse(n, -1);
  for (int i = 0; i < n; ++i) {
    const int k = map[i];
    if (k < 0 || k >= n)
      throw std::invalid_argument(std::string("permutation: ") + what + "[" + std::to_string(i) + "] = " +
                                  std::to_string(k) + " is outside [0, " + std::to_string(n) + ")");
    if (inverse[k] != -1)
      throw std::invalid_argument(std::string("permutation: ") + what + " holds " + std::to_string(k) +
                                  " twice (at " + std::to_string(inverse[k]) + " and " + std::to_string(i) + ")");
    inverse[k] = i;
  }
  return inverse;
}

}  // namespace

Permutation Permutation::identity(int n) {
  Permutation p;
  p.new_of_old.resize(n);
  std::iota(p.new_of_old.begin(), p.new_of_old.end(), 0);
  p.old_of_new = p.new_of_old;
  return p;
}

Permutation Permutation::from_old_of_new(std::vector<int> old_of_new) {
  Permutation p;
  p.new_of_old = inverse_of(old_of_new, "old_of_new");
  p.old_of_new = std::move(old_of_new);
  return p;
}

Permutation Permutation::from_new_of_old(std::vector<int> new_of_old) {
  Permutation p;
  p.old_of_new = inverse_of(new_of_old, "new_of_old");
  p.new_of_old = std::move(new_of_old);
  return p;
}

bool is_valid_permutation(const Permutation& p) {
  const int n = p.size();
  if (static_cast<int>(p.old_of_new.size()) != n) return false;
  for (int i = 0; i < n; ++i) {
    const int k = p.new_of_old[i];
    if (k < 0 || k >= n || p.old_of_new[k] != i) return false;
  }
  return true;
}

}  // namespace fem::renumber
