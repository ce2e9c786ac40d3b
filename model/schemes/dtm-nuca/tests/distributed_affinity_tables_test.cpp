// DTM-NUCA-Dist tables (paper 000 section IV-B): every node owns every bucket at first, claims
// broadcast at the end of an epoch, applied lazily as packets arrive, ties to the lowest id.
#include <gtest/gtest.h>

#include <algorithm>
#include <utility>
#include <vector>

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

TEST(DistributedAffinityTables, CountersSaturateAndHold) {
  Mesh2D mesh(MeshShape::for_nodes(4), 1);
  DistributedAffinityTables t(DistributedTablesConfig{4, 4, 2, 1, 1000, 16}, mesh);
  // 2-bit counters: 1, 2, then 3 saturates and holds for the rest of the epoch.
  const uint32_t expected[] = {1, 2, 3, 3, 3, 3};
  for (uint32_t e : expected) {
    t.count(1, 0);
    t.count_access(0);
    EXPECT_EQ(t.counter(1, 0), e);
  }
  EXPECT_EQ(t.saturated_at(1, 0), 2u);  // the third access of the epoch saturated it
  // A 1-bit counter saturates at its first access.
  DistributedAffinityTables one(DistributedTablesConfig{4, 4, 1, 1, 1000, 16}, mesh);
  one.count_access(0);
  one.count(2, 1);
  one.count(2, 1);
  EXPECT_EQ(one.counter(2, 1), 1u);
  EXPECT_EQ(one.saturated_at(2, 1), 1u);
}

// Paper 000 III-B: the counters say which processor accessed a bucket most. Node n makes c[n]
// accesses to bucket 0, spread evenly over the epoch (node n's i-th at (2i + 1) / (2 c[n]) of the
// accesses, the lower id first at equal times).
void spread(const std::vector<uint32_t>& c, DistributedAffinityTables& t) {
  std::vector<std::pair<uint32_t, uint32_t>> order;  // (access index i, node n)
  for (uint32_t n = 0; n < c.size(); ++n) {
    for (uint32_t i = 0; i < c[n]; ++i) order.emplace_back(i, n);
  }
  std::sort(order.begin(), order.end(), [&](const auto& a, const auto& b) {
    const uint64_t x = uint64_t{2 * a.first + 1} * c[b.second], y = uint64_t{2 * b.first + 1} * c[a.second];
    return x != y ? x < y : a.second < b.second;
  });
  for (const auto& [i, n] : order) {
    t.count(n, 0);
    t.count_access(10);
  }
}

uint32_t owner_after_one_epoch(const std::vector<uint32_t>& c, Mesh2D& mesh) {
  uint64_t total = 0;
  for (uint32_t n : c) total += n;
  DistributedAffinityTables t(DistributedTablesConfig{4, 1, 4, 1, total, 16}, mesh);
  spread(c, t);
  EXPECT_EQ(t.epochs(), 1u);
  return t.agreed_owner(0);
}

// Every node uses the bucket more than 15 times an epoch (4-bit counters): all saturate, and the
// one that saturated first -- the most accesses over the same epoch -- owns the bucket. (Halving
// a lone counter on saturation gave 20 -> 12, 21 -> 13, 22 -> 14, 23 -> 7: node 2 won.)
TEST(DistributedAffinityTables, HeavyUsersDoNotAllTie) {
  Mesh2D mesh(MeshShape::for_nodes(4), 1);
  // One access more in the epoch than the 86 spread, so the counters can be read before it ends.
  DistributedAffinityTables t(DistributedTablesConfig{4, 1, 4, 1, 20 + 21 + 22 + 23 + 1, 16}, mesh);
  spread({20, 21, 22, 23}, t);
  // Every counter holds at 15; the 15th accesses of nodes 3, 2, 1, 0 came at positions 54, 56,
  // 59 and 62 of the epoch.
  const uint64_t saturated[] = {62, 59, 56, 54};
  for (uint32_t n = 0; n < 4; ++n) {
    EXPECT_EQ(t.counter(n, 0), 15u) << "node " << n;
    EXPECT_EQ(t.saturated_at(n, 0), saturated[n]) << "node " << n;
  }
  EXPECT_TRUE(t.count_access(10));
  EXPECT_EQ(t.agreed_owner(0), 3u);
  EXPECT_EQ(owner_after_one_epoch({20, 21, 22, 23}, mesh), 3u);
  // A much heavier user saturates much earlier: 1000 accesses against 22.
  EXPECT_EQ(owner_after_one_epoch({20, 21, 22, 1000}, mesh), 3u);
  EXPECT_EQ(owner_after_one_epoch({1000, 21, 22, 23}, mesh), 0u);
  // Below saturation the exact counts decide: 9 beats 7, 5 and 3.
  EXPECT_EQ(owner_after_one_epoch({5, 9, 7, 3}, mesh), 1u);
  // Equal counts below saturation: the lowest id (IV-B).
  EXPECT_EQ(owner_after_one_epoch({3, 6, 6, 6}, mesh), 1u);
}

// The saturation positions travel with the claims: node 0 reads node 3's earlier saturation from
// its packet and gives it the bucket although its own counter is as high.
TEST(DistributedAffinityTables, EarlierSaturationWinsAtEveryNode) {
  Mesh2D mesh(MeshShape::for_nodes(4), 1);
  DistributedAffinityTables t(DistributedTablesConfig{4, 1, 2, 1, 8, 16}, mesh);
  // 2-bit counters: node 3 saturates at position 2, node 0 at position 5.
  for (uint32_t n : {3u, 3u, 3u, 0u, 0u, 0u, 0u, 3u}) {
    t.count(n, 0);
    t.count_access(100);
  }
  EXPECT_EQ(t.epochs(), 1u);
  EXPECT_EQ(t.owner(0, 0, 100), 0u);  // its own claim until node 3's packet arrives
  EXPECT_EQ(t.owner(0, 0, 1000), 3u);
  EXPECT_EQ(t.owner(3, 0, 1000), 3u);
  EXPECT_EQ(t.agreed_owner(0), 3u);
}

TEST(DistributedAffinityTables, RejectsBadConfig) {
  Mesh2D mesh(MeshShape::for_nodes(4), 1);
  EXPECT_THROW(DistributedAffinityTables(DistributedTablesConfig{8, 4, 4, 1, 10, 16}, mesh), std::invalid_argument);
  EXPECT_THROW(DistributedAffinityTables(DistributedTablesConfig{4, 4, 0, 1, 10, 16}, mesh), std::invalid_argument);
  EXPECT_THROW(DistributedAffinityTables(DistributedTablesConfig{4, 4, 4, 1, 10, 0}, mesh), std::invalid_argument);
}

}  // namespace
}  // namespace tessera::model::dtm_nuca
