// DTM-NUCA-Dist tables (paper 000 section IV-B, with the counters of III-B): every node owns every
// bucket at first; a node's saturating counter halves its table's counters of the bucket and takes
// the bucket in its own table mid-epoch (with the hysteresis margin); at each epoch end every node
// broadcasts its owned buckets with its counters, applied as the packets arrive; between equal
// counters the strictly lowest id wins. The expected owners, counters and cycles below follow
// from those rules and the mesh geometry, worked out by hand in the comments.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "dtm-nuca/distributed_affinity_tables.h"

namespace tessera::model::dtm_nuca {
namespace {

// 4 nodes on a 1 x 4 row (0 1 2 3), 10 cycles a hop; 4 buckets of 1-block pages (bucket = block
// mod 4), 4-bit counters (saturating at 15), 25 % hysteresis, epochs of 100 texture accesses,
// 16 B flits: a packet is a head flit and 4 x (1 + 4) = 20 bits, 2 flits.
constexpr uint32_t kHop = 10;
constexpr uint32_t kFlits = 2;
DistributedTablesConfig config(uint32_t hysteresis_pct = 25) {
  return DistributedTablesConfig{4, 4, 4, 1, 100, 16, hysteresis_pct};
}
Mesh2D row() { return Mesh2D(MeshShape::for_nodes(4, 4), kHop); }

// When src's copy of a broadcast sent at `end` reaches dst: the copies leave src's injection port
// (one flit per cycle) one after another in increasing destination id, the k-th kFlits x k
// cycles after the first, then cross |src - dst| hops: end + k x F + hops x hop + F - 1. On this
// row, at 10 cycles a hop, no two copies of one broadcast meet on a link or an ejection port (the
// tests check that the only contention is that injection wait).
uint64_t arrival(uint32_t src, uint32_t dst, uint64_t end) {
  const uint32_t k = dst < src ? dst : dst - 1;
  const uint32_t hops = src > dst ? src - dst : dst - src;
  return end + k * kFlits + hops * kHop + kFlits - 1;
}
// The injection waits of a broadcast by each of `senders` nodes: 0 + 2 + 4 cycles each.
uint64_t injection_waits(uint32_t senders) { return senders * uint64_t{(0 + 1 + 2) * kFlits}; }

// Node `node` accesses `block` `times` times at cycle `now`, as the organisation does: it reads its
// table (packets delivered by now apply), counts the access, and the GPU counts a texture access.
// Returns whether the last access ended an epoch.
bool access(DistributedAffinityTables& t, uint32_t node, uint64_t block, uint64_t now, int times = 1) {
  bool ended = false;
  for (int i = 0; i < times; ++i) {
    (void)t.owner(node, block, now);
    t.count(node, block);
    ended = t.count_access(now);
  }
  return ended;
}
// `n` texture accesses of the GPU that no table counts (nuca.count_hits=false leaves local hits
// out of the counters, never out of the epoch). Returns whether the last one ended an epoch.
bool other_accesses(DistributedAffinityTables& t, uint64_t now, int n) {
  bool ended = false;
  for (int i = 0; i < n; ++i) {
    EXPECT_FALSE(ended);
    ended = t.count_access(now);
  }
  return ended;
}

std::vector<uint32_t> counters(const DistributedAffinityTables& t, uint32_t node, uint32_t bucket) {
  std::vector<uint32_t> c;
  for (uint32_t of = 0; of < 4; ++of) c.push_back(t.counter(node, bucket, of));
  return c;
}

TEST(DistributedAffinityTables, EveryNodeOwnsEveryBucketAtFirst) {
  Mesh2D mesh = row();
  DistributedAffinityTables t(config(), mesh);
  EXPECT_EQ(t.packet_bits(), 64u + 4 * (1 + 4));
  EXPECT_EQ(t.packet_flits(), kFlits);
  // Per bucket: 4 counters of 4 bits, a 2-bit owner, the 4-bit counter of the round's best claim.
  EXPECT_EQ(t.storage_bits_per_node(), 4u * (4 * 4 + 2 + 4));
  for (uint32_t n = 0; n < 4; ++n) {
    for (uint64_t block = 0; block < 8; ++block) EXPECT_EQ(t.owner(n, block, 0), n);
    for (uint32_t b = 0; b < 4; ++b) EXPECT_EQ(counters(t, n, b), (std::vector<uint32_t>{0, 0, 0, 0}));
  }
  for (uint32_t b = 0; b < 4; ++b) EXPECT_EQ(t.agreed_owner(b), kNoOwner);
  // Table I's values: 32 buckets, 32 nodes, 4-bit counters: 32 x (32 x 4 + 5 + 4) bits; a
  // packet of 64 + 32 x 5 = 224 bits fits a head flit and one 64 B flit.
  Mesh2D mesh32(MeshShape::for_nodes(32), 1);
  DistributedAffinityTables table1(DistributedTablesConfig{32, 32, 4, 8, 20000, 64, 25}, mesh32);
  EXPECT_EQ(table1.storage_bits_per_node(), 32u * (32 * 4 + 5 + 4));
  EXPECT_EQ(table1.packet_bits(), 224u);
  EXPECT_EQ(table1.packet_flits(), 2u);
}

// A node's counter saturating where the node already owns the bucket: the entry's counters halve
// (15 >> 1 = 7), the owner stays.
TEST(DistributedAffinityTables, SaturationHalvesTheEntry) {
  Mesh2D mesh = row();
  DistributedAffinityTables t(config(), mesh);
  access(t, 3, 7, 50, 14);  // block 7: bucket 3
  EXPECT_EQ(counters(t, 3, 3), (std::vector<uint32_t>{0, 0, 0, 14}));
  access(t, 3, 7, 50);
  EXPECT_EQ(counters(t, 3, 3), (std::vector<uint32_t>{0, 0, 0, 7}));
  EXPECT_EQ(t.view(3, 3), 3u);
  EXPECT_EQ(t.takes(), 0u);
  // A 1-bit counter saturates at every access and halves back to 0.
  Mesh2D mesh1 = row();
  DistributedAffinityTables one(DistributedTablesConfig{4, 4, 1, 1, 100, 16, 25}, mesh1);
  access(one, 2, 1, 0, 3);
  EXPECT_EQ(one.counter(2, 1), 0u);
}

// Two epochs on the row, then a third.
//
// Epoch 1 (accesses at cycle 50, ended by the 100th texture access at cycle 100): node 0 reads
// bucket 0 4 times and bucket 3 3 times; nodes 1 and 2 bucket 1 3 times each; node 3 bucket 2 12
// times and bucket 3 15 times (its counter saturates in its own table, which it owns: halved to
// 7). Every node owns every bucket, so every node claims every bucket:
//   bucket 0: 4, 0, 0, 0 -> node 0      bucket 1: 0, 3, 3, 0 -> node 1 (the tie: the lower id)
//   bucket 2: 0, 0, 0, 12 -> node 3     bucket 3: 3, 0, 0, 7 -> node 3
//
// Epoch 2 (accesses at cycle 1000, every packet of round 1 delivered; ended at cycle 2000): in
// node 2's table node 0 owns bucket 0 with 4: node 2's 15th access there takes it (15 x 100 >
// 4 x 125). In node 0's table node 3 owns bucket 2 with 12: node 0's 15th access is refused
// (1500 > 1500 fails), its 23rd takes it (15 against the halved 6). Node 2 takes bucket 1 from
// node 1 (15 against 3); node 1 reads bucket 1 twice. Claims of round 2 (each node's owned
// buckets): node 0: bucket 0 (0), bucket 2 (7); node 1: bucket 1 (2); node 2: buckets 0 and 1
// (7 each); node 3: buckets 2 and 3 (0 each) -> bucket 0: node 2, 1: node 2, 2: node 0, 3: node 3.
//
// Epoch 3 (100 accesses no table counts, ended at cycle 3000): node 1 owns nothing and sends
// nothing.
class TwoEpochs : public ::testing::Test {
 protected:
  static constexpr uint64_t kEnd1 = 100, kEnd2 = 2000, kEnd3 = 3000;
  Mesh2D mesh = row();
  DistributedAffinityTables t{config(), mesh};

