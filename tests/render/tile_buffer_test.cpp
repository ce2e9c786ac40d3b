// The tile buffer's shortcuts (table-based RGBA8 rounding, direct UNORM depth quantization)
// against the attachment format's own encode/decode, over a sweep that includes the rounding
// ties, the range ends, negatives and NaN.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <vector>

#include "render_test_util.h"
#include "tile_buffer.h"

namespace tessera::render {
namespace {

std::vector<float> sweep(uint32_t steps) {
  std::vector<float> v = {0.0f, -0.0f, 1.0f, -1.0f, 2.0f, std::numeric_limits<float>::quiet_NaN(),
                          std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity()};
  for (uint32_t c = 0; c <= 255; ++c) {
    const float tie = (static_cast<float>(c) + 0.5f) / 255.0f;
    v.insert(v.end(), {tie, std::nextafter(tie, 0.0f), std::nextafter(tie, 1.0f)});
  }
  for (uint32_t i = 0; i <= steps; ++i) v.push_back(-0.1f + 1.2f * static_cast<float>(i) / static_cast<float>(steps));
  return v;
}

TEST(TileBuffer, Rgba8RoundingEqualsTheFormatsEncodeAndDecode) {
  for (uint32_t format : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_A8B8G8R8_UNORM_PACK32}) {
    testing::Scene scene;
    frontend::Image* img = scene.image(format, 32, 32, 4, 0x1000);
    const auto pass = testing::pass(32, 32, scene.view(img), VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE);
    frontend::SkipCounts skipped;
    TileBuffers tiles;
    tiles.configure(pass, 32, 32, nullptr, {}, skipped);
    tiles.begin_tile({0, 0, 32, 32});
    AttachmentBuffer* a = tiles.attachment(0);
    ASSERT_NE(a, nullptr);
    ASSERT_TRUE(a->unorm8);
    for (float v : sweep(100000)) {
      const float in[4] = {v, 1.0f - v, v * 0.5f, v};
      tiles.write_color(*a, 0, in);
      uint8_t bytes[4];
      float want[4];
      pipeline::encode_color(a->format, in, bytes);
      pipeline::decode_color(a->format, bytes, want);
      for (int c = 0; c < 4; ++c) ASSERT_EQ(std::bit_cast<uint32_t>(a->color_tile[c]), std::bit_cast<uint32_t>(want[c])) << v;
    }
  }
}

TEST(TileBuffer, UnormDepthQuantizationEqualsTheFormatsEncodeAndDecode) {
  for (uint32_t format : {VK_FORMAT_D16_UNORM, VK_FORMAT_X8_D24_UNORM_PACK32, VK_FORMAT_D24_UNORM_S8_UINT, VK_FORMAT_D32_SFLOAT}) {
    AttachmentBuffer a;
    ASSERT_TRUE(pipeline::pixel_format(format, &a.format));
    a.depth_bits = format == VK_FORMAT_D16_UNORM ? 16 : format == VK_FORMAT_D32_SFLOAT ? 0 : 24;
    for (float z : sweep(1000000)) {
      const float want = pipeline::quantize_depth(a.format, z);
      const float got = TileBuffers::quantize_depth(a, z);
      ASSERT_TRUE(std::bit_cast<uint32_t>(got) == std::bit_cast<uint32_t>(want) || (std::isnan(got) && std::isnan(want)))
          << format << " " << z;
    }
  }
}

// A store op of a depth attachment writes, pixel by pixel, the bytes of the format's own
// encode_depth (the UNORM formats take a shortcut in TileBuffers::store).
TEST(TileBuffer, DepthStoreWritesTheFormatsEncoding) {
  const std::vector<float> values = sweep(4000);
  for (uint32_t format : {VK_FORMAT_D16_UNORM, VK_FORMAT_X8_D24_UNORM_PACK32, VK_FORMAT_D24_UNORM_S8_UINT,
                          VK_FORMAT_D16_UNORM_S8_UINT, VK_FORMAT_D32_SFLOAT}) {
    pipeline::PixelFormat pf;
    ASSERT_TRUE(pipeline::pixel_format(format, &pf));
    constexpr uint32_t kSize = 64;
    testing::Scene scene;
    frontend::Image* color = scene.image(VK_FORMAT_R8G8B8A8_UNORM, kSize, kSize, 4, 0x1000);
    frontend::Image* depth = scene.image(format, kSize, kSize, pf.bytes, 0x100000, pf.stencil);
    // Bytes a store must overwrite (X8_D24's unused high byte included).
    std::fill(depth->planes[0].begin(), depth->planes[0].end(), uint8_t{0xa5});
    const auto pass = testing::pass(kSize, kSize, scene.view(color), VK_ATTACHMENT_LOAD_OP_CLEAR,
                                    VK_ATTACHMENT_STORE_OP_STORE, scene.view(depth, 0, VK_IMAGE_ASPECT_DEPTH_BIT));
    frontend::SkipCounts skipped;
    TileBuffers tiles;
    tiles.configure(pass, kSize, kSize, nullptr, {}, skipped);
    tiles.begin_tile({0, 0, kSize, kSize});
    AttachmentBuffer* a = tiles.attachment(1);
    ASSERT_NE(a, nullptr);
    ASSERT_TRUE(a->depth);
    ASSERT_EQ(a->depth_tile.size(), size_t{kSize} * kSize);
    for (size_t v = 0; v < a->depth_tile.size(); ++v) a->depth_tile[v] = values[v % values.size()];
    RenderStats stats;
    tiles.store(nullptr, stats);
    for (size_t v = 0; v < a->depth_tile.size(); ++v) {
      uint8_t want[8] = {};
      pipeline::encode_depth(pf, a->depth_tile[v], want);
      for (uint32_t b = 0; b < pf.bytes; ++b)
        ASSERT_EQ(depth->planes[0][v * pf.bytes + b], want[b]) << format << " value " << a->depth_tile[v] << " byte " << b;
    }
  }
}

}  // namespace
}  // namespace tessera::render
