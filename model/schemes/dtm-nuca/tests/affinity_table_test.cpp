// The centralized Affinity Table (paper 000 section III-B) on a walk-through with exact owners
// and counters after each step: first owner, saturation and halving, hysteresis blocking and
// allowing a move, epoch recompute and reset.
#include <gtest/gtest.h>

#include <vector>

#include "dtm-nuca/affinity_table.h"

namespace tessera::model::dtm_nuca {
namespace {

std::vector<uint32_t> counters(const AffinityTable& t, uint32_t bucket) {
  std::vector<uint32_t> c;
  for (uint32_t p = 0; p < t.config().processors; ++p) c.push_back(t.counter(bucket, p));
  return c;
}

TEST(AffinityTableHelpers, HysteresisMargin) {
  // 4-bit counters: a saturating challenger holds 15.
  EXPECT_TRUE(AffinityTable::beats_owner(15, 11, 25));   // 1500 > 1375
  EXPECT_FALSE(AffinityTable::beats_owner(15, 12, 25));  // 1500 > 1500 fails: within the margin
  EXPECT_TRUE(AffinityTable::beats_owner(15, 14, 0));    // no margin: strictly greater suffices
  EXPECT_FALSE(AffinityTable::beats_owner(15, 15, 0));
  EXPECT_TRUE(AffinityTable::beats_owner(15, 14, 7));    // 1500 > 1498: below 100/14 % no effect
  EXPECT_FALSE(AffinityTable::beats_owner(15, 14, 8));   // 1500 > 1512 fails
}

TEST(AffinityTableHelpers, EpochOwner) {
  const std::vector<uint16_t> tie_with_owner{3, 7, 0, 7};
  EXPECT_EQ(AffinityTable::epoch_owner(tie_with_owner, 3), 3u);  // the owner keeps a tie
  EXPECT_EQ(AffinityTable::epoch_owner(tie_with_owner, 0), 1u);  // else the lowest id
  const std::vector<uint16_t> zeros{0, 0, 0, 0};
  EXPECT_EQ(AffinityTable::epoch_owner(zeros, 2), 2u);  // nobody requested: unchanged
  EXPECT_EQ(AffinityTable::epoch_owner(zeros, kNoOwner), kNoOwner);
}

TEST(AffinityTable, WalkThrough) {
  // 4 processors, 4 buckets, 1 block per page (bucket = block mod 4), 4-bit counters, 25 %
  // hysteresis, an epoch of the 57 requests below (each also counted as a texture access).
  AffinityTable t(AffinityTableConfig{4, 4, 4, 1, 25, 57});
  std::vector<OwnershipChange> epoch_changes;
  uint32_t epochs_ended = 0;
  const auto req = [&](uint32_t p, uint64_t block) {
    const TableLookup r = t.request(p, block);
    epochs_ended += t.count_access(&epoch_changes) ? 1 : 0;
    return r;
  };

  // 1. P0 is the first to request bucket 0: it acquires it and is answered with itself.
  TableLookup r = req(0, 0);
  EXPECT_TRUE(r.acquired);
  EXPECT_EQ(r.owner, 0u);
  EXPECT_EQ(t.owner(0), 0u);
  EXPECT_EQ(counters(t, 0), (std::vector<uint32_t>{1, 0, 0, 0}));
  for (int i = 0; i < 11; ++i) EXPECT_EQ(req(0, 4).owner, 0u);  // block 4: bucket 0 too
  EXPECT_EQ(counters(t, 0), (std::vector<uint32_t>{12, 0, 0, 0}));

  // 2. P1 saturates (15) against the owner's 12: 15 is not above 12 + 25 %, the move is blocked;
  //    every counter of the bucket is halved.
  for (int i = 0; i < 14; ++i) {
    r = req(1, 8);
    EXPECT_FALSE(r.saturated);
    EXPECT_EQ(r.owner, 0u);
  }
  EXPECT_EQ(counters(t, 0), (std::vector<uint32_t>{12, 14, 0, 0}));
  r = req(1, 8);
  EXPECT_TRUE(r.saturated);
  EXPECT_FALSE(r.change.has_value());
  EXPECT_EQ(t.owner(0), 0u);
  EXPECT_EQ(counters(t, 0), (std::vector<uint32_t>{6, 7, 0, 0}));

  // 3. P1 saturates again against 6: the move is allowed. The saturating request itself was
  //    answered with the old owner; later requests see P1.
  for (int i = 0; i < 7; ++i) EXPECT_FALSE(req(1, 0).saturated);
  r = req(1, 0);
  EXPECT_TRUE(r.saturated);
  EXPECT_EQ(r.owner, 0u);
  ASSERT_TRUE(r.change.has_value());
  EXPECT_EQ(*r.change, (OwnershipChange{0, 0, 1}));
  EXPECT_EQ(t.owner(0), 1u);
  EXPECT_EQ(counters(t, 0), (std::vector<uint32_t>{3, 7, 0, 0}));
  EXPECT_EQ(t.ownership_changes(), 1u);
  EXPECT_EQ(req(0, 0).owner, 1u);
  EXPECT_EQ(counters(t, 0), (std::vector<uint32_t>{4, 7, 0, 0}));

  // 4. More demand before the epoch ends: P3 ties the owner P1 on bucket 0; bucket 1 is acquired
  //    by P2 and then requested more by P3; bucket 2 is acquired by P0, then P2 and P3 tie above
  //    it; bucket 3 is never requested.
  for (int i = 0; i < 7; ++i) req(3, 0);
  EXPECT_EQ(counters(t, 0), (std::vector<uint32_t>{4, 7, 0, 7}));
  for (int i = 0; i < 2; ++i) req(2, 1);
  for (int i = 0; i < 3; ++i) req(3, 5);
  EXPECT_EQ(t.owner(1), 2u);
  EXPECT_EQ(counters(t, 1), (std::vector<uint32_t>{0, 0, 2, 3}));
  req(0, 2);
  for (int i = 0; i < 4; ++i) req(2, 2);
  EXPECT_EQ(epochs_ended, 0u);
  for (int i = 0; i < 3; ++i) req(3, 6);
  EXPECT_EQ(epochs_ended, 0u);
  EXPECT_EQ(t.epoch_position(), 56u);
  EXPECT_EQ(counters(t, 2), (std::vector<uint32_t>{1, 0, 4, 3}));

  // 5. The 57th access ends the epoch: bucket 0 stays with P1 (tied with P3 at 7: the owner
  //    keeps a tie), bucket 1 moves to P3 (3 > 2), bucket 2 moves to P2 (P2 and P3 tie at 4
  //    above the owner P0's 1: the lowest id wins), bucket 3 stays unowned; counters reset.
  req(3, 6);
  EXPECT_EQ(epochs_ended, 1u);
  EXPECT_EQ(t.epochs(), 1u);
  EXPECT_EQ(epoch_changes, (std::vector<OwnershipChange>{{1, 2, 3}, {2, 0, 2}}));
  EXPECT_EQ(t.owner(0), 1u);
  EXPECT_EQ(t.owner(1), 3u);
  EXPECT_EQ(t.owner(2), 2u);
  EXPECT_EQ(t.owner(3), kNoOwner);
  for (uint32_t b = 0; b < 4; ++b) EXPECT_EQ(counters(t, b), (std::vector<uint32_t>{0, 0, 0, 0})) << "bucket " << b;
  EXPECT_EQ(t.ownership_changes(), 3u);
  EXPECT_EQ(t.requests(), 57u);
}

TEST(AffinityTable, OneBitCounters) {
  // Every request saturates a 1-bit counter; with no hysteresis the challenger (1) beats an owner
  // at 0 and counters halve to 0.
  AffinityTable t(AffinityTableConfig{2, 1, 1, 1, 0, 1000});
  EXPECT_TRUE(t.request(0, 0).acquired);  // P0 acquires; its counter saturated and halved
  EXPECT_EQ(t.counter(0, 0), 0u);
  const TableLookup r = t.request(1, 0);
  ASSERT_TRUE(r.change.has_value());
  EXPECT_EQ(t.owner(0), 1u);
}

TEST(AffinityTable, RejectsBadConfig) {
  EXPECT_THROW(AffinityTable(AffinityTableConfig{0, 32, 4, 8, 25, 20000}), std::invalid_argument);
  EXPECT_THROW(AffinityTable(AffinityTableConfig{32, 32, 17, 8, 25, 20000}), std::invalid_argument);
  EXPECT_THROW(AffinityTable(AffinityTableConfig{32, 32, 4, 8, 25, 0}), std::invalid_argument);
  AffinityTable t(AffinityTableConfig{4, 4, 4, 1, 25, 10});
  EXPECT_THROW(t.request(4, 0), std::out_of_range);
}

}  // namespace
}  // namespace tessera::model::dtm_nuca
