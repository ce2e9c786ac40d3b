// MRU replacement (for the sensitivity study of paper 003 Fig. 13).
#include "tessera/model/replacement/mru/mru.h"

#include <gtest/gtest.h>

#include <vector>

#include "tessera/model/cache.h"

namespace tessera::model {
namespace {

TEST(MruHelper, NewestStampLoses) {
  const std::vector<uint64_t> stamps{5, 9, 2, 7};
  EXPECT_EQ(mru::victim(stamps), 1u);
}

TEST(MruPolicy, WorkedExample) {
  // One set of 3 ways. A B C fill it; A is hit; D evicts A (the most recent); B is hit; E
  // evicts B; D is hit; F evicts D. C, the oldest, survives throughout.
  CacheConfig cfg;
  cfg.size_bytes = 3 * 64;
  cfg.ways = 3;
  SetAssocCache<MruPolicy> c(cfg);
  enum { A, B, C, D, E, F };
  auto at = [](int line) { return uint64_t(line) * 64; };
  for (int l : {A, B, C}) EXPECT_FALSE(c.access(at(l), false, 0, {}).hit);
  EXPECT_TRUE(c.access(at(A), false, 0, {}).hit);
  CacheOutcome o = c.access(at(D), false, 0, {});
  EXPECT_EQ(o.evicted_addr, at(A));
  EXPECT_TRUE(c.access(at(B), false, 0, {}).hit);
  o = c.access(at(E), false, 0, {});
  EXPECT_EQ(o.evicted_addr, at(B));
  EXPECT_TRUE(c.access(at(D), false, 0, {}).hit);
  o = c.access(at(F), false, 0, {});
  EXPECT_EQ(o.evicted_addr, at(D));
  EXPECT_TRUE(c.contains(at(C)));
  EXPECT_TRUE(c.contains(at(E)));
  EXPECT_TRUE(c.contains(at(F)));
  EXPECT_EQ(c.counters().misses, 6u);
}

}  // namespace
}  // namespace tessera::model
