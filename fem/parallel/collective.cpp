#include "fem/parallel/collective.hpp"

#include <exception>
#include <stdexcept>
#include <string>

namespace fem {

void collectively(MPI_Comm comm, const std::function<void()>& step) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  std::string message;
  bool failed = false;
  try {
    step();
  } catch (const std::exception& e) {
    failed = true;
    message = e.what();
  }
  const int mine = failed ? rank : ranks;
  int first = ranks;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == ranks) return;
  int length = static_cast<int>(message.size());
  MPI_Bcast(&length, 1, MPI_INT, first, comm);
  message.resize(static_cast<std::size_t>(length));
  MPI_Bcast(message.data(), length, MPI_CHAR, first, comm);
  throw std::runtime_error("rank " + std::to_string(first) + " of " + std::to_string(ranks) + ": " + message);
}

}  // namespace fem
