#pragma once
// The process's peak resident memory, resettable so that one solve among several in the same
// process can be measured on its own (Linux: /proc/self/clear_refs, VmHWM).
#include <cstddef>

namespace fem {

// Peak resident set size of the process since start or since the last reset, in bytes.
std::size_t peak_memory_bytes();

// Resident set size of the process now, in bytes.
std::size_t resident_memory_bytes();

// Returns freed heap memory to the system and restarts the peak at the current resident size.
// False where the kernel does not allow it: the peak then covers the whole process lifetime.
bool reset_peak_memory();

}  // namespace fem
