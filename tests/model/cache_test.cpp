// Set-associative cache + LRU on hand-built sequences with exact counts.
#include <gtest/gtest.h>

#include <list>
#include <random>
#include <unordered_map>
#include <vector>

#include "tessera/model/cache.h"
#include "tessera/model/replacement/lru/lru.h"
#include "tessera/model/replacement/policies.h"

namespace tessera::model {
namespace {

CacheConfig cfg(uint64_t size, uint32_t ways, uint32_t requesters = 1) {
  CacheConfig c;
  c.name = "test";
  c.size_bytes = size;
  c.ways = ways;
  c.line_bytes = 64;
  c.requesters = requesters;
  return c;
}

// Runs line indices through the cache (reads), returns the hit/miss string.
std::string run(SetAssocCache<LruPolicy>& cache, const std::vector<uint64_t>& lines) {
  std::string s;
  for (uint64_t l : lines) s += cache.access(l * 64, false, 0, AccessInfo{}).hit ? 'H' : 'M';
  return s;
}

TEST(LruHelper, PicksOldestStamp) {
  const std::vector<uint64_t> stamps{7, 3, 9, 4};
  EXPECT_EQ(lru::victim(stamps), 1u);
}

TEST(CacheLru, TwoWaySingleSetSequence) {
  // 128 B, 2 ways, 64 B lines: one set. A B A C B A:
  // A miss, B miss, A hit, C miss (evicts B, the LRU), B miss (evicts A), A miss (evicts C).
  SetAssocCache<LruPolicy> cache(cfg(128, 2));
  EXPECT_EQ(run(cache, {0, 1, 0, 2, 1, 0}), "MMHMMM");
  const CacheCounters& c = cache.counters();
  EXPECT_EQ(c.accesses, 6u);
  EXPECT_EQ(c.hits, 1u);
  EXPECT_EQ(c.misses, 5u);
  EXPECT_EQ(c.evictions, 3u);
  EXPECT_EQ(c.fills, 5u);
  EXPECT_EQ(c.fetches, 5u);
  EXPECT_EQ(c.writebacks, 0u);
}

TEST(CacheLru, CyclicWorkingSets) {
  // 4-way single set: a cyclic working set of 4 lines hits after warm-up, 5 lines always misses
  // under LRU (the classic pathology).
  SetAssocCache<LruPolicy> fits(cfg(256, 4));
  std::vector<uint64_t> four;
  for (int r = 0; r < 5; ++r) for (uint64_t l = 0; l < 4; ++l) four.push_back(l);
  run(fits, four);
  EXPECT_EQ(fits.counters().misses, 4u);
  EXPECT_EQ(fits.counters().hits, 16u);

  SetAssocCache<LruPolicy> thrash(cfg(256, 4));
  std::vector<uint64_t> five;
  for (int r = 0; r < 4; ++r) for (uint64_t l = 0; l < 5; ++l) five.push_back(l);
  run(thrash, five);
  EXPECT_EQ(thrash.counters().misses, 20u);
  EXPECT_EQ(thrash.counters().hits, 0u);
  EXPECT_EQ(thrash.counters().evictions, 16u);
}

TEST(CacheLru, SetIndexing) {
  // 2 sets x 1 way: lines 0 and 2 share set 0, line 1 is in set 1.
  SetAssocCache<LruPolicy> cache(cfg(128, 1));
  EXPECT_EQ(cache.sets(), 2u);
  EXPECT_EQ(run(cache, {0, 1, 0, 1, 2, 1, 0}), "MMHHMHM");
}

TEST(CacheLru, TouchOnHitProtectsLine) {
  // 2-way: A B A(hit, A becomes MRU) C -> evicts B; then A hits.
  SetAssocCache<LruPolicy> cache(cfg(128, 2));
  EXPECT_EQ(run(cache, {0, 1, 0, 2, 0, 1}), "MMHMHM");
}

TEST(CacheWrite, WriteBackOfDirtyVictim) {
  SetAssocCache<LruPolicy> cache(cfg(128, 2));
  CacheOutcome w = cache.access(0x1000, true, 0, AccessInfo{});
  EXPECT_FALSE(w.hit);
  EXPECT_TRUE(w.fetch);  // partial write: the rest of the line comes from below
  EXPECT_FALSE(w.forward_write);
  cache.access(0x2000, false, 0, AccessInfo{});
  const CacheOutcome r = cache.access(0x3000, false, 0, AccessInfo{});  // evicts dirty 0x1000
  EXPECT_TRUE(r.writeback);
  EXPECT_EQ(r.writeback_addr, 0x1000u);
  const CacheOutcome r2 = cache.access(0x4000, false, 0, AccessInfo{});  // evicts clean 0x2000
  EXPECT_FALSE(r2.writeback);
  EXPECT_EQ(cache.counters().writebacks, 1u);
  EXPECT_EQ(cache.counters().evictions, 2u);
  EXPECT_EQ(cache.counters().writes, 1u);
  EXPECT_EQ(cache.counters().write_misses, 1u);
}

// install: a line present at once with nothing fetched and no prefetch counted (perfect caches,
// paper 002 Fig. 3a); it evicts like any fill, and a demand access then hits at once without
// counting a useful prefetch. Installing a present line changes nothing.
TEST(CacheInstall, PresentAtOnceWithoutFetchOrPrefetch) {
  SetAssocCache<LruPolicy> cache(cfg(128, 2));  // one set of two ways
  EXPECT_TRUE(cache.install(0x000, {}).filled);
  EXPECT_TRUE(cache.install(0x040, {}).filled);
  const CacheOutcome third = cache.install(0x080, {});
  EXPECT_TRUE(third.filled);
  EXPECT_FALSE(third.fetch);
  EXPECT_TRUE(third.evicted);
  EXPECT_EQ(third.evicted_addr, 0x000u);
  EXPECT_TRUE(cache.install(0x080, {}).hit);
  const CacheOutcome o = cache.access(0x080, false, 0, {}, 5);
  EXPECT_TRUE(o.hit);
  EXPECT_EQ(o.ready, 0u);
  const CacheCounters& c = cache.counters();
  EXPECT_EQ(c.fills, 3u);
  EXPECT_EQ(c.evictions, 1u);
  EXPECT_EQ(c.fetches, 0u);
  EXPECT_EQ(c.prefetches, 0u);
  EXPECT_EQ(c.prefetch_fills, 0u);
  EXPECT_EQ(c.prefetch_hits, 0u);
  EXPECT_EQ(c.accesses, 1u);
  EXPECT_EQ(c.hits, 1u);
}

TEST(CacheWrite, FullLineWriteMissNeedsNoFetch) {
  SetAssocCache<LruPolicy> cache(cfg(128, 2));
  AccessInfo full;
  full.full_line = true;
  const CacheOutcome w = cache.access(0x40, true, 0, full);
  EXPECT_FALSE(w.fetch);
  EXPECT_EQ(cache.counters().fetches, 0u);
  EXPECT_EQ(cache.counters().fills, 1u);
  EXPECT_TRUE(cache.contains(0x40));
}

TEST(CacheWrite, WriteThroughNoAllocate) {
  CacheConfig c = cfg(128, 2);
  c.write_back = false;
  c.write_allocate = false;
  SetAssocCache<LruPolicy> cache(c);
  const CacheOutcome w = cache.access(0x80, true, 0, AccessInfo{});
  EXPECT_TRUE(w.forward_write);
  EXPECT_FALSE(w.fetch);
  EXPECT_FALSE(cache.contains(0x80));
  cache.access(0x80, false, 0, AccessInfo{});  // read miss allocates
  const CacheOutcome w2 = cache.access(0x80, true, 0, AccessInfo{});  // write hit goes through
  EXPECT_TRUE(w2.hit);
  EXPECT_TRUE(w2.forward_write);
  EXPECT_EQ(cache.counters().write_throughs, 2u);
  EXPECT_EQ(cache.counters().next_level_traffic(), 3u);
}

TEST(CacheCountersTest, PerRequester) {
  SetAssocCache<LruPolicy> cache(cfg(1024, 4, 3));
  cache.access(0, false, 0, AccessInfo{});
  cache.access(0, false, 1, AccessInfo{});
  cache.access(0, false, 1, AccessInfo{});
  cache.access(64, false, 2, AccessInfo{});
  const auto& pr = cache.counters().per_requester;
  ASSERT_EQ(pr.size(), 3u);
  EXPECT_EQ(pr[0].accesses, 1u);
  EXPECT_EQ(pr[0].misses, 1u);
  EXPECT_EQ(pr[1].accesses, 2u);
  EXPECT_EQ(pr[1].hits, 2u);
  EXPECT_EQ(pr[2].misses, 1u);
  EXPECT_THROW(cache.access(0, false, 3, AccessInfo{}), std::out_of_range);
}

TEST(CacheInvalidate, DropsLineAndReportsDirty) {
  SetAssocCache<LruPolicy> cache(cfg(256, 4));
  cache.access(0x100, true, 0, AccessInfo{});
  cache.access(0x140, false, 0, AccessInfo{});
  EXPECT_TRUE(cache.invalidate(0x100));
  EXPECT_FALSE(cache.invalidate(0x140));
  EXPECT_FALSE(cache.invalidate(0x999940));
  EXPECT_FALSE(cache.contains(0x100));
  EXPECT_EQ(cache.counters().invalidations, 2u);
}

// drop_all empties the cache without write-backs, dirty lines counted as dead drops, for a
// scanned set (4 ways) and an indexed one (64 ways, fully associative); the freed ways refill.
TEST(CacheInvalidate, DropAllCountsDirtyLinesAsDeadDrops) {
  for (uint32_t ways : {4u, 64u}) {
    SCOPED_TRACE(ways);
    SetAssocCache<LruPolicy> cache(cfg(64 * 64, ways));
    for (uint64_t line = 0; line < 6; ++line) cache.access(line * 64, line % 2 == 0, 0, AccessInfo{});
    EXPECT_EQ(cache.drop_all(), 3u);
    EXPECT_EQ(cache.counters().dead_drops, 3u);
    EXPECT_EQ(cache.counters().invalidations, 6u);
    EXPECT_EQ(cache.counters().writebacks, 0u);
    for (uint64_t line = 0; line < 6; ++line) EXPECT_FALSE(cache.contains(line * 64));
    // Every way is free again: 64 lines fill without an eviction.
    for (uint64_t line = 100; line < 164; ++line) EXPECT_FALSE(cache.access(line * 64, false, 0, AccessInfo{}).evicted);
    EXPECT_EQ(cache.counters().evictions, 0u);
  }
}

TEST(CacheBanks, OneAccessPerBankPerCycle) {
  CacheConfig c = cfg(1024, 2);  // 8 sets
  c.banks = 2;
  SetAssocCache<LruPolicy> cache(c);
  EXPECT_EQ(cache.reserve_bank(0 * 64, 10), 10u);  // set 0 -> bank 0
  EXPECT_EQ(cache.reserve_bank(2 * 64, 10), 11u);  // set 2 -> bank 0, waits a cycle
  EXPECT_EQ(cache.reserve_bank(1 * 64, 10), 10u);  // set 1 -> bank 1
  EXPECT_EQ(cache.reserve_bank(4 * 64, 20), 20u);  // bank 0 free again
}

// A fully associative cache (one set) interleaves its banks on the line: 4 consecutive lines
// go to 4 banks in one cycle, the 5th waits for bank 0.
TEST(CacheBanks, FullyAssociativeCacheSpreadsLinesOverBanks) {
  CacheConfig c = cfg(1024, 16);  // 16 lines, one set
  c.banks = 4;
  SetAssocCache<LruPolicy> cache(c);
  ASSERT_EQ(cache.sets(), 1u);
  for (uint64_t line = 0; line < 4; ++line) EXPECT_EQ(cache.reserve_bank(line * 64, 10), 10u) << "line " << line;
  EXPECT_EQ(cache.reserve_bank(4 * 64, 10), 11u);
  // Banks beyond the lines mean nothing.
  c.banks = 32;
  EXPECT_THROW(validate_cache_config(c), std::invalid_argument);
}

TEST(CacheConfigTest, RejectsBadGeometryAndPolicy) {
  EXPECT_THROW(SetAssocCache<LruPolicy>(cfg(3 * 64 * 4, 4)), std::invalid_argument);  // 3 sets
  CacheConfig c = cfg(1024, 4);
  c.line_bytes = 48;
  EXPECT_THROW(validate_cache_config(c), std::invalid_argument);
  c = cfg(1000, 4);
  EXPECT_THROW(validate_cache_config(c), std::invalid_argument);
  c = cfg(1024, 4);
  c.policy = "fifo";
  try {
    AnyCache any(c);
    FAIL() << "unknown policy accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("unknown replacement policy 'fifo'"), std::string::npos);
  }
}

TEST(AnyCacheTest, SelectsPolicyByName) {
  CacheConfig c = cfg(128, 2);
  c.policy = "lru";
  AnyCache lru_cache(c);
  c.policy = "opt";
  AnyCache opt_cache(c);
  // Same sequence; OPT (next uses given) keeps A, LRU does not.
  // Sequence A B C A with next uses 3, never, never, never.
  const uint64_t next[] = {3, kNoNextUse, kNoNextUse, kNoNextUse};
  const uint64_t lines[] = {0, 1, 2, 0};
  for (int i = 0; i < 4; ++i) {
    AccessInfo info;
    info.next_use = next[i];
    lru_cache.access(lines[i] * 64, false, 0, info);
    opt_cache.access(lines[i] * 64, false, 0, info);
  }
  EXPECT_EQ(lru_cache.counters().hits, 0u);
  EXPECT_EQ(opt_cache.counters().hits, 1u);
}

// A reference LRU cache of `ways` lines per set (list + map), for caches too large to scan.
class ReferenceLru {
 public:
  ReferenceLru(uint32_t sets, uint32_t ways) : sets_(sets), ways_(ways), order_(sets) {}
  bool access(uint64_t line) {
    std::list<uint64_t>& o = order_[line % sets_];
    auto it = where_.find(line);
    if (it != where_.end()) {
      o.splice(o.begin(), o, it->second);
      return true;
    }
    if (o.size() == ways_) {
      where_.erase(o.back());
      o.pop_back();
    }
    o.push_front(line);
    where_[line] = o.begin();
    return false;
  }
  void invalidate(uint64_t line) {
    auto it = where_.find(line);
    if (it == where_.end()) return;
    order_[line % sets_].erase(it->second);
    where_.erase(it);
  }

