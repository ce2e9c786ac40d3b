// The dead-line-aware L2 replacement of TCOR (paper 003 section III-D).
#include "tessera/model/replacement/dead_line/dead_line.h"

#include "tessera/model/replacement/policies.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tessera::model {
namespace {

using dead_line::LineState;
using dead_line::PbClass;
using dead_line::pb_access;

TEST(DeadLineHelper, VictimOrderDeadThenNonPbThenLivePbLruWithin) {
  // 4 tiles finished (positions 0..3 done).
  std::vector<LineState> set = {
      {PbClass::Attributes, 10, 1},  // live PB, oldest of all
      {PbClass::None, dead_line::kNeverDead, 2},
      {PbClass::Lists, 3, 6},        // dead: its tile (position 3) is done
      {PbClass::Attributes, 1, 5},   // dead, older than way 2
      {PbClass::None, dead_line::kNeverDead, 3},
      {PbClass::Lists, 4, 4},        // live: position 4 not finished
  };
  EXPECT_EQ(dead_line::victim(set, 4), 3u);
  set[3].cls = PbClass::None;  // way 3 now texture data (stamp 5)
  EXPECT_EQ(dead_line::victim(set, 4), 2u);
  set[2] = {PbClass::Attributes, 4, 6};
  EXPECT_EQ(dead_line::victim(set, 4), 1u);  // no dead line: the LRU non-PB line
  set[1] = {PbClass::Lists, 9, 2};
  set[3] = {PbClass::Lists, 9, 5};
  set[4] = {PbClass::Attributes, 9, 3};
  EXPECT_EQ(dead_line::victim(set, 4), 0u);  // all live PB: plain LRU
  EXPECT_EQ(dead_line::victim(set, 11), 0u);  // all dead: LRU among them
  // A line of a finished pass is dead whatever its tile; an unknown last tile is never dead.
  EXPECT_EQ(dead_line::group({PbClass::Dead, 100, 1}, 0), 0u);
  EXPECT_EQ(dead_line::group({PbClass::Attributes, dead_line::kNeverDead, 1}, 4000), 2u);
}

TEST(DeadLinePolicy, LinesDieAsTheTileFetcherAdvances) {
  DeadLinePolicy p(1, 3);
  p.reset(0, 0, pb_access(PbClass::Attributes, 2));  // last read by the tile at position 2
  p.reset(0, 1, AccessInfo{});                        // texture line
  p.reset(0, 2, pb_access(PbClass::Lists, 0));
  EXPECT_EQ(p.victim(0, AccessInfo{}), 1u);  // nothing dead yet: the non-PB line
  p.tile_finished();            // position 0 done: the PB-Lists line of tile 0 is dead
  EXPECT_TRUE(p.dead(0, 2));
  EXPECT_EQ(p.victim(0, AccessInfo{}), 2u);
  p.tile_finished();
  EXPECT_FALSE(p.dead(0, 0));
  p.tile_finished();  // position 2 done
  EXPECT_TRUE(p.dead(0, 0));
  EXPECT_EQ(p.victim(0, AccessInfo{}), 0u);  // dead lines by LRU: way 0 is older than way 2
  EXPECT_EQ(p.tiles_finished(), 3u);
}

// Section III-D2: "In case the evicted line is dead, it does not have to be written back to
// Main Memory even if it is dirty."
TEST(DeadLinePolicy, DeadDirtyVictimIsDroppedLiveDirtyIsWrittenBack) {
  DeadLinePolicy p(1, 2);
  p.reset(0, 0, pb_access(PbClass::Attributes, 0));  // dirty in the caller's tag array
  p.reset(0, 1, pb_access(PbClass::Attributes, 5));  // dirty as well
  p.tile_finished();
  ASSERT_EQ(p.victim(0, AccessInfo{}), 0u);
  EXPECT_FALSE(p.writes_back(0, 0, true));  // dead and dirty: dropped
  EXPECT_TRUE(p.writes_back(0, 1, true));   // live and dirty: written back
  EXPECT_FALSE(p.writes_back(0, 1, false)); // clean: nothing to write
}

TEST(DeadLinePolicy, NewPassKillsOldLinesAndRetagging) {
  DeadLinePolicy p(1, 2);
  p.reset(0, 0, pb_access(PbClass::Lists, 7));
  p.reset(0, 1, AccessInfo{});
  for (int i = 0; i < 3; ++i) p.tile_finished();
  EXPECT_FALSE(p.dead(0, 0));
  p.pass_begin();  // the counter restarts; the old PB line belongs to a finished pass
  EXPECT_EQ(p.tiles_finished(), 0u);
  EXPECT_TRUE(p.dead(0, 0));
  EXPECT_FALSE(p.dead(0, 1));
  // The new pass's Polygon List Builder writes the same address: the hit re-tags it live.
  p.touch(0, 0, pb_access(PbClass::Lists, 1));
  EXPECT_FALSE(p.dead(0, 0));
  p.touch(0, 0, AccessInfo{});  // a hit without PB information keeps the tag
  EXPECT_EQ(p.line(0, 0).cls, PbClass::Lists);
  EXPECT_EQ(p.victim(0, AccessInfo{}), 1u);
  p.invalidate(0, 0);
  EXPECT_EQ(p.line(0, 0).cls, PbClass::None);
}

// In a cache (the L2 of paper 003 section III-D): a dirty PB line whose last tile the Tile Fetcher
// has finished is the first victim and is dropped, counted as a dead drop, not a write-back; an
// LRU L2 evicts the texture line and writes the PB line back later.
TEST(DeadLinePolicy, CacheDropsDeadDirtyVictims) {
  for (const char* policy : {"dead-line", "lru"}) {
    SCOPED_TRACE(policy);
    CacheConfig c;
    c.size_bytes = 2 * 64;
    c.ways = 2;
    c.policy = policy;
    AnyCache l2(c);
    AccessInfo pb = pb_access(PbClass::Attributes, 0);  // read last by the tile at position 0
    pb.full_line = true;
    l2.access(0, true, 0, pb);           // a dirty attribute line (a write-back from the tile cache)
    l2.access(64, false, 0, AccessInfo{});  // a texture line, touched after it
    l2.tile_finished();  // the Tile Fetcher's signal: LRU ignores it
    const CacheOutcome o = l2.access(128, false, 0, AccessInfo{});
    ASSERT_TRUE(o.evicted);
    if (std::string(policy) == "dead-line") {
      EXPECT_EQ(o.evicted_addr, 0u);
      EXPECT_FALSE(o.writeback);
      EXPECT_EQ(l2.counters().dead_drops, 1u);
      EXPECT_EQ(l2.counters().writebacks, 0u);
    } else {
      EXPECT_EQ(l2.policy_as<DeadLinePolicy>(), nullptr);
      EXPECT_EQ(o.evicted_addr, 0u);  // LRU: the older line, written back
      EXPECT_TRUE(o.writeback);
      EXPECT_EQ(l2.counters().dead_drops, 0u);
    }
  }
}

}  // namespace
}  // namespace tessera::model
