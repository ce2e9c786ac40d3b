// DRRIP (Jaleel et al., ISCA 2010), for the sensitivity study of paper 003 Fig. 13.
#include "tessera/model/replacement/drrip/drrip.h"

#include <gtest/gtest.h>

#include <vector>

#include "tessera/model/cache.h"

namespace tessera::model {
namespace {

TEST(RripHelper, VictimAgesTheSetUntilADistantLine) {
  std::vector<uint8_t> a{1, 3, 0, 3};
  EXPECT_EQ(rrip::victim(a), 1u);  // a distant line already: no ageing, the first one
  EXPECT_EQ(a, (std::vector<uint8_t>{1, 3, 0, 3}));
  std::vector<uint8_t> b{0, 1, 2, 0};
  EXPECT_EQ(rrip::victim(b), 2u);  // aged by one
  EXPECT_EQ(b, (std::vector<uint8_t>{1, 2, 3, 1}));
  std::vector<uint8_t> c{0, 0};
  EXPECT_EQ(rrip::victim(c), 0u);  // aged by three
  EXPECT_EQ(c, (std::vector<uint8_t>{3, 3}));
}

TEST(DrripLeaders, ComplementSelect) {
  // 2048 sets (the RRIP paper's LLC): 32 leaders per policy, one of each per 64-set constituency.
  for (uint32_t sets : {2048u, 64u, 4u}) {
    uint32_t srrip = 0, brrip = 0;
    for (uint32_t s = 0; s < sets; ++s) {
      srrip += drrip::role(s, sets) == drrip::SetRole::SrripLeader;
      brrip += drrip::role(s, sets) == drrip::SetRole::BrripLeader;
    }
    const uint32_t expect = sets >= 128 ? 32 : sets / 4;
    EXPECT_EQ(srrip, expect) << sets;
    EXPECT_EQ(brrip, expect) << sets;
  }
  EXPECT_EQ(drrip::role(0, 2048), drrip::SetRole::SrripLeader);
  EXPECT_EQ(drrip::role(32, 2048), drrip::SetRole::BrripLeader);
  EXPECT_EQ(drrip::role(65, 2048), drrip::SetRole::SrripLeader);
  EXPECT_EQ(drrip::role(1, 2), drrip::SetRole::Follower);  // too few sets to duel
}

TEST(DrripPolicy, BrripInsertsLongOnceEvery32Fills) {
  DrripPolicy p(4, 1, PolicyOptions{});  // set 2 leads BRRIP
  ASSERT_EQ(p.role(2), drrip::SetRole::BrripLeader);
  for (uint32_t i = 1; i <= 64; ++i) {
    p.reset(2, 0, AccessInfo{});
    EXPECT_EQ(p.rrpv(2, 0), i % 32 == 0 ? rrip::kLong : rrip::kDistant) << "fill " << i;
  }
}

// A worked example on 4 sets x 2 ways: set 0 leads SRRIP, set 2 leads BRRIP, sets 1 and 3
// follow PSEL (starting at 511: SRRIP). Lines: set = line mod 4. SetAssocCache fills the
// highest invalid way first, so the first line of a set lands in way 1.
TEST(DrripPolicy, WorkedExample) {
  CacheConfig cfg;
  cfg.size_bytes = 8 * 64;
  cfg.ways = 2;
  SetAssocCache<DrripPolicy> c(cfg);
  const DrripPolicy& p = c.policy();
  auto access = [&](uint64_t line) { return c.access(line * 64, false, 0, {}); };
  const uint64_t A = 0, B = 4, C = 8;     // set 0
  const uint64_t D = 2, E = 6, F = 10;    // set 2
  const uint64_t G = 1;                   // set 1
  ASSERT_EQ(p.role(0), drrip::SetRole::SrripLeader);
  ASSERT_EQ(p.role(2), drrip::SetRole::BrripLeader);
  ASSERT_EQ(p.role(1), drrip::SetRole::Follower);
  EXPECT_EQ(p.psel(), 511u);

  // SRRIP leader: misses insert at 2, hits promote to 0; each miss raises PSEL.
  access(A);
  access(B);
  EXPECT_EQ(p.rrpv(0, 0), 2);
  EXPECT_EQ(p.rrpv(0, 1), 2);
  EXPECT_TRUE(access(A).hit);
  EXPECT_EQ(p.rrpv(0, 1), 0);  // A
  CacheOutcome o = access(C);  // B 2, A 0 age to B 3, A 1: B goes
  EXPECT_EQ(o.evicted_addr, B * 64);
  EXPECT_EQ(p.rrpv(0, 0), 2);  // C
  EXPECT_EQ(p.rrpv(0, 1), 1);  // A
  o = access(B);  // C 2, A 1 age to C 3, A 2: C goes
  EXPECT_EQ(o.evicted_addr, C * 64);
  EXPECT_TRUE(access(A).hit);
  EXPECT_EQ(p.psel(), 515u);

  // BRRIP leader: misses insert at 3 (distant), so a new line is the next victim; each miss
  // lowers PSEL.
  access(D);
  access(E);
  EXPECT_EQ(p.rrpv(2, 0), 3);
  EXPECT_EQ(p.rrpv(2, 1), 3);
  EXPECT_TRUE(access(D).hit);
  o = access(F);  // E 3, D 0: E goes, no ageing
  EXPECT_EQ(o.evicted_addr, E * 64);
  EXPECT_EQ(p.rrpv(2, 1), 0);  // D
  o = access(E);  // F 3, D 0: F goes; D, reused, stays
  EXPECT_EQ(o.evicted_addr, F * 64);
  EXPECT_EQ(p.psel(), 511u);

  // Followers: SRRIP while PSEL's top bit is clear.
  EXPECT_FALSE(p.uses_brrip(1));
  access(G);
  EXPECT_EQ(p.rrpv(1, 1), 2);
  // One more SRRIP-leader miss (C: B 2, A 0 age to B 3, A 1; B goes) tips PSEL to 512: BRRIP.
  o = access(C);
  EXPECT_EQ(o.evicted_addr, B * 64);
  EXPECT_EQ(p.psel(), 512u);
  EXPECT_TRUE(p.uses_brrip(1));
  EXPECT_TRUE(p.uses_brrip(3));
  access(G + 4);  // set 1's other way, now inserted distant
  EXPECT_EQ(p.rrpv(1, 0), 3);
  EXPECT_EQ(p.psel(), 512u);  // follower misses do not move PSEL
}

}  // namespace
}  // namespace tessera::model
