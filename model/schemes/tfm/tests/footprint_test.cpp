// Paper 004 Algorithm 2 on constructed footprints: the four cases (1, 2, 2 and 4 lookups), their
// access order, and the filter order t1..t4 of Fig. 4.
#include <gtest/gtest.h>

#include "tfm/footprint.h"

namespace tessera::model::tfm {
namespace {

using F = FetchStep;

TEST(Footprint, Case1OneBlockOneLookup) {
  const BilinearFootprint f = algorithm2(1, 1);  // texels (1..2, 1..2): all in block (0,0)
  EXPECT_FALSE(f.c0);
  EXPECT_FALSE(f.c1);
  EXPECT_EQ(f.footprint_case, FootprintCase::SingleBlock);
  EXPECT_EQ(f.lookups, 1u);
  EXPECT_EQ(f.fetch, (std::array<F, 4>{F{0, true}, F{1, false}, F{2, false}, F{3, false}}));
}

TEST(Footprint, Case2TwoBlocksVerticallyTwoLookups) {
  const BilinearFootprint f = algorithm2(1, 3);  // rows 3 and 4 straddle blocks (0,0) and (0,1)
  EXPECT_FALSE(f.c0);
  EXPECT_TRUE(f.c1);
  EXPECT_EQ(f.footprint_case, FootprintCase::TwoBlocksVertical);
  EXPECT_EQ(f.lookups, 2u);
  // Lookup t1, t2 from the same block, lookup t3, t4 from the same block (Algorithm 2 lines 14-17).
  EXPECT_EQ(f.fetch, (std::array<F, 4>{F{0, true}, F{1, false}, F{2, true}, F{3, false}}));
}

TEST(Footprint, Case3TwoBlocksHorizontallyTwoLookups) {
  const BilinearFootprint f = algorithm2(3, 1);  // columns 3 and 4 straddle blocks (0,0) and (1,0)
  EXPECT_TRUE(f.c0);
  EXPECT_FALSE(f.c1);
  EXPECT_EQ(f.footprint_case, FootprintCase::TwoBlocksHorizontal);
  EXPECT_EQ(f.lookups, 2u);
  // Lookup t1, t3 from the same block, lookup t2, t4 from the same block (lines 20-23).
  EXPECT_EQ(f.fetch, (std::array<F, 4>{F{0, true}, F{2, false}, F{1, true}, F{3, false}}));
}

TEST(Footprint, Case4FourBlocksFourLookups) {
  const BilinearFootprint f = algorithm2(3, 7);
  EXPECT_TRUE(f.c0);
  EXPECT_TRUE(f.c1);
  EXPECT_EQ(f.footprint_case, FootprintCase::FourBlocks);
  EXPECT_EQ(f.lookups, 4u);
  EXPECT_EQ(f.fetch, (std::array<F, 4>{F{0, true}, F{1, true}, F{2, true}, F{3, true}}));
}

TEST(Footprint, FilterOrderOfFig4) {
  // t1 = (tu, tv), t2 = (tu + 1, tv), t3 = (tu, tv + 1), t4 = (tu + 1, tv + 1).
  const BilinearFootprint f = algorithm2(7, 3);
  EXPECT_EQ(f.texels, (std::array<Texel, 4>{Texel{7, 3, 1, 0}, Texel{8, 3, 2, 0}, Texel{7, 4, 1, 1}, Texel{8, 4, 2, 1}}));
}

TEST(Footprint, WrappedColumnsAndOtherBlockSizes) {
  // REPEAT on a 16-texel row: columns 15 and 0 lie in blocks 3 and 0.
  const BilinearFootprint wrapped = bilinear_footprint(15, 5, 0, 6);
  EXPECT_EQ(wrapped.footprint_case, FootprintCase::TwoBlocksHorizontal);
  EXPECT_EQ(wrapped.texels[1], (Texel{0, 5, 0, 1}));
  // Clamped to the edge: both columns are texel 15, one block.
  EXPECT_EQ(bilinear_footprint(15, 5, 15, 6).footprint_case, FootprintCase::SingleBlock);
  // 8 x 8 blocks: (3..4, 3..4) is one block.
  EXPECT_EQ(algorithm2(3, 3, 3, 3).footprint_case, FootprintCase::SingleBlock);
}

}  // namespace
}  // namespace tessera::model::tfm
