// Blocked layout (paper 004 section III): address mapping, upload into blocks, errors.
#include <gtest/gtest.h>

#include <vector>

#include "tessera/texture/texture.h"

using namespace tessera::texture;

TEST(Texture, BlockedAddressMappingRgba8) {
  Texture tex;
  std::string error;
  ASSERT_TRUE(tex.create(VK_FORMAT_R8G8B8A8_UNORM, 8, 8, 4, 2, 0x10000, &error)) << error;
  // Level 0 is 2x2 blocks of 64 B. Texel (5, 6): block (1, 1) = block 3; inside: row 2, column 1.
  EXPECT_EQ(tex.address(0, 0, 5, 6).block, 0x10000u + 3 * 64);
  EXPECT_EQ(tex.address(0, 0, 5, 6).byte, 0x10000u + 3 * 64 + (2 * 4 + 1) * 4);
  // Every 4x4 block is exactly one 64 B line.
  for (uint32_t y = 0; y < 4; ++y)
    for (uint32_t x = 0; x < 4; ++x) EXPECT_EQ(tex.address(0, 0, x, y).byte / 64, 0x10000u / 64);
  // Level 1 (4x4) starts after the 4 blocks of level 0; level 2 (2x2) and 3 (1x1) one block each.
  EXPECT_EQ(tex.address(0, 1, 0, 0).block, 0x10000u + 256);
  EXPECT_EQ(tex.address(0, 2, 1, 1).block, 0x10000u + 320);
  EXPECT_EQ(tex.address(0, 2, 1, 1).byte, 0x10000u + 320 + 5 * 4);
  EXPECT_EQ(tex.address(0, 3, 0, 0).block, 0x10000u + 384);
  // Layer 1 follows the whole mip chain of layer 0 (448 B).
  EXPECT_EQ(tex.address(1, 0, 0, 0).block, 0x10000u + 448);
  EXPECT_EQ(tex.size_bytes(), 2u * 448);
  EXPECT_EQ(tex.width(2), 2u);
  EXPECT_EQ(tex.height(3), 1u);
}

TEST(Texture, SmallFormatsAndBcBlocks) {
  Texture r8;
  std::string error;
  ASSERT_TRUE(r8.create(VK_FORMAT_R8_UNORM, 10, 6, 2, 1, 0, &error)) << error;
  // 3x2 blocks of 16 B; texel (9, 5) is in block (2, 1) = block 5, row 1, column 1.
  EXPECT_EQ(r8.address(0, 0, 9, 5).byte, 5u * 16 + 5);
  // Level 1 (5x3): 2x1 blocks; level 0 is 96 B, rounded up to the 64 B line: 128.
  EXPECT_EQ(r8.address(0, 1, 4, 2).block, 128u + 16);

  Texture bc;
  ASSERT_TRUE(bc.create(VK_FORMAT_BC1_RGBA_UNORM_BLOCK, 8, 8, 2, 1, 0x400, &error)) << error;
  EXPECT_EQ(bc.address(0, 0, 7, 3).block, 0x400u + 8);
  EXPECT_EQ(bc.address(0, 0, 7, 3).byte, 0x400u + 8);
  EXPECT_EQ(bc.address(0, 1, 3, 3).block, 0x400u + 64);
  EXPECT_EQ(bc.level_linear_bytes(0), 32u);
  EXPECT_EQ(bc.level_linear_bytes(1), 8u);
}

TEST(Texture, UploadStoresTexelsInBlocks) {
  Texture tex;
  std::string error;
  ASSERT_TRUE(tex.create(VK_FORMAT_R8G8B8A8_UNORM, 8, 4, 1, 1, 0x1000, &error)) << error;
  std::vector<uint8_t> linear(8 * 4 * 4);
  for (size_t i = 0; i < linear.size(); ++i) linear[i] = static_cast<uint8_t>(i);
  ASSERT_TRUE(tex.upload(0, 0, linear.data(), linear.size(), &error)) << error;
  // Row-major texel (5, 2) (linear offset (2*8+5)*4 = 84) lands in block 1 at row 2, column 1.
  const uint64_t at = tex.address(0, 0, 5, 2).byte - tex.base_address();
  EXPECT_EQ(at, 64u + (2 * 4 + 1) * 4);
  EXPECT_EQ(tex.memory()[at], 84);
  EXPECT_EQ(tex.memory()[at + 3], 87);
  EXPECT_FLOAT_EQ(tex.texel(0, 0, 5, 2)[1], 85.0f / 255.0f);
}

TEST(Texture, BadInputGivesOneLineErrors) {
  Texture tex;
  std::string error;
  EXPECT_FALSE(tex.create(VK_FORMAT_R8G8B8_UNORM, 4, 4, 1, 1, 0, &error));
  EXPECT_EQ(error, "texture: unsupported format VkFormat(23)");
  EXPECT_FALSE(tex.create(VK_FORMAT_R8_UNORM, 4, 4, 4, 1, 0, &error));
  EXPECT_EQ(error, "texture: 4 levels exceed the 3 of a 4x4 image");
  ASSERT_TRUE(tex.create(VK_FORMAT_R8_UNORM, 4, 4, 1, 1, 0, &error));
  uint8_t data[16] = {};
  EXPECT_FALSE(tex.upload(0, 0, data, 15, &error));
  EXPECT_EQ(error, "texture: upload of 15 bytes to a level of 16 bytes");
  EXPECT_FALSE(tex.upload(1, 0, data, 16, &error));
}
