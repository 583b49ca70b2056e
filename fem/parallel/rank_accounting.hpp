#pragma once
// What each rank of a distributed run held and spent, for the run summary: its peak memory,
// cells, and each phase's time as the slowest rank's with the spread between the
// slowest and the quickest. Collective over PETSC_COMM_WORLD.
#include <cstdint>

#include <nlohmann/json.hpp>

namespace fem {

// Adds peak_memory_bytes_per_rank, peak_memory_bytes (the largest), cells_per_rank (`cells`:
// this rank's, its ghost layer's included), time_s (per phase, the slowest rank's) and
// time_spread_s (per phase, the slowest rank's less the quickest's). `phase_times`: this rank's
// seconds per phase.
void describe_ranks(nlohmann::json& summary, const nlohmann::json& phase_times, std::int64_t cells);

}  // namespace fem
