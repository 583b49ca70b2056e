#pragma once
// A renumbering of nodes, kept in both directions because both are needed: assembly maps old
// node -> new (new_of_old), the output maps results back (old_of_new).
#include <span>
#include <vector>

namespace fem::renumber {

struct Permutation {
  std::vector<int> new_of_old;
  std::vector<int> old_of_new;

  int size() const { return static_cast<int>(new_of_old.size()); }

  static Permutation identity(int n);
  // Throws std::invalid_argument when old_of_new is not a permutation of 0..n-1 (names the entry).
  static Permutation from_old_of_new(std::vector<int> old_of_new);
  static Permutation from_new_of_old(std::vector<int> new_of_old);
};

// True when p holds two mutually inverse permutations of 0..n-1.
bool is_valid_permutation(const Permutation& p);

}  // namespace fem::renumber
