#include "tcor/primitive_list_cache.h"

namespace tessera::model::tcor {

CacheConfig PrimitiveListCache::config(uint64_t size_bytes, uint32_t ways, uint32_t line_bytes) {
  CacheConfig c;
  c.name = "tcor.plc";
  c.size_bytes = size_bytes;
  c.ways = ways;
  c.line_bytes = line_bytes;
  c.policy = "lru";
  return c;
}

PrimitiveListCache::PrimitiveListCache(uint64_t size_bytes, uint32_t ways, uint32_t line_bytes)
    : cache_(config(size_bytes, ways, line_bytes)) {
  full_line_.full_line = true;
}

}  // namespace tessera::model::tcor
