#include "tcor/primitive_list_cache.h"

namespace tessera::model::tcor {

CacheConfig PrimitiveListCache::config(uint64_t size_bytes, uint32_t ways, uint32_t line_bytes, uint32_t mshrs) {
  CacheConfig c;
  c.name = "tcor.plc";
  c.size_bytes = size_bytes;
  c.ways = ways;
  c.line_bytes = line_bytes;
  c.mshrs = mshrs;
  c.policy = "lru";
  return c;
}

PrimitiveListCache::PrimitiveListCache(uint64_t size_bytes, uint32_t ways, uint32_t line_bytes, uint32_t mshrs)
    : cache_(config(size_bytes, ways, line_bytes, mshrs)), line_offset_mask_(uint64_t{line_bytes} - 1) {
  fresh_line_.full_line = true;
}

}  // namespace tessera::model::tcor
