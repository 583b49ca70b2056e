#pragma once
// Numbers as people read them in tables and progress lines.
#include <cstdint>
#include <string>

namespace fem {

// 1234567 -> "1,234,567".
std::string with_commas(long long value);

// 3.5e9 bytes -> "3.3 GiB" (B, KiB, MiB, GiB, TiB).
std::string human_bytes(double bytes);

}  // namespace fem
