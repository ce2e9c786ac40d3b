// LRU insertion (AccessInfo::insert_at_lru; Qureshi et al., ISCA 2007), used by DTM-NUCA's
// nuca.requester_fill: a line filled at the bottom of the LRU stack is its set's next victim, the
// last such fill first, until a hit promotes it to the top. Also in a set wide enough for the
// policy's tournament tree (way_tree.h).
#include <gtest/gtest.h>

#include "tessera/model/cache.h"
#include "tessera/model/replacement/lru/lru.h"

namespace tessera::model {
namespace {

uint64_t at(int line) { return uint64_t(line) * 64; }

AccessInfo at_lru() {
  AccessInfo i;
  i.insert_at_lru = true;
  return i;
}

TEST(LruInsertion, WorkedExample) {
  for (const uint32_t ways : {4u, 64u}) {
    SCOPED_TRACE(ways);
    CacheConfig cfg;
    cfg.size_bytes = ways * 64;
    cfg.ways = ways;
    SetAssocCache<LruPolicy> c(cfg);
    // Fill the set with lines 0 .. ways-3 normally (0 the oldest), then X and Y at the LRU
    // position (Y last): the stack, top to bottom, is ways-3 ... 0 X Y.
    for (int l = 0; l < static_cast<int>(ways) - 2; ++l) c.access(at(l), false, 0, {});
    const int X = 1000, Y = 1001, Z = 1002, W = 1003;
    c.install(at(X), at_lru());
    c.install(at(Y), at_lru());
    EXPECT_EQ(c.access(at(Z), false, 0, {}).evicted_addr, at(Y));  // the last LRU fill goes first
    EXPECT_TRUE(c.access(at(X), false, 0, {}).hit);                 // a hit promotes X to the top
    EXPECT_EQ(c.access(at(W), false, 0, {}).evicted_addr, at(0));   // so the oldest normal line goes
    EXPECT_TRUE(c.contains(at(X)));
  }
}

}  // namespace
}  // namespace tessera::model
