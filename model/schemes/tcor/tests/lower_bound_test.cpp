// The lower bound on Attribute Cache misses (paper 003 section V-A).
#include "tcor/lower_bound.h"

#include <gtest/gtest.h>

#include <vector>

namespace tessera::model::tcor {
namespace {

TEST(LowerBound, TheTextsExample) {
  // "if we have 1000 primitives and the Attribute Cache has a capacity for 128 primitives, there
  // will be at least 872 (1000-128) read misses", plus the 1000 compulsory writes.
  EXPECT_EQ(minimum_read_misses(1000, 128), 872u);
  EXPECT_EQ(miss_lower_bound(1000, 128), 1872u);
  // CP >= TP: only the compulsory writes.
  EXPECT_EQ(miss_lower_bound(1000, 1000), 1000u);
  EXPECT_EQ(miss_lower_bound(1000, 4096), 1000u);
  EXPECT_EQ(miss_lower_bound(0, 128), 0u);
}

TEST(LowerBound, CapacityInPrimitivesTakesTheSmallestFirst) {
  // 10 primitives of 1 attribute, 5 of 2, 3 of 3; 16 attribute lines: the ten 1s and three 2s.
  const std::vector<uint64_t> histogram = {0, 10, 5, 3};
  EXPECT_EQ(max_primitives_held(histogram, 16, 1000), 13u);
  EXPECT_EQ(max_primitives_held(histogram, 16, 11), 11u);   // Primitive Buffer lines bind first
  EXPECT_EQ(max_primitives_held(histogram, 1000, 1000), 18u);
  EXPECT_EQ(max_primitives_held(histogram, 0, 1000), 0u);
  // 48 KiB of 3-attribute primitives: 256 of them (the Primitive Buffer has 256 lines as well).
  const std::vector<uint64_t> threes = {0, 0, 0, 1000};
  EXPECT_EQ(miss_lower_bound(1000, max_primitives_held(threes, 768, 256)), 1000u + 744u);
}

}  // namespace
}  // namespace tessera::model::tcor
