#include "fem/parallel/rank_reductions.hpp"

#include <mpi.h>
#include <petscsys.h>

namespace fem {

NodeExtreme extreme_over_ranks(const NodeExtreme& mine, double sign) {
  int rank = 0;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  struct {
    double value;
    int rank;
  } local{sign * mine.value, rank}, best{0, 0};
  MPI_Allreduce(&local, &best, 1, MPI_DOUBLE_INT, MPI_MAXLOC, PETSC_COMM_WORLD);
  NodeExtreme extreme = mine;
  double place[4] = {static_cast<double>(mine.node), mine.x[0], mine.x[1], mine.x[2]};
  MPI_Bcast(place, 4, MPI_DOUBLE, best.rank, PETSC_COMM_WORLD);
  extreme.value = sign * best.value;
  extreme.node = static_cast<std::int64_t>(place[0]);
  extreme.x = {place[1], place[2], place[3]};
  return extreme;
}

void sum_over_ranks(std::vector<double>& values) {
  MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_DOUBLE, MPI_SUM, PETSC_COMM_WORLD);
}

double sum_over_ranks(double value) {
  double total = 0;
  MPI_Allreduce(&value, &total, 1, MPI_DOUBLE, MPI_SUM, PETSC_COMM_WORLD);
  return total;
}

std::int64_t sum_over_ranks(std::int64_t value) {
  std::int64_t total = 0;
  MPI_Allreduce(&value, &total, 1, MPI_INT64_T, MPI_SUM, PETSC_COMM_WORLD);
  return total;
}

std::int64_t max_over_ranks(std::int64_t value) {
  std::int64_t largest = 0;
  MPI_Allreduce(&value, &largest, 1, MPI_INT64_T, MPI_MAX, PETSC_COMM_WORLD);
  return largest;
}

std::vector<double> per_rank(double value) {
  int ranks = 1;
  MPI_Comm_size(PETSC_COMM_WORLD, &ranks);
  std::vector<double> values(static_cast<std::size_t>(ranks));
  MPI_Allgather(&value, 1, MPI_DOUBLE, values.data(), 1, MPI_DOUBLE, PETSC_COMM_WORLD);
  return values;
}

}  // namespace fem
