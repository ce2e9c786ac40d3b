#include "tfm/filter_cache.h"

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

bool FilterCaches::access(uint32_t core, uint64_t line_addr) {
  const bool hit = caches_.at(core).access(line_addr, false, 0, AccessInfo{}).hit;
  ++counters_.accesses;
  counters_.hits += hit ? 1 : 0;
  counters_.tag_compares += filter_tag_compares(kind_);
  return hit;
}

}  // namespace tessera::model::tfm