 private:
  uint32_t sets_, ways_;
  std::vector<std::list<uint64_t>> order_;
  std::unordered_map<uint64_t, std::list<uint64_t>::iterator> where_;
};

// Caches with more ways than a scan suits find tags through an index and free ways through a
// list (fully associative tile caches of 4096 lines, paper 003 Figs. 1 and 11): the same hits
// and misses as an LRU cache of that shape, invalidations included.
TEST(CacheIndexed, ManyWaysBehaveAsLru) {
  for (const auto& [sets, ways] : {std::pair<uint32_t, uint32_t>{1, 4096}, {4, 64}, {1, 33}}) {
    SCOPED_TRACE(std::to_string(sets) + " x " + std::to_string(ways));
    CacheConfig c;
    c.size_bytes = uint64_t{sets} * ways * 64;
    c.ways = ways;
    SetAssocCache<LruPolicy> cache(c);
    ReferenceLru ref(sets, ways);
    std::mt19937 rng(7);
    std::uniform_int_distribution<uint64_t> pick(0, uint64_t{sets} * ways * 3 / 2);
    uint64_t hits = 0;
    for (int i = 0; i < 60000; ++i) {
      const uint64_t line = pick(rng);
      if (i % 97 == 0) {
        cache.invalidate(line * 64);
        ref.invalidate(line);
        continue;
      }
      const bool expect = ref.access(line);
      ASSERT_EQ(cache.access(line * 64, false, 0, AccessInfo{}).hit, expect) << "access " << i;
      hits += expect;
    }
    EXPECT_GT(hits, 10000u);
  }
}

}  // namespace
}  // namespace tessera::model
