// Buffer layout of the capture layer's image readbacks (layer/copy_layout.cpp), against the
// Vulkan spec "Copying Data Between Buffers and Images": depth and stencil aspects copied
// separately (D24 as 32-bit words, stencil as bytes), compressed formats in whole blocks,
// every bufferOffset a multiple of 4 and of the texel block size.
#include <gtest/gtest.h>

#include "copy_layout.h"

namespace tessera::layer {
namespace {

TEST(CopyLayout, D24S8CopiesDepthWordsThenStencilBytesPerSubresource) {
  uint64_t total = 0;
  // 3x3, two mips: depth 3*3*4 = 36 at 0; stencil 9 at 48 (36 rounded up to 16);
  // mip 1 (1x1): depth 4 at 64 (57 rounded up), stencil 1 at 80.
  const auto c = plan_copies(VK_FORMAT_D24_UNORM_S8_UINT, {3, 3, 1}, 2, 1, &total);
  ASSERT_EQ(c.size(), 4u);
  EXPECT_EQ(c[0].aspect, VkImageAspectFlags{VK_IMAGE_ASPECT_DEPTH_BIT});
  EXPECT_EQ(c[0].offset, 0u);
  EXPECT_EQ(c[0].size, 36u);
  EXPECT_EQ(c[1].aspect, VkImageAspectFlags{VK_IMAGE_ASPECT_STENCIL_BIT});
  EXPECT_EQ(c[1].offset, 48u);
  EXPECT_EQ(c[1].size, 9u);
  EXPECT_EQ(c[2].aspect, VkImageAspectFlags{VK_IMAGE_ASPECT_DEPTH_BIT});
  EXPECT_EQ(c[2].mip, 1u);
  EXPECT_EQ(c[2].offset, 64u);
  EXPECT_EQ(c[2].size, 4u);
  EXPECT_EQ(c[2].extent.width, 1u);
  EXPECT_EQ(c[3].offset, 80u);
  EXPECT_EQ(c[3].size, 1u);
  EXPECT_EQ(total, 81u);
}

TEST(CopyLayout, SingleAspectDepthFormats) {
  uint64_t total = 0;
  auto c = plan_copies(VK_FORMAT_D16_UNORM, {640, 480, 1}, 1, 1, &total);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].aspect, VkImageAspectFlags{VK_IMAGE_ASPECT_DEPTH_BIT});
  EXPECT_EQ(total, 640u * 480u * 2u);
  c = plan_copies(VK_FORMAT_D32_SFLOAT, {640, 480, 1}, 1, 1, &total);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(total, 640u * 480u * 4u);
  c = plan_copies(VK_FORMAT_X8_D24_UNORM_PACK32, {7, 5, 1}, 1, 1, &total);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(total, 7u * 5u * 4u);  // D24 lands in 32-bit words
  c = plan_copies(VK_FORMAT_S8_UINT, {7, 5, 1}, 1, 1, &total);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].aspect, VkImageAspectFlags{VK_IMAGE_ASPECT_STENCIL_BIT});
  EXPECT_EQ(total, 35u);
}

TEST(CopyLayout, Bc1RowsAreCountedInBlocks) {
  uint64_t total = 0;
  // 5x5 with three mips: 2x2 blocks (32 bytes) at 0, 1 block (8) at 32, 1 block (8) at 48.
  const auto c = plan_copies(VK_FORMAT_BC1_RGBA_UNORM_BLOCK, {5, 5, 1}, 3, 1, &total);
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0].aspect, VkImageAspectFlags{VK_IMAGE_ASPECT_COLOR_BIT});
  EXPECT_EQ(c[0].size, 32u);
  EXPECT_EQ(c[1].offset, 32u);
  EXPECT_EQ(c[1].size, 8u);
  EXPECT_EQ(c[1].extent.width, 2u);  // the copy extent stays in texels, ending at the edge
  EXPECT_EQ(c[2].offset, 48u);
  EXPECT_EQ(c[2].size, 8u);
  EXPECT_EQ(total, 56u);
}

TEST(CopyLayout, Bc2AndBc3UseSixteenByteBlocks) {
  uint64_t total = 0;
  plan_copies(VK_FORMAT_BC3_SRGB_BLOCK, {256, 128, 1}, 1, 1, &total);
  EXPECT_EQ(total, 64u * 32u * 16u);
  plan_copies(VK_FORMAT_BC2_UNORM_BLOCK, {4, 4, 1}, 1, 2, &total);
  EXPECT_EQ(total, 32u);  // one block per layer
}

TEST(CopyLayout, ColourFormatsAndUnsupportedOnes) {
  uint64_t total = 0;
  const auto c = plan_copies(VK_FORMAT_R8G8B8A8_UNORM, {4, 4, 1}, 3, 2, &total);
  ASSERT_EQ(c.size(), 6u);
  EXPECT_EQ(c[3].layer, 1u);
  EXPECT_EQ(c[3].mip, 0u);
  EXPECT_EQ(c[3].offset, 96u);  // 64 + 16 + 4 = 84, aligned to 96
  EXPECT_TRUE(plan_copies(VK_FORMAT_G8_B8R8_2PLANE_420_UNORM, {4, 4, 1}, 1, 1, &total).empty());
  EXPECT_TRUE(plan_copies(VK_FORMAT_ASTC_4x4_UNORM_BLOCK, {4, 4, 1}, 1, 1, &total).empty());
}

}  // namespace
}  // namespace tessera::layer
