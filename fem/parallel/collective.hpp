#pragma once
// Failures that end the run on every rank: bad input met by one rank (an inverted element in its
// part, a file it cannot write) must not leave the others waiting in the next collective call.
#include <mpi.h>

#include <functional>

namespace fem {

// Runs `step` on every rank of `comm` (a collective call). When it throws on one or more ranks,
// every rank throws std::runtime_error with the message of the lowest failing rank, prefixed by
// that rank.
void collectively(MPI_Comm comm, const std::function<void()>& step);

}  // namespace fem
