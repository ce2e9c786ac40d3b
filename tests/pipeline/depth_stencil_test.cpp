// Depth and stencil comparisons (every VkCompareOp, masks, NaN), and every VkStencilOp with
// saturation, wrap-around and write masks.
#include "tessera/pipeline/depth_stencil.h"

#include <gtest/gtest.h>
#include <vulkan/vulkan_core.h>

#include <limits>

namespace tessera::pipeline {
namespace {

struct CompareCase {
  VkCompareOp op;
  bool less, equal, greater;  // expected outcome for a < b, a == b, a > b
};

constexpr CompareCase kCompareCases[] = {
    {VK_COMPARE_OP_NEVER, false, false, false},
    {VK_COMPARE_OP_LESS, true, false, false},
    {VK_COMPARE_OP_EQUAL, false, true, false},
    {VK_COMPARE_OP_LESS_OR_EQUAL, true, true, false},
    {VK_COMPARE_OP_GREATER, false, false, true},
    {VK_COMPARE_OP_NOT_EQUAL, true, false, true},
    {VK_COMPARE_OP_GREATER_OR_EQUAL, false, true, true},
    {VK_COMPARE_OP_ALWAYS, true, true, true},
};

TEST(DepthCompare, EveryOpIncomingAgainstStored) {
  for (const CompareCase& c : kCompareCases) {
    EXPECT_EQ(depth_compare(c.op, 0.25f, 0.5f), c.less) << c.op;
    EXPECT_EQ(depth_compare(c.op, 0.5f, 0.5f), c.equal) << c.op;
    EXPECT_EQ(depth_compare(c.op, 0.75f, 0.5f), c.greater) << c.op;
  }
}

TEST(DepthCompare, NanFailsOrderedOpsAndUnknownOpFails) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(depth_compare(VK_COMPARE_OP_LESS, nan, 0.5f));
  EXPECT_FALSE(depth_compare(VK_COMPARE_OP_GREATER_OR_EQUAL, nan, 0.5f));
  EXPECT_TRUE(depth_compare(VK_COMPARE_OP_NOT_EQUAL, nan, 0.5f));
  EXPECT_TRUE(depth_compare(VK_COMPARE_OP_ALWAYS, nan, 0.5f));
  EXPECT_FALSE(depth_compare(8, 0.25f, 0.5f));
}

TEST(StencilCompare, EveryOpReferenceAgainstStored) {
  for (const CompareCase& c : kCompareCases) {
    EXPECT_EQ(stencil_compare(c.op, 3, 7, 0xff), c.less) << c.op;
    EXPECT_EQ(stencil_compare(c.op, 7, 7, 0xff), c.equal) << c.op;
    EXPECT_EQ(stencil_compare(c.op, 9, 7, 0xff), c.greater) << c.op;
  }
  EXPECT_FALSE(stencil_compare(42, 1, 1, 0xff));
}

TEST(StencilCompare, CompareMaskAppliesToBothOperands) {
  // 0x13 and 0x23 differ only above the mask.
  EXPECT_TRUE(stencil_compare(VK_COMPARE_OP_EQUAL, 0x13, 0x23, 0x0f));
  EXPECT_FALSE(stencil_compare(VK_COMPARE_OP_EQUAL, 0x13, 0x23, 0xff));
  // The mask decides which operand is smaller: 0x12 vs 0x21 -> 0x10 < 0x20 but 0x2 > 0x1.
  EXPECT_TRUE(stencil_compare(VK_COMPARE_OP_LESS, 0x12, 0x21, 0xf0));
  EXPECT_FALSE(stencil_compare(VK_COMPARE_OP_LESS, 0x12, 0x21, 0x0f));
  EXPECT_TRUE(stencil_compare(VK_COMPARE_OP_GREATER, 0x12, 0x21, 0x0f));
  // A zero mask makes every comparison one of 0 with 0.
  EXPECT_TRUE(stencil_compare(VK_COMPARE_OP_EQUAL, 0xaa, 0x55, 0));
}

TEST(StencilUpdate, EveryOpWithFullWriteMask) {
  EXPECT_EQ(stencil_update(VK_STENCIL_OP_KEEP, 0x5a, 0x33, 0xff), 0x5a);
  EXPECT_EQ(stencil_update(VK_STENCIL_OP_ZERO, 0x5a, 0x33, 0xff), 0x00);
  EXPECT_EQ(stencil_update(VK_STENCIL_OP_REPLACE, 0x5a, 0x33, 0xff), 0x33);
  EXPECT_EQ(stencil_update(VK_STENCIL_OP_REPLACE, 0x5a, 0x1133, 0xffffffff), 0x33);  // low 8 bits
  EXPECT_EQ(stencil_update(VK_STENCIL_OP_INCREMENT_AND_CLAMP, 0x5a, 0, 0xff), 0x5b);
  EXPECT_EQ(stencil_update(VK_STENCIL_OP_INCREMENT_AND_CLAMP, 0xff, 0, 0xff), 0xff);
  EXPECT_EQ(stencil_update(VK_STENCIL_OP_DECREMENT_AND_CLAMP, 0x5a, 0, 0xff), 0x59);
  EXPECT_EQ(stencil_update(VK_STENCIL_OP_DECREMENT_AND_CLAMP, 0x00, 0, 0xff), 0x00);
  EXPECT_EQ(stencil_update(VK_STENCIL_OP_INVERT, 0x5a, 0, 0xff), 0xa5);
  EXPECT_EQ(stencil_update(VK_STENCIL_OP_INCREMENT_AND_WRAP, 0x5a, 0, 0xff), 0x5b);
  EXPECT_EQ(stencil_update(VK_STENCIL_OP_INCREMENT_AND_WRAP, 0xff, 0, 0xff), 0x00);
  EXPECT_EQ(stencil_update(VK_STENCIL_OP_DECREMENT_AND_WRAP, 0x5a, 0, 0xff), 0x59);
  EXPECT_EQ(stencil_update(VK_STENCIL_OP_DECREMENT_AND_WRAP, 0x00, 0, 0xff), 0xff);
  EXPECT_EQ(stencil_update(99, 0x5a, 0x33, 0xff), 0x5a);  // unknown op keeps
}

TEST(StencilUpdate, WriteMaskMergesNewBitsWithOld) {
  // Only the masked bits take the new value.
  EXPECT_EQ(stencil_update(VK_STENCIL_OP_REPLACE, 0xf0, 0x0f, 0x3c), 0xcc);
  EXPECT_EQ(stencil_update(VK_STENCIL_OP_ZERO, 0xff, 0, 0x0f), 0xf0);
  EXPECT_EQ(stencil_update(VK_STENCIL_OP_INVERT, 0x5a, 0, 0xf0), 0xaa);
  // 0x0f + 1 = 0x10, but only the low nibble may change: 0x00.
  EXPECT_EQ(stencil_update(VK_STENCIL_OP_INCREMENT_AND_WRAP, 0x0f, 0, 0x0f), 0x00);
  EXPECT_EQ(stencil_update(VK_STENCIL_OP_INCREMENT_AND_CLAMP, 0x0f, 0, 0x0f), 0x00);
  EXPECT_EQ(stencil_update(VK_STENCIL_OP_DECREMENT_AND_WRAP, 0x10, 0, 0xf0), 0x00);
  EXPECT_EQ(stencil_update(VK_STENCIL_OP_REPLACE, 0x5a, 0xff, 0), 0x5a);
}

}  // namespace
}  // namespace tessera::pipeline
