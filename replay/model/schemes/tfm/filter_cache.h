// The filter caches paper 004 compares TFM with (section V-A, Fig. 8, cases 3 and 4, after
// J. Kin et al., "The filter cache", MICRO 1997): a 512 B cache in front of each L1 texture
// cache, direct-mapped (filter-dm512) or fully associative (filter-fa512), 64 B lines (one 4x4
// block of 4-byte texels), LRU in the fully associative one. Both are the project's
// SetAssocCache (cache.h) with that geometry: 8 sets x 1 way, or 1 set x 8 ways.
//
// One access per line request (the unit of Tessera's texture stream); a miss reads the line
// from L1 and allocates it. A direct-mapped access compares one tag, a fully associative one all
// eight (what its energy pays, tfm_energy.h).
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
  uint64_t accesses = 0;
  uint64_t hits = 0;
  uint64_t tag_compares = 0;
  uint64_t fills() const { return accesses - hits; }
};

class FilterCaches {
 public:
  // One filter cache per core.
  FilterCaches(FilterKind kind, uint32_t cores);

  // A read of the line at `line_addr` by `core`: true on a hit; a miss allocates the line (the
  // caller reads it from L1).
  bool access(uint32_t core, uint64_t line_addr);
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
