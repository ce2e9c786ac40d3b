// Paper 000 Fig. 3: 16 blocks a0..a15 in 8 pages p0..p7 of 2 blocks, grouped modulo 4 into
// buckets b0..b3.
#include <gtest/gtest.h>

#include <vector>

#include "dtm-nuca/affinity_table.h"
#include "dtm-nuca/bucket_map.h"

namespace tessera::model::dtm_nuca {
namespace {

TEST(BucketMap, Fig3Grouping) {
  const BucketMap map(2, 4);
  std::vector<uint64_t> members[4];
  for (uint64_t a = 0; a < 16; ++a) {
    EXPECT_EQ(map.page(a), a / 2) << "a" << a;
    members[map.bucket(a)].push_back(a);
  }
  EXPECT_EQ(members[0], (std::vector<uint64_t>{0, 1, 8, 9}));    // p0, p4
  EXPECT_EQ(members[1], (std::vector<uint64_t>{2, 3, 10, 11}));  // p1, p5
  EXPECT_EQ(members[2], (std::vector<uint64_t>{4, 5, 12, 13}));  // p2, p6
  EXPECT_EQ(members[3], (std::vector<uint64_t>{6, 7, 14, 15}));  // p3, p7
}

TEST(BucketMap, TableIPagesOfEightBlocks) {
  const BucketMap map(8, 32);
  EXPECT_EQ(map.bucket(7), 0u);
  EXPECT_EQ(map.bucket(8), 1u);
  EXPECT_EQ(map.bucket(8 * 31), 31u);
  EXPECT_EQ(map.bucket(8 * 32), 0u);  // page 32 wraps to bucket 0
}

TEST(BucketMap, RejectsZero) {
  EXPECT_THROW(BucketMap(0, 4), std::invalid_argument);
  EXPECT_THROW(BucketMap(2, 0), std::invalid_argument);
}

// Paper 000 section III-A: 32 buckets x (32 counters x 4 bits + 5 owner bits) = 4256 bits.
TEST(AffinityTableSize, Section3A) {
  const AffinityTable table(AffinityTableConfig{32, 32, 4, 8, 25, 20000});
  EXPECT_EQ(table.storage_bits(), 4256u);
}

}  // namespace
}  // namespace tessera::model::dtm_nuca
