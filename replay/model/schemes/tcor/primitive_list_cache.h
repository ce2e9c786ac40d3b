// The Primitive List Cache of TCOR (paper 003 section III-C1, Fig. 7): the half of the split
// Tile Cache that serves PB-Lists. A PB-Lists line is written PMD by PMD by the Polygon List
// Builder (16 PMDs of 4 B per 64 B line: reuse at line level) and read once by the Tile Fetcher,
// and PB-Lists traffic is small next to the attributes, so the paper keeps "a conventional cache
// with an LRU replacement policy": the project's SetAssocCache with LruPolicy, 16 KiB.
//
// Write-combining: the Polygon List Builder appends PMDs to fresh lines, so a PMD write that
// misses allocates its line without fetching it (AccessInfo::full_line); if that line was
// evicted between two appends, the next PMD write allocates again and the L2 merges the partial
// lines (byte-enabled write-back) -- the PMDs are never read back from the L2 to be combined.
#pragma once

#include <cstdint>

#include "tessera/model/cache.h"
#include "tessera/model/replacement/lru/lru.h"

namespace tessera::model::tcor {

class PrimitiveListCache {
 public:
  // Throws std::invalid_argument for a geometry SetAssocCache refuses (sets not a power of two...).
  PrimitiveListCache(uint64_t size_bytes, uint32_t ways = 4, uint32_t line_bytes = 64, uint32_t mshrs = 0);

  // A PMD write by the Polygon List Builder (whole-line allocation, no fetch).
  CacheOutcome write_pmd(uint64_t addr, uint64_t now = 0) { return cache_.access(addr, true, 0, full_line_, now); }
  // A line read by the Tile Fetcher.
  CacheOutcome read_line(uint64_t addr, uint64_t now = 0) { return cache_.access(addr, false, 0, AccessInfo{}, now); }

  const CacheCounters& counters() const { return cache_.counters(); }
  SetAssocCache<LruPolicy>& cache() { return cache_; }
  const SetAssocCache<LruPolicy>& cache() const { return cache_; }

  static CacheConfig config(uint64_t size_bytes, uint32_t ways, uint32_t line_bytes, uint32_t mshrs = 0);

 private:
  SetAssocCache<LruPolicy> cache_;
  AccessInfo full_line_;
};

}  // namespace tessera::model::tcor
