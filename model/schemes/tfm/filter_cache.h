// The filter caches paper 004 compares TFM with (section V-A, Fig. 8, cases 3 and 4, after
// J. Kin et al., "The filter cache", MICRO 1997): a 512 B cache in front of each L1 texture
// cache, direct-mapped (filter-dm512) or fully associative (filter-fa512), 64 B lines (one 4x4
// block of 4-byte texels), LRU in the fully associative one. Both are the project's
// SetAssocCache (cache.h) with that geometry: 8 sets x 1 way, or 1 set x 8 ways.
//
// One access per texel read, as paper 004's Algorithm 1 looks up each texel t1..t4 of a bilinear
// footprint (the unit of Fig. 8 for every architecture it compares, and the unit of TFM's
// accesses): a texel's block lives in the 64 B line(s) it overlaps; the access hits when all of
// them are present, and a missing line is read from L1 and allocated. A direct-mapped lookup
// compares one tag per line, a fully associative one all eight (what its energy pays,
// tfm_energy.h). Each line keeps the cycle its L1 read completes (SetAssocCache ready times): a
// later quad's hit on a line still in flight waits for it.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "tessera/model/cache.h"
#include "tessera/model/replacement/lru/lru.h"

namespace tessera::model::tfm {

enum class FilterKind : uint8_t { DirectMapped512, FullyAssociative512 };

inline constexpr uint64_t kFilterBytes = 512;
inline constexpr uint32_t kFilterLineBytes = 64;

CacheConfig filter_cache_config(FilterKind kind);
// Tag comparisons per access: 1 or 8.
uint32_t filter_tag_compares(FilterKind kind);

struct FilterCounters {
  uint64_t accesses = 0;      // texel reads
  uint64_t hits = 0;          // texel reads whose lines were all present
  uint64_t tag_compares = 0;
  uint64_t fills = 0;         // lines read from L1 and allocated
  uint64_t misses() const { return accesses - hits; }
};

// A line a texel read allocated: read it from L1, then set_ready() its slot.
struct FilterFill {
  uint64_t line = 0;
  uint64_t slot = 0;
};

class FilterCaches {
 public:
  // One filter cache per core.
  FilterCaches(FilterKind kind, uint32_t cores);

  // One texel read by `core` at cycle `now` from the block at `block` (`block_bytes` long): true
  // on a hit, with the cycle its data is present in `ready` (after `now` while a fill is in
  // flight); the lines it allocates are appended to `fills`.
  bool texel(uint32_t core, uint64_t block, uint32_t block_bytes, uint64_t now, uint64_t* ready,
             std::vector<FilterFill>& fills);
  // The line allocated in `slot` of `core`'s cache is present from `ready`.
  void set_ready(uint32_t core, uint64_t slot, uint64_t ready);
  // Empty caches for `cores` cores (start of a frame), counters kept.
  void reset(uint32_t cores);

  FilterKind kind() const { return kind_; }
  const FilterCounters& counters() const { return counters_; }
  const SetAssocCache<LruPolicy>& cache(uint32_t core) const { return caches_.at(core); }

 private:
  FilterKind kind_;
  std::vector<SetAssocCache<LruPolicy>> caches_;
  FilterCounters counters_;
};

}  // namespace tessera::model::tfm
