// The directory of the single-sharer D-NUCA bound of paper 000 section VI: one holder per block,
// sized like the L2, its least recently used entry evicted from a full set. The organisation that
// keeps it exact (no block in two L1s, migration only on eviction) is tested in
// nuca_organisation_test.
#include <gtest/gtest.h>

#include "dtm-nuca/dnuca_directory.h"

namespace tessera::model::dtm_nuca {
namespace {

TEST(DNucaDirectory, TracksOneHolder) {
  DNucaDirectory d(DNucaDirectoryConfig{8, 2});
  EXPECT_EQ(d.sets(), 4u);
  EXPECT_EQ(d.lookup(5), kNoOwner);
  EXPECT_FALSE(d.insert(5, 3).has_value());
  EXPECT_EQ(d.lookup(5), 3u);
  EXPECT_THROW(d.insert(5, 4), std::logic_error);  // a second holder would replicate the block
  EXPECT_FALSE(d.erase(5, 4));                     // not held there
  EXPECT_TRUE(d.erase(5, 3));
  EXPECT_EQ(d.holder(5), kNoOwner);
  EXPECT_EQ(d.tracked(), 0u);
}

TEST(DNucaDirectory, FullSetEvictsLeastRecentlyUsed) {
  // 2 sets x 2 ways: blocks 0, 2, 4 share set 0.
  DNucaDirectory d(DNucaDirectoryConfig{4, 2});
  EXPECT_FALSE(d.insert(0, 1).has_value());
  EXPECT_FALSE(d.insert(2, 7).has_value());
  EXPECT_EQ(d.lookup(0), 1u);  // block 0 is now the more recently used
  const auto gone = d.insert(4, 9);
  ASSERT_TRUE(gone.has_value());
  EXPECT_EQ(*gone, (DirectoryEviction{2, 7}));
  EXPECT_EQ(d.holder(2), kNoOwner);
  EXPECT_EQ(d.holder(4), 9u);
  EXPECT_EQ(d.evictions(), 1u);
  EXPECT_THROW(DNucaDirectory(DNucaDirectoryConfig{10, 4}), std::invalid_argument);
}

}  // namespace
}  // namespace tessera::model::dtm_nuca
