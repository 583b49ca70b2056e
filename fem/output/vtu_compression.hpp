#pragma once
// How the appended data of a .vtu is compressed (the case file's output.compression), a named
// choice (support/named_choice.hpp). Header-only so that the case reader can name the choices
// without linking VTK.
#include <utility>

#include "support/named_choice.hpp"

namespace fem {

enum class VtuCompression { None, Lz4, Zlib };

// Raw results are mostly doubles that compress poorly; large writes are fastest uncompressed.
inline constexpr VtuCompression kDefaultVtuCompression = VtuCompression::None;

template <>
struct ChoiceNames<VtuCompression> {
  static constexpr std::pair<VtuCompression, const char*> names[] = {
      {VtuCompression::None, "none"}, {VtuCompression::Lz4, "lz4"}, {VtuCompression::Zlib, "zlib"}};
};

}  // namespace fem
