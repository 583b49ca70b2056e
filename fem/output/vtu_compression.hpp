#pragma once
// How the appended data of a .vtu is compressed (the case file's output.compression).
// Header-only so that the case reader can name the choices without linking VTK.
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace fem {

enum class VtuCompression { None, Lz4, Zlib };

// Raw results are mostly doubles that compress poorly; large writes are fastest uncompressed.
inline constexpr VtuCompression kDefaultVtuCompression = VtuCompression::None;

// The names in case files, in the order of the enum.
inline const std::vector<const char*> kVtuCompressionNames = {"none", "lz4", "zlib"};

inline const char* vtu_compression_name(VtuCompression c) { return kVtuCompressionNames[static_cast<int>(c)]; }

// Throws std::invalid_argument naming the accepted names.
inline VtuCompression parse_vtu_compression(std::string_view name) {
  for (std::size_t i = 0; i < kVtuCompressionNames.size(); ++i)
    if (name == kVtuCompressionNames[i]) return static_cast<VtuCompression>(i);
  throw std::invalid_argument("unknown compression '" + std::string(name) + "' (expected none, lz4 or zlib)");
}

}  // namespace fem
