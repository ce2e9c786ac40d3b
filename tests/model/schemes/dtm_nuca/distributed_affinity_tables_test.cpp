// DTM-NUCA-Dist tables (paper 000 section IV-B): every node owns every bucket at first, claims
// broadcast at the end of an epoch, applied lazily as packets arrive, ties to the lowest id.
#include <gtest/gtest.h>

#include "dtm-nuca/distributed_affinity_tables.h"

namespace tessera::model::dtm_nuca {
namespace {

// 4 nodes on a 2 x 2 mesh (0 1 / 2 3), 4 buckets of 1-block pages (bucket = block mod 4), 4-bit
// counters, an epoch of 10 accesses, 16 B flits: a packet is 1 head + 4 x 5 bits = 2 flits.
DistributedTablesConfig config() { return DistributedTablesConfig{4, 4, 4, 1, 10, 16}; }

void first_epoch(DistributedAffinityTables& t) {
  // Node 0: bucket 0 once, bucket 1 twice; node 3: bucket 1 three times; nodes 1 and 2: bucket 2
  // twice each. The 10th access ends the epoch at cycle 100.
  const auto access = [&](uint32_t node, uint64_t block, int times) {
    bool ended = false;
    for (int i = 0; i < times; ++i) {
      t.count(node, block);
      ended = t.count_access(100);
    }
    return ended;
  };
  EXPECT_FALSE(access(0, 0, 1));
  EXPECT_FALSE(access(0, 1, 2));
  EXPECT_FALSE(access(3, 5, 3));
  EXPECT_FALSE(access(2, 2, 2));
  EXPECT_TRUE(access(1, 6, 2));
}

TEST(DistributedAffinityTables, EveryNodeOwnsEveryBucketAtFirst) {
  Mesh2D mesh(MeshShape::for_nodes(4), 1);
  DistributedAffinityTables t(config(), mesh);
  EXPECT_EQ(t.packet_flits(), 2u);
  for (uint32_t n = 0; n < 4; ++n) {
    for (uint64_t block = 0; block < 8; ++block) EXPECT_EQ(t.owner(n, block, 0), n);
  }
}

TEST(DistributedAffinityTables, LazyUpdateAndTieRule) {
  Mesh2D mesh(MeshShape::for_nodes(4), 1);
  DistributedAffinityTables t(config(), mesh);
  first_epoch(t);
  EXPECT_EQ(t.epochs(), 1u);
  EXPECT_EQ(mesh.counters().packets, 12u);  // every node to the 3 others
  EXPECT_EQ(mesh.counters().flits, 24u);
  EXPECT_EQ(t.counter(0, 1), 0u);           // counters restart for the next epoch

  // Node 0 knows its own claims at once: buckets 0 and 1 are its own at cycle 100.
  EXPECT_EQ(t.owner(0, 0, 100), 0u);
  // Bucket 2 at node 0: the stale owner (itself) until node 1's packet arrives at 102 (one hop,
  // 2 flits), then node 1; node 2's equal claim arriving at 104 does not displace the lower id.
  EXPECT_EQ(t.owner(0, 2, 101), 0u);
  EXPECT_EQ(t.owner(0, 2, 102), 1u);
  EXPECT_EQ(t.owner(0, 2, 104), 1u);
  // Bucket 1 at node 0: its own claim (2) until node 3's claim (3) arrives at 106 (two hops,
  // after contention with node 2's packet on link 2>0 and node 0's ejection port).
  EXPECT_EQ(t.owner(0, 1, 105), 0u);
  EXPECT_EQ(t.owner(0, 1, 106), 3u);
  // Tie in the other arrival order: node 2 holds its own claim on bucket 2 until node 1's equal
  // claim arrives at 106, which wins on the lower id.
  EXPECT_EQ(t.owner(2, 2, 105), 2u);
  EXPECT_EQ(t.owner(2, 2, 106), 1u);
  // Bucket 3 was claimed by nobody: every node keeps its owner (itself).
  EXPECT_EQ(t.owner(3, 3, 1000), 3u);
  // Once every packet has arrived all tables agree on the claimed buckets.
  for (uint32_t n = 0; n < 4; ++n) {
    EXPECT_EQ(t.owner(n, 0, 1000), 0u) << "node " << n;
    EXPECT_EQ(t.owner(n, 1, 1000), 3u) << "node " << n;
    EXPECT_EQ(t.owner(n, 2, 1000), 1u) << "node " << n;
  }
  EXPECT_EQ(t.ownership_changes(), 0u);  // first agreements are not changes
}

TEST(DistributedAffinityTables, NewEpochSupersedesPacketsInFlight) {
  Mesh2D mesh(MeshShape::for_nodes(4), 1);
  DistributedAffinityTables t(config(), mesh);
  first_epoch(t);
  // Epoch 2 ends at cycle 103: the packets of round 1 delivered by then (two at 102) apply, the
  // other 10 are dropped. Node 0 now claims bucket 1 with 4 against nobody: the agreed owner of
  // bucket 1 moves from 3 to 0.
  for (int i = 0; i < 4; ++i) {
    t.count(0, 1);
    t.count_access(103);
  }
  for (int i = 0; i < 6; ++i) {
    t.count(2, 3);
    t.count_access(103);
  }
  EXPECT_EQ(t.epochs(), 2u);
  EXPECT_EQ(t.packets_dropped(), 10u);
  EXPECT_EQ(t.ownership_changes(), 1u);
  EXPECT_EQ(t.view(1, 2), 1u);  // node 1 kept its own round-1 claim on bucket 2
  EXPECT_EQ(t.owner(3, 1, 100000), 0u);
  EXPECT_EQ(t.owner(3, 3, 100000), 2u);
}

TEST(DistributedAffinityTables, CountersHalveOnSaturation) {
  Mesh2D mesh(MeshShape::for_nodes(4), 1);
  DistributedAffinityTables t(DistributedTablesConfig{4, 4, 2, 1, 1000, 16}, mesh);
  // 2-bit counters: 1, 2, then 3 saturates and halves to 1; 2, then 3 again: 1.
  const uint32_t expected[] = {1, 2, 1, 2, 1, 2};
  for (uint32_t e : expected) {
    t.count(1, 0);
    EXPECT_EQ(t.counter(1, 0), e);
  }
  // A 1-bit counter saturates at every access and keeps a claim of 1.
  DistributedAffinityTables one(DistributedTablesConfig{4, 4, 1, 1, 1000, 16}, mesh);
  one.count(2, 1);
  one.count(2, 1);
  EXPECT_EQ(one.counter(2, 1), 1u);
}

// Every node uses a bucket more than 15 times an epoch: the 4-bit counters do not all end at the
// same value, so the owner is not simply the lowest id.
TEST(DistributedAffinityTables, HeavyUsersDoNotAllTie) {
  Mesh2D mesh(MeshShape::for_nodes(4), 1);
  DistributedAffinityTables t(DistributedTablesConfig{4, 1, 4, 1, 4 * 20 + 3 + 2 + 1, 16}, mesh);
  // Node n counts 20 + n accesses: counters 20 -> 12 (15 at the 15th halves to 7, then 5 more),
  // 21 -> 13, 22 -> 14, 23 -> 7 (the 23rd saturates again).
  for (uint32_t n = 0; n < 4; ++n) {
    for (uint32_t i = 0; i < 20 + n; ++i) t.count(n, 0);
  }
  EXPECT_EQ(t.counter(0, 0), 12u);
  EXPECT_EQ(t.counter(1, 0), 13u);
  EXPECT_EQ(t.counter(2, 0), 14u);
  EXPECT_EQ(t.counter(3, 0), 7u);
  for (int i = 0; i < 4 * 20 + 6; ++i) t.count_access(10);
  EXPECT_EQ(t.epochs(), 1u);
  EXPECT_EQ(t.agreed_owner(0), 2u);
}

TEST(DistributedAffinityTables, RejectsBadConfig) {
  Mesh2D mesh(MeshShape::for_nodes(4), 1);
  EXPECT_THROW(DistributedAffinityTables(DistributedTablesConfig{8, 4, 4, 1, 10, 16}, mesh), std::invalid_argument);
  EXPECT_THROW(DistributedAffinityTables(DistributedTablesConfig{4, 4, 0, 1, 10, 16}, mesh), std::invalid_argument);
  EXPECT_THROW(DistributedAffinityTables(DistributedTablesConfig{4, 4, 4, 1, 10, 0}, mesh), std::invalid_argument);
}

}  // namespace
}  // namespace tessera::model::dtm_nuca
