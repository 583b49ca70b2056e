#pragma once
// Numbers as people read them in tables and progress lines.
#include <cstdint>
#include <string>

namespace fem {

// 1234567 -> "1,234,567".
std::string with_commas(long long value);

// Four significant figures and the unit, with an SI prefix from k to G for units that take one
// (Pa, N): 2.3117e8, "Pa" -> "231.2 MPa"; 1.5e-5, "m" -> "1.5e-05 m".
std::string with_unit(double value, const std::string& unit, bool prefixed = false);

// 3.5e9 bytes -> "3.3 GiB" (B, KiB, MiB, GiB, TiB).
std::string human_bytes(double bytes);

}  // namespace fem
