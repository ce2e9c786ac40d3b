#include "tfm/filter_cache.h"

#include <algorithm>

namespace tessera::model::tfm {

CacheConfig filter_cache_config(FilterKind kind) {
  CacheConfig c;
  c.name = kind == FilterKind::DirectMapped512 ? "filter-dm512" : "filter-fa512";
  c.size_bytes = kFilterBytes;
  c.line_bytes = kFilterLineBytes;
  c.ways = kind == FilterKind::DirectMapped512 ? 1 : static_cast<uint32_t>(kFilterBytes / kFilterLineBytes);
  c.hit_latency = 1;
  c.write_back = false;  // read-only texture data
  c.policy = "lru";
  return c;
}

uint32_t filter_tag_compares(FilterKind kind) {
  return kind == FilterKind::DirectMapped512 ? 1 : static_cast<uint32_t>(kFilterBytes / kFilterLineBytes);
}

FilterCaches::FilterCaches(FilterKind kind, uint32_t cores) : kind_(kind) { reset(cores); }

void FilterCaches::reset(uint32_t cores) {
  caches_.assign(cores, SetAssocCache<LruPolicy>(filter_cache_config(kind_)));
}

bool FilterCaches::texel(uint32_t core, uint64_t block, uint32_t block_bytes, uint64_t now, uint64_t* ready,
                         std::vector<FilterFill>& fills) {
  SetAssocCache<LruPolicy>& cache = caches_.at(core);
  bool hit = true;
  uint64_t present = 0;
  const uint64_t last = (block + std::max<uint32_t>(block_bytes, 1) - 1) & ~uint64_t{kFilterLineBytes - 1};
  for (uint64_t line = block & ~uint64_t{kFilterLineBytes - 1}; line <= last; line += kFilterLineBytes) {
    const CacheOutcome o = cache.access(line, false, 0, AccessInfo{}, now);
    counters_.tag_compares += filter_tag_compares(kind_);
    if (o.hit) {
      present = std::max(present, o.ready);
    } else {
      hit = false;
      ++counters_.fills;
      fills.push_back(FilterFill{line, o.slot});
    }
  }
  ++counters_.accesses;
  counters_.hits += hit ? 1 : 0;
  *ready = present;
  return hit;
}

void FilterCaches::set_ready(uint32_t core, uint64_t slot, uint64_t ready) {
  CacheOutcome filled;
  filled.filled = true;
  filled.slot = slot;
  caches_.at(core).set_ready(filled, ready);
}

}  // namespace tessera::model::tfm
