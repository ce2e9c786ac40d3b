// The Primitive Buffer of the Attribute Cache (paper 003 section III-C2, Fig. 8): one line per
// cached primitive with a valid, a lock and a dirty bit, the tag, the OPT Number and the
// Attribute Buffer Pointer (ABP) to the primitive's first attribute. It is indexed with the
// Primitive ID (the address of the first attribute) through an XOR-based placement function
// (González et al., ICS 1997, the paper's [12]): the set is the low bits of the line number
// XOR the next bits, which spreads the regular strides of primitives with equal attribute counts
// over every set (Topham and González [36]).
//
// The lock bit of a line reserves it for an outstanding miss (section III-C3); the Rasterizer's
// lock sits on the first Attribute Buffer entry (attribute_buffer.h). A line can be evicted only
// when neither is held (section III-C5).
#pragma once

#include <bit>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "tcor/attribute_buffer.h"
#include "tessera/model/replacement/dead_line/dead_line.h"

namespace tessera::model::tcor {

struct PrimitiveBufferLine {
  uint64_t tag = 0;         // line number of the Primitive ID (the whole of it: simpler than the MSBs, same effect)
  uint32_t opt_number = 0;  // encoded (TileIdField)
  uint32_t abp = AttributeBuffer::kNull;
  uint32_t attributes = 0;
  // The L2 last-tile tag the Polygon List Builder stored in the spare 16 bytes of each attribute
  // line (section III-D1): travels with the lines when they are written back.
  uint32_t last_tile = dead_line::kNeverDead;
  uint64_t last_use = 0;    // with tcor.policy=lru: the access that last touched the primitive
  bool valid = false;
  bool lock = false;
  bool dirty = false;
};

namespace primitive_set {

inline constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();

// Per-set replacement decision (section III-C6 for OPT): the valid line `evictable` accepts that
// `better` ranks first (`better(a, b)`: a goes before b); the lowest way among equals (the paper
// does not order ties). kNone when no line qualifies.
template <class Evictable, class Better>
uint32_t victim(std::span<const PrimitiveBufferLine> lines, Evictable&& evictable, Better&& better) {
  uint32_t best = kNone;
  for (uint32_t w = 0; w < lines.size(); ++w) {
    if (!lines[w].valid || !evictable(lines[w])) continue;
    if (best == kNone || better(lines[w], lines[best])) best = w;
  }
  return best;
}

}  // namespace primitive_set

class PrimitiveBuffer {
 public:
  // sets and line_bytes: powers of two; ways >= 1. Throws std::invalid_argument otherwise.
  PrimitiveBuffer(uint32_t sets, uint32_t ways, uint32_t line_bytes);

  uint32_t sets() const { return sets_; }
  uint32_t ways() const { return ways_; }
  uint32_t lines() const { return static_cast<uint32_t>(lines_.size()); }

  uint64_t tag_of(uint64_t primitive_id) const { return primitive_id >> line_shift_; }
  uint32_t set_of(uint64_t primitive_id) const {
    const uint64_t line = primitive_id >> line_shift_;
    return static_cast<uint32_t>((line ^ (line >> set_bits_)) & (sets_ - 1));
  }

  // Index (set * ways + way) of the line holding the primitive, or kNone.
  uint32_t find(uint64_t primitive_id) const;
  // Index of an invalid line of `set`, or kNone.
  uint32_t free_line(uint32_t set) const;

  std::span<const PrimitiveBufferLine> set(uint32_t s) const {
    return std::span<const PrimitiveBufferLine>(lines_).subspan(static_cast<size_t>(s) * ways_, ways_);
  }
  PrimitiveBufferLine& line(uint32_t index) { return lines_[index]; }
  const PrimitiveBufferLine& line(uint32_t index) const { return lines_[index]; }

 private:
  uint32_t sets_, ways_;
  uint32_t set_bits_, line_shift_;
  std::vector<PrimitiveBufferLine> lines_;  // sets x ways, contiguous per set
};

}  // namespace tessera::model::tcor
