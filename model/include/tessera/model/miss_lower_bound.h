// The lower bound on a Parameter Buffer cache's misses of paper 003 section V-A (Figs. 11-13),
// for any associativity and replacement policy. Every item (a primitive of TCOR's Attribute
// Cache, a line of the unified tile cache) is written once by the Polygon List Builder -- a
// compulsory write miss -- and read at least once by the Tile Fetcher; when binning ends the
// cache holds at most its capacity, so the rest miss on their first read:
//   LB = TP + (TP - CP)   when CP < TP
//   LB = TP               when CP >= TP
//   TP: the items written (binned primitives: one that overlaps no tile is never stored, II-B);
//   CP: the most items the cache can hold.
#pragma once

#include <cstdint>

namespace tessera::model {

inline uint64_t minimum_read_misses(uint64_t total, uint64_t capacity) {
  return capacity < total ? total - capacity : 0;
}

inline uint64_t miss_lower_bound(uint64_t total, uint64_t capacity) {
  return total + minimum_read_misses(total, capacity);
}

}  // namespace tessera::model
