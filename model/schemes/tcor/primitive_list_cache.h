// The Primitive List Cache of TCOR (paper 003 section III-C1, Fig. 7): the half of the split
// Tile Cache that serves PB-Lists. A PB-Lists line is written PMD by PMD by the Polygon List
// Builder (16 PMDs of 4 B per 64 B line: reuse at line level) and read once by the Tile Fetcher,
// and PB-Lists traffic is small next to the attributes, so the paper keeps "a conventional cache
// with an LRU replacement policy": the project's SetAssocCache with LruPolicy, 16 KiB.
//
// Writes (a modelling choice; section III-C1 gives the cache, not its write policy): write-back,
// write-allocate. A PMD at the start of a line (the first of its 16) begins a fresh line, so its
// miss allocates the line without a fetch (AccessInfo::full_line); a later PMD that misses (its
// line was evicted since the first) fetches the line, whose earlier PMDs are now in the L2, and
// appends to it.
#pragma once

#include <cstdint>

#include "tessera/model/cache.h"
#include "tessera/model/replacement/lru/lru.h"

namespace tessera::model::tcor {

class PrimitiveListCache {
 public:
  // Throws std::invalid_argument for a geometry SetAssocCache refuses (sets not a power of two...).
  PrimitiveListCache(uint64_t size_bytes, uint32_t ways = 4, uint32_t line_bytes = 64, uint32_t mshrs = 0);

  // A PMD write by the Polygon List Builder: a miss fetches the line unless the PMD is its first.
  CacheOutcome write_pmd(uint64_t addr, uint64_t now = 0) {
    return cache_.access(addr, true, 0, (addr & line_offset_mask_) == 0 ? fresh_line_ : AccessInfo{}, now);
  }
  // A line read by the Tile Fetcher.
  CacheOutcome read_line(uint64_t addr, uint64_t now = 0) { return cache_.access(addr, false, 0, AccessInfo{}, now); }

  const CacheCounters& counters() const { return cache_.counters(); }
  SetAssocCache<LruPolicy>& cache() { return cache_; }
  const SetAssocCache<LruPolicy>& cache() const { return cache_; }

  static CacheConfig config(uint64_t size_bytes, uint32_t ways, uint32_t line_bytes, uint32_t mshrs = 0);

 private:
  SetAssocCache<LruPolicy> cache_;
  uint64_t line_offset_mask_;
  AccessInfo fresh_line_;
};

}  // namespace tessera::model::tcor
