// The lower bound on Attribute Cache misses of paper 003 section V-A (used in Figs. 11-13).
// Every primitive is written exactly once by the Polygon List Builder (TP compulsory write
// misses) and read at least once by the Tile Fetcher; when the Polygon List Builder finishes, at
// most CP primitives are in the cache, so at least TP - CP of them miss on their first read:
//   LB = TP + (TP - CP)   when CP < TP
//   LB = TP               when CP >= TP
// for any associativity and replacement policy.
//   TP: total number of primitives of the frame (binned primitives: one that overlaps no tile
//       is never stored, section II-B);
//   CP: the maximum number of primitives the Attribute Cache can hold.
#pragma once

#include <cstdint>
#include <span>

namespace tessera::model::tcor {

inline uint64_t minimum_read_misses(uint64_t total_primitives, uint64_t cache_primitives) {
  return cache_primitives < total_primitives ? total_primitives - cache_primitives : 0;
}

inline uint64_t miss_lower_bound(uint64_t total_primitives, uint64_t cache_primitives) {
  return total_primitives + minimum_read_misses(total_primitives, cache_primitives);
}

// CP of a TCOR Attribute Cache for a frame whose primitives have varying attribute counts
// (histogram[n] = primitives with n attributes): the most primitives that fit at once, i.e. the
// smallest ones first, limited by the Attribute Buffer's lines and the Primitive Buffer's lines.
// (A baseline line-per-attribute cache is the same with unlimited primitive lines.)
uint64_t max_primitives_held(std::span<const uint64_t> histogram, uint64_t attribute_lines, uint64_t primitive_lines);

}  // namespace tessera::model::tcor
