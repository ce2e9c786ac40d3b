#include "tessera/model/cache.h"

#include <bit>
#include <string>

#include "tessera/model/replacement/policies.h"

namespace tessera::model {

namespace {
[[noreturn]] void fail(const CacheConfig& c, const std::string& what) {
  throw std::invalid_argument("cache '" + c.name + "': " + what);
}
}  // namespace

void validate_cache_config(const CacheConfig& c) {
  if (c.line_bytes == 0 || !std::has_single_bit(c.line_bytes)) fail(c, "line size must be a power of two");
  if (c.ways == 0) fail(c, "ways must be at least 1");
  if (c.size_bytes == 0 || c.size_bytes % (uint64_t{c.line_bytes} * c.ways) != 0) {
    fail(c, "size " + std::to_string(c.size_bytes) + " is not a multiple of ways x line size");
  }
  const uint64_t sets = c.size_bytes / (uint64_t{c.line_bytes} * c.ways);
  if (!std::has_single_bit(sets)) fail(c, "number of sets (" + std::to_string(sets) + ") must be a power of two");
  if (sets > (uint64_t{1} << 31)) fail(c, "too many sets");
  if (c.banks == 0 || !std::has_single_bit(c.banks)) fail(c, "banks must be a power of two");
  if (c.banks > c.size_bytes / c.line_bytes) fail(c, "more banks than lines");
  if (c.requesters == 0) fail(c, "requesters must be at least 1");
}

CacheCounters& CacheCounters::operator+=(const CacheCounters& o) {
  accesses += o.accesses;
  reads += o.reads;
  writes += o.writes;
  hits += o.hits;
  misses += o.misses;
  read_misses += o.read_misses;
  write_misses += o.write_misses;
  fills += o.fills;
  fetches += o.fetches;
  evictions += o.evictions;
  writebacks += o.writebacks;
  write_throughs += o.write_throughs;
  bypasses += o.bypasses;
  prefetches += o.prefetches;
  prefetch_fills += o.prefetch_fills;
  prefetch_hits += o.prefetch_hits;
  late_prefetch_hits += o.late_prefetch_hits;
  prefetch_evictions += o.prefetch_evictions;
  invalidations += o.invalidations;
  mshr_merges += o.mshr_merges;
  mshr_stall_cycles += o.mshr_stall_cycles;
  dead_drops += o.dead_drops;
  if (per_requester.size() < o.per_requester.size()) per_requester.resize(o.per_requester.size());
  for (size_t i = 0; i < o.per_requester.size(); ++i) per_requester[i] += o.per_requester[i];
  return *this;
}

std::vector<std::string_view> replacement_policy_names() {
  return {LruPolicy::kName, OptPolicy::kName, MruPolicy::kName, DrripPolicy::kName, DeadLinePolicy::kName};
}

CachePolicyVariant AnyCache::make(const CacheConfig& config) {
  if (config.policy == LruPolicy::kName) return CachePolicyVariant(std::in_place_index<0>, config);
  if (config.policy == OptPolicy::kName) return CachePolicyVariant(std::in_place_index<1>, config);
  if (config.policy == MruPolicy::kName) return CachePolicyVariant(std::in_place_index<2>, config);
  if (config.policy == DrripPolicy::kName) return CachePolicyVariant(std::in_place_index<3>, config);
  if (config.policy == DeadLinePolicy::kName) return CachePolicyVariant(std::in_place_index<4>, config);
  std::string known;
  for (auto n : replacement_policy_names()) known += (known.empty() ? "" : ", ") + std::string(n);
  throw std::invalid_argument("cache '" + config.name + "': unknown replacement policy '" + config.policy +
                              "' (known: " + known + ")");
}

AnyCache::AnyCache(const CacheConfig& config) : cache_(make(config)) {}

}  // namespace tessera::model
