#pragma once
// What each rank of a distributed run held and spent, for the run summary: its peak memory and
// cells, and each phase's time as the slowest rank's with the spread between the slowest and the
// quickest. Collective over PETSC_COMM_WORLD.
#include <cstdint>

#include <nlohmann/json.hpp>

namespace fem {

// Adds peak_memory_bytes_per_rank (each rank's peak so far), peak_memory_bytes (the largest) and
// cells_per_rank (`cells`: the cells this rank holds).
void describe_rank_holdings(nlohmann::json& summary, std::int64_t cells);

// Adds time_s (per phase, the slowest rank's) and time_spread_s (per phase, the slowest rank's
// less the quickest's). `phase_times`: this rank's seconds per phase, the same phases on every rank.
void describe_rank_times(nlohmann::json& summary, const nlohmann::json& phase_times);

}  // namespace fem