  void epoch1() {
    access(t, 0, 0, 50, 4);
    access(t, 0, 3, 50, 3);
    access(t, 1, 1, 50, 3);
    access(t, 2, 5, 50, 3);  // block 5: bucket 1
    access(t, 3, 2, 50, 12);
    access(t, 3, 7, 50, 15);
    EXPECT_EQ(counters(t, 3, 3), (std::vector<uint32_t>{0, 0, 0, 7}));
    EXPECT_EQ(t.epochs(), 0u);
    EXPECT_TRUE(other_accesses(t, kEnd1, 100 - 40));
    EXPECT_EQ(t.epochs(), 1u);
  }
  void epoch2() {
    access(t, 2, 4, 1000, 14);  // block 4: bucket 0
    EXPECT_EQ(counters(t, 2, 0), (std::vector<uint32_t>{4, 0, 14, 0}));
    EXPECT_EQ(t.view(2, 0), 0u);
    access(t, 2, 4, 1000);
    EXPECT_EQ(t.view(2, 0), 2u);
    EXPECT_EQ(counters(t, 2, 0), (std::vector<uint32_t>{2, 0, 7, 0}));

    access(t, 0, 2, 1000, 15);
    EXPECT_EQ(t.view(0, 2), 3u);
    EXPECT_EQ(counters(t, 0, 2), (std::vector<uint32_t>{7, 0, 0, 6}));
    access(t, 0, 2, 1000, 7);
    EXPECT_EQ(counters(t, 0, 2), (std::vector<uint32_t>{14, 0, 0, 6}));
    access(t, 0, 2, 1000);
    EXPECT_EQ(t.view(0, 2), 0u);
    EXPECT_EQ(counters(t, 0, 2), (std::vector<uint32_t>{7, 0, 0, 3}));

    access(t, 2, 1, 1000, 15);
    EXPECT_EQ(t.view(2, 1), 2u);
    EXPECT_EQ(counters(t, 2, 1), (std::vector<uint32_t>{0, 1, 7, 0}));
    access(t, 1, 1, 1000, 2);
    EXPECT_EQ(counters(t, 1, 1), (std::vector<uint32_t>{0, 2, 3, 0}));  // node 2's round-1 claim: 3
    EXPECT_EQ(t.takes(), 3u);
    EXPECT_TRUE(other_accesses(t, kEnd2, 100 - 55));
    EXPECT_EQ(t.epochs(), 2u);
  }
};

TEST_F(TwoEpochs, BroadcastOfEveryBucketThenLazyArrivals) {
  epoch1();
  // Four broadcasts of 3 copies, delayed only by their injection port.
  EXPECT_EQ(mesh.counters().packets, 12u);
  EXPECT_EQ(mesh.counters().flits, 12u * kFlits);
  EXPECT_EQ(mesh.counters().contention_cycles, injection_waits(4));
  // The reset event: the counters restart from 0, those of the other nodes too until their
  // packets arrive.
  for (uint32_t b = 0; b < 4; ++b) EXPECT_EQ(counters(t, 3, b), (std::vector<uint32_t>{0, 0, 0, 0}));

  // Node 1, bucket 0: its own claim (0) until node 0's claim (4) arrives at 111; the counter
  // node 0 sent is written into node 1's table.
  ASSERT_EQ(arrival(0, 1, kEnd1), 111u);
  EXPECT_EQ(t.owner(1, 0, 110), 1u);
  EXPECT_EQ(t.counter(1, 0, 0), 0u);
  EXPECT_EQ(t.owner(1, 0, 111), 0u);
  EXPECT_EQ(t.counter(1, 0, 0), 4u);

  // Node 3, bucket 0: every claim but node 0's is 0, and a tie goes to the strictly lower id, so
  // the owner walks down as the claims arrive: itself, node 2 at 115, node 1 at 125, then node 0
  // (4) at 135.
  ASSERT_EQ(arrival(2, 3, kEnd1), 115u);
  ASSERT_EQ(arrival(1, 3, kEnd1), 125u);
  ASSERT_EQ(arrival(0, 3, kEnd1), 135u);
  EXPECT_EQ(t.owner(3, 0, 114), 3u);
  EXPECT_EQ(t.owner(3, 0, 115), 2u);
  EXPECT_EQ(t.owner(3, 0, 124), 2u);
  EXPECT_EQ(t.owner(3, 0, 125), 1u);
  EXPECT_EQ(t.owner(3, 0, 134), 1u);
  EXPECT_EQ(t.owner(3, 0, 135), 0u);
  for (uint32_t n = 0; n < 4; ++n) EXPECT_EQ(t.owner(n, 0, 1000), 0u) << "node " << n;
  EXPECT_EQ(t.owner(3, 2, 1000), 3u);
  EXPECT_EQ(t.owner(0, 2, 1000), 3u);
  EXPECT_EQ(t.owner(0, 3, 1000), 3u);  // node 3's 7 beats node 0's own 3
  EXPECT_EQ(t.counter(0, 3, 3), 7u);
  EXPECT_EQ(t.agreed_owner(0), 0u);
  EXPECT_EQ(t.agreed_owner(1), 1u);
  EXPECT_EQ(t.agreed_owner(2), 3u);
  EXPECT_EQ(t.agreed_owner(3), 3u);
  EXPECT_EQ(t.ownership_changes(), 0u);  // every node owned every bucket: no change yet
  // Each node ranks its 4 own claims and the 4 claims of each of 3 packets.
  EXPECT_EQ(t.claims_applied(), 4u * (4 + 3 * 4));
}

// Bucket 1: nodes 1 and 2 both claim 3; the lower id wins whichever arrives first.
TEST_F(TwoEpochs, EqualCountersGoToTheLowestIdInBothArrivalOrders) {
  epoch1();
  // Node 0 hears node 1 first (111), then node 2 (121): node 1 stays.
  ASSERT_EQ(arrival(1, 0, kEnd1), 111u);
  ASSERT_EQ(arrival(2, 0, kEnd1), 121u);
  EXPECT_EQ(t.owner(0, 1, 110), 0u);
  EXPECT_EQ(t.owner(0, 1, 111), 1u);
  EXPECT_EQ(t.owner(0, 1, 121), 1u);
  EXPECT_EQ(t.counter(0, 1, 2), 3u);  // node 2's counter is recorded all the same
  // Node 3 hears node 2 first (115), then node 1 (125): node 2, then node 1.
  ASSERT_EQ(arrival(2, 3, kEnd1), 115u);
  ASSERT_EQ(arrival(1, 3, kEnd1), 125u);
  EXPECT_EQ(t.owner(3, 1, 114), 3u);
  EXPECT_EQ(t.owner(3, 1, 115), 2u);
  EXPECT_EQ(t.owner(3, 1, 124), 2u);
  EXPECT_EQ(t.owner(3, 1, 125), 1u);
  // The claimants themselves: node 2 gives way to node 1's equal claim at 113; node 1 keeps its
  // own against node 2's.
  ASSERT_EQ(arrival(1, 2, kEnd1), 113u);
  ASSERT_EQ(arrival(2, 1, kEnd1), 113u);
  EXPECT_EQ(t.owner(2, 1, 112), 2u);
  EXPECT_EQ(t.owner(2, 1, 113), 1u);
  EXPECT_EQ(t.owner(1, 1, 113), 1u);
  EXPECT_EQ(t.owner(1, 1, 1000), 1u);
}

TEST_F(TwoEpochs, MidEpochTakesThenTheOwnedBucketsBroadcast) {
  epoch1();
  epoch2();  // the takes, with the exact counters after each (above)
  // Until the epoch ended the other tables did not know of the takes.
  EXPECT_EQ(mesh.counters().packets, 24u);  // every node owns a bucket: 4 more broadcasts
  EXPECT_EQ(mesh.counters().contention_cycles, 2 * injection_waits(4));
  EXPECT_EQ(t.agreed_owner(0), 2u);
  EXPECT_EQ(t.agreed_owner(1), 2u);
  EXPECT_EQ(t.agreed_owner(2), 0u);
  EXPECT_EQ(t.agreed_owner(3), 3u);
  EXPECT_EQ(t.ownership_changes(), 3u);

  // Node 0 owns bucket 0 (its claim: 0) until node 2's 7 arrives at 2021. It does not own bucket
  // 1 and claims nothing there: node 1's claim (2, at 2011) names node 1 again, node 2's (7, in
  // the same packet at 2021) node 2.
  ASSERT_EQ(arrival(1, 0, kEnd2), 2011u);
  ASSERT_EQ(arrival(2, 0, kEnd2), 2021u);
  EXPECT_EQ(t.owner(0, 1, 2010), 1u);
  EXPECT_EQ(t.counter(0, 1, 1), 0u);  // the reset
  EXPECT_EQ(t.owner(0, 1, 2011), 1u);
  EXPECT_EQ(t.counter(0, 1, 1), 2u);
  EXPECT_EQ(t.owner(0, 0, 2020), 0u);
  EXPECT_EQ(t.owner(0, 1, 2020), 1u);
  EXPECT_EQ(t.owner(0, 0, 2021), 2u);
  EXPECT_EQ(t.owner(0, 1, 2021), 2u);
  // Node 1 hears node 0's claim on bucket 0 (0) at 2011 and node 2's (7) at 2013.
  ASSERT_EQ(arrival(2, 1, kEnd2), 2013u);
  EXPECT_EQ(t.owner(1, 0, 2012), 0u);
  EXPECT_EQ(t.owner(1, 0, 2013), 2u);
  // Node 3 owns bucket 2 (its claim: 0) until node 0's 7 arrives at 2035.
  ASSERT_EQ(arrival(0, 3, kEnd2), 2035u);
  EXPECT_EQ(t.owner(3, 2, 2034), 3u);
  EXPECT_EQ(t.owner(3, 2, 2035), 0u);
  for (uint32_t n = 0; n < 4; ++n) {
    EXPECT_EQ(t.owner(n, 0, 2999), 2u) << "node " << n;
    EXPECT_EQ(t.owner(n, 1, 2999), 2u) << "node " << n;
    EXPECT_EQ(t.owner(n, 2, 2999), 0u) << "node " << n;
    EXPECT_EQ(t.owner(n, 3, 2999), 3u) << "node " << n;
  }

  // Round 3: node 1 owns nothing, so only nodes 0, 2 and 3 broadcast; nothing moves.
  EXPECT_TRUE(other_accesses(t, kEnd3, 100));
  EXPECT_EQ(mesh.counters().packets, 24u + 9);
  EXPECT_EQ(mesh.counters().contention_cycles, 2 * injection_waits(4) + injection_waits(3));
  EXPECT_EQ(t.ownership_changes(), 3u);
  EXPECT_EQ(t.takes(), 3u);
  EXPECT_EQ(t.packets_dropped(), 0u);
}

// A node's take is newer than the claims of the round still arriving: they do not undo it.
TEST(DistributedAffinityTables, ATakeOutranksTheRoundStillArriving) {
  Mesh2D mesh = row();
  DistributedAffinityTables t(config(), mesh);
  access(t, 0, 0, 50, 5);
  EXPECT_TRUE(other_accesses(t, 100, 95));
  // Node 3, bucket 0: node 2's claim (0) at 115 names node 2; at 120 node 3 saturates against
  // node 2's 0 and takes the bucket; node 1's claim (0, at 125) and node 0's (5, at 135) arrive
  // after and change nothing but the counters.
  access(t, 3, 0, 120, 15);
  EXPECT_EQ(t.view(3, 0), 3u);
  EXPECT_EQ(t.takes(), 1u);
  EXPECT_EQ(t.owner(3, 0, 135), 3u);
  EXPECT_EQ(counters(t, 3, 0), (std::vector<uint32_t>{5, 0, 0, 7}));
  for (uint32_t n = 0; n < 3; ++n) EXPECT_EQ(t.owner(n, 0, 1000), 0u) << "node " << n;
  // The owner each table named before its last change (III-B's just-exchanged owner, whose hits
  // leave its LRU alone): node 3's table went 3 -> 2 (node 2's claim) -> 3 (its take); node 1's
  // went 1 -> 0; node 2's went 2 -> 1 (node 1's equal claim, the lower id) -> 0 within the round,
  // one exchange from the owner the round began with, so nodes 1 and 2 are both the
  // just-exchanged owner in their tables; node 0's table never changed.
  EXPECT_EQ(t.previous_owner(3, 0), 2u);
  EXPECT_EQ(t.previous_owner(1, 0), 1u);
  EXPECT_EQ(t.previous_owner(2, 0), 2u);
  EXPECT_EQ(t.previous_owner(0, 0), kNoOwner);
  // Round 2: node 3 claims bucket 0 with 7 against node 0's 0.
  EXPECT_TRUE(other_accesses(t, 2000, 100 - 15));
  for (uint32_t n = 0; n < 4; ++n) EXPECT_EQ(t.owner(n, 0, 3000), 3u) << "node " << n;
  EXPECT_EQ(t.ownership_changes(), 1u);
}

// The margin is nuca.hysteresis: node 0's saturating 15 against node 3's 12 takes the bucket with
// none (1500 > 1200), not with 25 % (1500 > 1500 fails).
TEST(DistributedAffinityTables, HysteresisFromTheConfiguration) {
  for (const uint32_t pct : {0u, 25u}) {
    Mesh2D mesh = row();
    DistributedAffinityTables t(config(pct), mesh);
    access(t, 3, 2, 50, 12);
    EXPECT_TRUE(other_accesses(t, 100, 88));
    access(t, 0, 2, 1000, 15);
    EXPECT_EQ(t.view(0, 2), pct == 0 ? 0u : 3u) << pct;
    EXPECT_EQ(counters(t, 0, 2), (std::vector<uint32_t>{7, 0, 0, 6})) << pct;
  }
}

// A new epoch ending before the last round's packets arrive drops them: at 112 only the copies
// 0 -> 1 and 1 -> 0 (111) have arrived. With no counts every claim is 0: node 0 knows node 1's
// claims (node 0 keeps everything, the lower id), node 1 knows node 0's (it gives everything to
// node 0 and owns nothing); nodes 2 and 3 heard nobody and still own everything.
TEST(DistributedAffinityTables, ANewEpochSupersedesPacketsInFlight) {
  Mesh2D mesh = row();
  DistributedAffinityTables t(config(), mesh);
  EXPECT_TRUE(other_accesses(t, 100, 100));
  EXPECT_TRUE(other_accesses(t, 112, 100));
  EXPECT_EQ(t.epochs(), 2u);
  EXPECT_EQ(t.packets_dropped(), 10u);
  EXPECT_EQ(mesh.counters().packets, 12u + 9);  // node 1 owned nothing in round 2
  EXPECT_EQ(t.view(1, 2), 0u);
  EXPECT_EQ(t.owner(2, 2, 112), 2u);
  for (uint32_t n = 0; n < 4; ++n) EXPECT_EQ(t.owner(n, 2, 1000), 0u) << "node " << n;
}

TEST(DistributedAffinityTables, RejectsBadConfig) {
  Mesh2D mesh = row();
  EXPECT_THROW(DistributedAffinityTables(DistributedTablesConfig{8, 4, 4, 1, 10, 16, 25}, mesh), std::invalid_argument);
  EXPECT_THROW(DistributedAffinityTables(DistributedTablesConfig{4, 4, 0, 1, 10, 16, 25}, mesh), std::invalid_argument);
  EXPECT_THROW(DistributedAffinityTables(DistributedTablesConfig{4, 4, 17, 1, 10, 16, 25}, mesh), std::invalid_argument);
  EXPECT_THROW(DistributedAffinityTables(DistributedTablesConfig{4, 4, 4, 1, 0, 16, 25}, mesh), std::invalid_argument);
  EXPECT_THROW(DistributedAffinityTables(DistributedTablesConfig{4, 4, 4, 1, 10, 0, 25}, mesh), std::invalid_argument);
}

}  // namespace
}  // namespace tessera::model::dtm_nuca
