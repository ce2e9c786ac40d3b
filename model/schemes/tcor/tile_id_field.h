// A tile id as TCOR stores it in hardware: an n-bit field (12 bits in paper 003) holding the
// position of a tile in the Tile Fetcher's processing order. Two fields use it:
//   - the OPT Number (section III-A), in each PMD and each Primitive Buffer line: the next tile
//     that reads the primitive; all ones means "never read again", which is the farthest future
//     and so the first choice for eviction (section III-C6 picks the greatest OPT Number);
//   - the last-tile id of an L2 line (section III-D1): the last tile that reads it.
// Tile positions are compared, never tile coordinates: "next" and "last" are only meaningful in
// processing order, and the L2 learns progress by counting finished tiles.
//
// Frames with more tiles than the field can name (4095 with 12 bits: 1960x768 at 32x32 has
// 1488, 2160x1080 has 2312, but 3840x2160 has 8160) saturate, each field in its safe direction:
//   - an OPT Number beyond the field becomes the largest live value (all ones minus one): such a
//     primitive still sorts after every nearer one and before "never", and primitives that far
//     away tie among themselves. OPT Numbers only steer replacement, so saturation costs hits,
//     never correctness;
//   - a last-tile id beyond the field becomes "never dead": the L2 drops dead dirty lines without
//     a write-back, so calling a line dead too early would lose data, while keeping it live too
//     long only costs capacity.
#pragma once

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include "tessera/model/access.h"
#include "tessera/model/replacement/dead_line/dead_line.h"

namespace tessera::model::tcor {

class TileIdField {
 public:
  // bits: 2 .. 32 (with 1 bit the only live code would be tile 0).
  explicit TileIdField(uint32_t bits = 12) : bits_(bits) {
    if (bits < 2 || bits > 32) throw std::invalid_argument("tile id field of " + std::to_string(bits) + " bits (2 .. 32)");
    never_ = bits == 32 ? std::numeric_limits<uint32_t>::max() : (1u << bits) - 1;
  }

  uint32_t bits() const { return bits_; }
  // The OPT Number meaning "never read again".
  uint32_t never() const { return never_; }
  // OPT Number of the next read at processing position `position` (kNoNextUse: no further read;
  // tessera/model/next_use.h next_tile).
  uint32_t opt_number(uint64_t position) const {
    if (position == kNoNextUse) return never_;
    return position >= never_ ? never_ - 1 : static_cast<uint32_t>(position);
  }
  // L2 last-tile tag of a line last read at `position` (dead_line::kNeverDead when it does not fit).
  uint32_t last_tile_tag(uint64_t position) const {
    return position >= never_ ? dead_line::kNeverDead : static_cast<uint32_t>(position);
  }

 private:
  uint32_t bits_;
  uint32_t never_;
};

}  // namespace tessera::model::tcor
