#pragma once
// Figures of a distributed run put together from every rank's share by MPI reductions: sums,
// extremes and where they are, and one number per rank. Collective over PETSC_COMM_WORLD: every
// rank makes the same calls and gets the same answer.
#include <array>
#include <cstdint>
#include <vector>

namespace fem {

// A nodal quantity's extreme and where: the node's number in the whole mesh and its coordinates.
struct NodeExtreme {
  double value = 0;
  std::int64_t node = 0;
  std::array<double, 3> x{};
};

// The largest (sign -1: smallest) of every rank's `mine`; of equal ones, the lowest rank's.
NodeExtreme extreme_over_ranks(const NodeExtreme& mine, double sign);

// Sums `values` over the ranks, in place.
void sum_over_ranks(std::vector<double>& values);
double sum_over_ranks(double value);
std::int64_t sum_over_ranks(std::int64_t value);
std::int64_t max_over_ranks(std::int64_t value);

// Every rank's `value`, rank 0's first.
std::vector<double> per_rank(double value);

}  // namespace fem
