// BC7 blocks built field by field from the Khronos Data Format spec ("BC7", Table.M), decoded to
// exact RGBA8 texels. A block is 128 bits read from bit 0 of byte 0 up; its fields, in order:
//   mode (m zeros then a one), partition, rotation, index selection,
//   colour endpoints (R of every endpoint: subset 0 endpoint 0, subset 0 endpoint 1, subset 1
//   endpoint 0, ...; then G, then B), alpha endpoints (same order), p-bits (per endpoint, or per
//   subset when shared), primary indices (texel x + 4 y; an anchor texel's index has one bit
//   less), secondary indices (modes 4 and 5; texel 0 is their anchor).
// An endpoint component of n bits (p-bit below it) becomes 8 bits as v << (8 - n) | v >> (2n - 8),
// and a texel is ((64 - w) e0 + w e1 + 32) >> 6 with w from the spec's weight tables:
//   2-bit: 0 21 43 64; 3-bit: 0 9 18 27 37 46 55 64; 4-bit: 0 4 9 13 17 21 26 30 34 38 43 47 51 55 60 64.
#include <gtest/gtest.h>

#include <array>
#include <string>

#include "tessera/texture/format.h"
#include "tessera/texture/sampler.h"
#include "tessera/texture/texture.h"

using namespace tessera::texture;

namespace {

// Appends fields to a 128-bit block, least significant bit first.
class BlockWriter {
 public:
  void put(uint32_t value, uint32_t bits) {
    for (uint32_t i = 0; i < bits; ++i, ++pos_) {
      if ((value >> i) & 1u) bytes_[pos_ >> 3] = static_cast<uint8_t>(bytes_[pos_ >> 3] | (1u << (pos_ & 7)));
    }
  }
  void mode(uint32_t m) { put(1u << m, m + 1); }
  // The layout filled the block exactly: a miscounted field would show here.
  const std::array<uint8_t, 16>& block() {
    EXPECT_EQ(pos_, 128u);
    return bytes_;
  }

 private:
  std::array<uint8_t, 16> bytes_{};
  uint32_t pos_ = 0;
};

struct Decoded {
  Rgba8 t[16];
};

Decoded decode(const std::array<uint8_t, 16>& block) {
  Decoded d;
  decode_bc7_block(block.data(), d.t);
  return d;
}

// The BC7 mode 6 block of Bc7Test.Mode6: one subset, RGBA endpoints, 4-bit indices = texel number.
std::array<uint8_t, 16> mode6_block() {
  BlockWriter w;
  w.mode(6);                                 // 7 bits
  w.put(0, 7), w.put(127, 7);                // R0, R1
  w.put(127, 7), w.put(0, 7);                // G0, G1
  w.put(64, 7), w.put(64, 7);                // B0, B1
  w.put(127, 7), w.put(127, 7);              // A0, A1
  w.put(0, 1), w.put(1, 1);                  // p-bit of endpoint 0, endpoint 1
  w.put(0, 3);                               // texel 0 (anchor): 3 bits
  for (uint32_t t = 1; t < 16; ++t) w.put(t, 4);
  return w.block();
}

}  // namespace

TEST(Bc7, Mode6FourBitIndicesAndEndpointPBits) {
  // Endpoints with p-bits 0 and 1: R 0 -> 0 and (127 << 1 | 1) = 255; G 254 and 1; B 128 and
  // 129; A 254 and 255. Texel t takes weight w4[t]: R = (w * 255 + 32) >> 6.
  const Decoded d = decode(mode6_block());
  const uint8_t r[16] = {0, 16, 36, 52, 68, 84, 104, 120, 135, 151, 171, 187, 203, 219, 239, 255};
  const uint8_t g[16] = {254, 238, 218, 203, 187, 171, 151, 135, 120, 104, 84, 68, 52, 37, 17, 1};
  for (uint32_t t = 0; t < 16; ++t) {
    const uint8_t b = t < 8 ? 128 : 129, a = t < 8 ? 254 : 255;  // w <= 30 rounds to e0
    EXPECT_EQ(d.t[t], (Rgba8{r[t], g[t], b, a})) << "texel " << t;
  }
}

TEST(Bc7, Mode5RotationAndSeparateAlphaIndices) {
  // Mode 5: one subset, RGB 7 bits, A 8 bits, 2-bit colour and 2-bit alpha indices, rotation.
  BlockWriter w;
  w.mode(5);                                 // 6 bits
  w.put(1, 2);                               // rotation 1: swap A and R
  w.put(127, 7), w.put(0, 7);                // R0 = 255, R1 = 0
  w.put(64, 7), w.put(64, 7);                // G = 64 << 1 | 64 >> 6 = 129
  w.put(0, 7), w.put(0, 7);                  // B = 0
  w.put(10, 8), w.put(250, 8);               // A0, A1 (8 bits, as they are)
  for (uint32_t t = 0; t < 16; ++t) w.put(t % 4, t == 0 ? 1 : 2);  // colour index = x
  for (uint32_t t = 0; t < 16; ++t) w.put(t / 4, t == 0 ? 1 : 2);  // alpha index = y
  const Decoded d = decode(w.block());
  // Before rotation R = 255, 171, 84, 0 by x and A = 10, 89, 171, 250 by y; rotation 1 swaps them.
  const uint8_t red_by_x[4] = {255, 171, 84, 0};
  const uint8_t alpha_by_y[4] = {10, 89, 171, 250};
  for (uint32_t t = 0; t < 16; ++t)
    EXPECT_EQ(d.t[t], (Rgba8{alpha_by_y[t / 4], 129, 0, red_by_x[t % 4]})) << "texel " << t;
}

TEST(Bc7, Mode4IndexSelectionSwapsTheIndexSets) {
  // Mode 4: one subset, RGB 5 bits, A 6 bits, 2-bit primary and 3-bit secondary indices. The
  // index selection bit gives colour the 3-bit set and alpha the 2-bit set when 1 (Table.M ISB).
  auto block = [](uint32_t selection, uint32_t rotation) {
    BlockWriter w;
    w.mode(4);                               // 5 bits
    w.put(rotation, 2);
    w.put(selection, 1);
    w.put(0, 5), w.put(31, 5);               // R0 = 0, R1 = 31 << 3 | 31 >> 2 = 255
    w.put(0, 5), w.put(0, 5);                // G
    w.put(0, 5), w.put(0, 5);                // B
    w.put(0, 6), w.put(63, 6);               // A0 = 0, A1 = 63 << 2 | 63 >> 4 = 255
    for (uint32_t t = 0; t < 16; ++t) w.put(t % 4, t == 0 ? 1 : 2);  // 2-bit: x
    for (uint32_t t = 0; t < 16; ++t) w.put(t / 2, t == 0 ? 2 : 3);  // 3-bit: t / 2
    return w.block();
  };
  const uint8_t by_w2[4] = {0, 84, 171, 255};                   // (w2 * 255 + 32) >> 6
  const uint8_t by_w3[8] = {0, 36, 72, 108, 147, 183, 219, 255};  // (w3 * 255 + 32) >> 6
  const Decoded primary = decode(block(0, 0));
  const Decoded secondary = decode(block(1, 0));
  const Decoded rotated = decode(block(1, 3));  // rotation 3: swap A and B
  for (uint32_t t = 0; t < 16; ++t) {
    EXPECT_EQ(primary.t[t], (Rgba8{by_w2[t % 4], 0, 0, by_w3[t / 2]})) << "texel " << t;
    EXPECT_EQ(secondary.t[t], (Rgba8{by_w3[t / 2], 0, 0, by_w2[t % 4]})) << "texel " << t;
    EXPECT_EQ(rotated.t[t], (Rgba8{by_w3[t / 2], 0, by_w2[t % 4], 0})) << "texel " << t;
  }
}

TEST(Bc7, Mode1TwoSubsetsWithTableAnchor) {
  // Mode 1, partition 17 (Table.P2 row 0111 0001 0000 0000: texels 1, 2, 3, 7 in subset 1).
  // Table.A2 puts subset 1's anchor at texel 2, not at its first texel 1: texels 0 and 2 have
  // 2-bit indices, the other fourteen 3 bits.
  const uint32_t index[16] = {0, 7, 3, 5, 1, 2, 4, 6, 7, 6, 5, 4, 3, 2, 1, 0};
  BlockWriter w;
  w.mode(1);                                 // 2 bits
  w.put(17, 6);                              // partition
  // Subset 0 is a red ramp, subset 1 a green ramp; 6-bit components, then the shared p-bits.
  w.put(0, 6), w.put(63, 6), w.put(0, 6), w.put(0, 6);   // R: s0e0, s0e1, s1e0, s1e1
  w.put(0, 6), w.put(0, 6), w.put(0, 6), w.put(63, 6);   // G
  w.put(0, 6), w.put(0, 6), w.put(0, 6), w.put(0, 6);    // B
  w.put(1, 1), w.put(0, 1);                  // shared p-bit of subset 0, of subset 1
  for (uint32_t t = 0; t < 16; ++t) w.put(index[t], t == 0 || t == 2 ? 2 : 3);
  const Decoded d = decode(w.block());
  // Subset 0 (p = 1): 7-bit 1 -> 2 and 127 -> 255, so G = B = 2 and R = (2 (64 - w) + 255 w + 32) >> 6.
  // Subset 1 (p = 0): 7-bit 0 -> 0 and 126 -> 253.
  const Rgba8 expected[16] = {
      {2, 2, 2, 255},   {0, 253, 0, 255}, {0, 107, 0, 255}, {0, 182, 0, 255},
      {38, 2, 2, 255},  {73, 2, 2, 255},  {148, 2, 2, 255}, {0, 217, 0, 255},
      {255, 2, 2, 255}, {219, 2, 2, 255}, {184, 2, 2, 255}, {148, 2, 2, 255},
      {109, 2, 2, 255}, {73, 2, 2, 255},  {38, 2, 2, 255},  {2, 2, 2, 255},
  };
  for (uint32_t t = 0; t < 16; ++t) EXPECT_EQ(d.t[t], expected[t]) << "texel " << t;
}

TEST(Bc7, Mode0ThreeSubsetsWithTableAnchors) {
  // Mode 0, partition 1 (Table.P3 row 0001 0011 2211 2221). Table.A3a/A3b put the anchors of
  // subsets 1 and 2 at texels 3 and 8: texels 0, 3 and 8 have 2-bit indices.
  const uint32_t index[16] = {0, 1, 2, 3, 4, 5, 6, 7, 3, 6, 5, 4, 3, 2, 1, 0};
  BlockWriter w;
  w.mode(0);                                 // 1 bit
  w.put(1, 4);                               // partition
  // Subset s ramps component s from 4-bit 0 to 15; the others stay 0. Per-endpoint p-bits are
  // 0 for endpoint 0 and 1 for endpoint 1: 5-bit 0 -> 0, 31 -> 255, 1 -> 8.
  for (uint32_t c = 0; c < 3; ++c)
    for (uint32_t s = 0; s < 3; ++s) w.put(0, 4), w.put(c == s ? 15 : 0, 4);
  for (uint32_t s = 0; s < 3; ++s) w.put(0, 1), w.put(1, 1);
  for (uint32_t t = 0; t < 16; ++t) w.put(index[t], t == 0 || t == 3 || t == 8 ? 2 : 3);
  const Decoded d = decode(w.block());
  const Rgba8 expected[16] = {
      {0, 0, 0, 255},   {36, 1, 1, 255},   {72, 2, 2, 255},   {3, 108, 3, 255},
      {147, 5, 5, 255}, {183, 6, 6, 255},  {7, 219, 7, 255},  {8, 255, 8, 255},
      {3, 3, 108, 255}, {7, 7, 219, 255},  {6, 183, 6, 255},  {5, 147, 5, 255},
      {3, 3, 108, 255}, {2, 2, 72, 255},   {1, 1, 36, 255},   {0, 0, 0, 255},
  };
  for (uint32_t t = 0; t < 16; ++t) EXPECT_EQ(d.t[t], expected[t]) << "texel " << t;
}

TEST(Bc7, Mode7TwoSubsetsWithAlpha) {
  // Mode 7, partition 18 (Table.P2 row 0000 0000 1000 1110; Table.A2: anchor of subset 1 at
  // texel 8). RGBA 5-bit endpoints, a p-bit per endpoint, 2-bit indices = x.
  BlockWriter w;
  w.mode(7);                                 // 8 bits
  w.put(18, 6);
  // Subset 0: endpoint 0 = (31, 0, 0, 0) with p 1, endpoint 1 = (0, 0, 31, 15) with p 0.
  // Subset 1: endpoint 0 = 0 with p 0, endpoint 1 = 31 with p 1 in every component.
  w.put(31, 5), w.put(0, 5), w.put(0, 5), w.put(31, 5);  // R
  w.put(0, 5), w.put(0, 5), w.put(0, 5), w.put(31, 5);   // G
  w.put(0, 5), w.put(31, 5), w.put(0, 5), w.put(31, 5);  // B
  w.put(0, 5), w.put(15, 5), w.put(0, 5), w.put(31, 5);  // A
  w.put(1, 1), w.put(0, 1), w.put(0, 1), w.put(1, 1);    // p: s0e0, s0e1, s1e0, s1e1
  for (uint32_t t = 0; t < 16; ++t) w.put(t % 4, t == 0 || t == 8 ? 1 : 2);
  const Decoded d = decode(w.block());
  // Subset 0, 6-bit: 63 -> 255, 1 -> 4, 62 -> 251, 30 -> 121. Subset 1: 0 and 255.
  const Rgba8 s0[4] = {{255, 4, 4, 4}, {171, 3, 85, 42}, {84, 1, 170, 83}, {0, 0, 251, 121}};
  const Rgba8 s1[4] = {{0, 0, 0, 0}, {84, 84, 84, 84}, {171, 171, 171, 171}, {255, 255, 255, 255}};
  const char* subsets = "0000000010001110";
  for (uint32_t t = 0; t < 16; ++t)
    EXPECT_EQ(d.t[t], subsets[t] == '0' ? s0[t % 4] : s1[t % 4]) << "texel " << t;
}

TEST(Bc7, Mode2And3FieldWidths) {
  // Mode 2: three subsets, 64 partitions, RGB 5 bits, no p-bits, 2-bit indices. Partition 63
  // (Table.P3 row 0111 2011 2201 2220; anchors at texels 3 and 8 by Table.A3a/A3b).
  {
    BlockWriter w;
    w.mode(2);                               // 3 bits
    w.put(63, 6);
    // Every endpoint of subset s is the grey 8 s + 1 (5-bit): 1 -> 8, 9 -> 74, 17 -> 140.
    for (uint32_t c = 0; c < 3; ++c)
      for (uint32_t s = 0; s < 3; ++s) w.put(8 * s + 1, 5), w.put(8 * s + 1, 5);
    for (uint32_t t = 0; t < 16; ++t) w.put(t == 0 || t == 3 || t == 8 ? 1 : 3, t == 0 || t == 3 || t == 8 ? 1 : 2);
    const Decoded d = decode(w.block());
    const char* subsets = "0111201122012220";
    const uint8_t grey[3] = {8, 74, 140};
    for (uint32_t t = 0; t < 16; ++t) {
      const uint8_t v = grey[subsets[t] - '0'];
      EXPECT_EQ(d.t[t], (Rgba8{v, v, v, 255})) << "texel " << t;
    }
  }
  // Mode 3: two subsets, RGB 7 bits and a p-bit per endpoint, 2-bit indices. Partition 0 (Table.P2
  // row 0011 0011 0011 0011, anchor of subset 1 at texel 15). Subset 0: blue 0 -> 255; subset 1:
  // red 255 -> 0 with p-bits (1, 0): 8-bit (127 << 1 | 1) = 255 and 0.
  {
    BlockWriter w;
    w.mode(3);                               // 4 bits
    w.put(0, 6);
    w.put(0, 7), w.put(0, 7), w.put(127, 7), w.put(0, 7);   // R
    w.put(0, 7), w.put(0, 7), w.put(0, 7), w.put(0, 7);     // G
    w.put(0, 7), w.put(127, 7), w.put(0, 7), w.put(0, 7);   // B
    w.put(0, 1), w.put(1, 1), w.put(1, 1), w.put(0, 1);     // p: s0e0, s0e1, s1e0, s1e1
    // Index y in subset 0 and 3 - y in subset 1, so that both anchors (texels 0, 15) are 0.
    for (uint32_t t = 0; t < 16; ++t) w.put(t % 4 < 2 ? t / 4 : 3 - t / 4, t == 0 || t == 15 ? 1 : 2);
    const Decoded d = decode(w.block());
    // Subset 0's endpoint 0 is (0, 0, 0) with p 0 -> 0, endpoint 1 (0, 0, 127) with p 1 ->
    // (1, 1, 255) 8-bit; subset 1's endpoint 0 (127, 0, 0) p 1 -> (255, 1, 1), endpoint 1 0.
    // By index:
    const Rgba8 s0[4] = {{0, 0, 0, 255}, {0, 0, 84, 255}, {1, 1, 171, 255}, {1, 1, 255, 255}};
    const Rgba8 s1[4] = {{255, 1, 1, 255}, {171, 1, 1, 255}, {84, 0, 0, 255}, {0, 0, 0, 255}};
    for (uint32_t t = 0; t < 16; ++t)
      EXPECT_EQ(d.t[t], t % 4 < 2 ? s0[t / 4] : s1[3 - t / 4]) << "texel " << t;
  }
}

TEST(Bc7, ReservedModeIsTransparentBlack) {
  // Byte 0 = 0 has no mode bit (the spec's reserved "mode 8"): all texels are 0, alpha too.
  std::array<uint8_t, 16> block;
  block.fill(0xFF);
  block[0] = 0;
  const Decoded d = decode(block);
  for (uint32_t t = 0; t < 16; ++t) EXPECT_EQ(d.t[t], (Rgba8{0, 0, 0, 0})) << "texel " << t;
}

TEST(Bc7, FormatsAndSrgbDecode) {
  FormatInfo unorm, srgb;
  ASSERT_TRUE(format_info(VK_FORMAT_BC7_UNORM_BLOCK, &unorm));
  ASSERT_TRUE(format_info(VK_FORMAT_BC7_SRGB_BLOCK, &srgb));
  EXPECT_EQ(unorm.block_bytes, 16u);
  EXPECT_EQ(unorm.components, 4u);
  EXPECT_TRUE(unorm.compressed);
  EXPECT_FALSE(unorm.srgb);
  EXPECT_TRUE(srgb.srgb);
  EXPECT_EQ(format_name(VK_FORMAT_BC7_SRGB_BLOCK), "BC7_SRGB_BLOCK");
  Rgba linear[16], decoded[16];
  const std::array<uint8_t, 16> block = mode6_block();
  decode_bc_block(unorm, block.data(), linear);
  decode_bc_block(srgb, block.data(), decoded);
  // Texel 5: (84, 171, 128, 254). UNORM is c / 255; sRGB decodes R, G, B, never alpha.
  EXPECT_FLOAT_EQ(linear[5][0], 84.0f / 255.0f);
  EXPECT_FLOAT_EQ(linear[5][3], 254.0f / 255.0f);
  EXPECT_FLOAT_EQ(decoded[5][0], srgb_to_linear(84.0f / 255.0f));
  EXPECT_FLOAT_EQ(decoded[5][1], srgb_to_linear(171.0f / 255.0f));
  EXPECT_FLOAT_EQ(decoded[5][2], srgb_to_linear(128.0f / 255.0f));
  EXPECT_FLOAT_EQ(decoded[5][3], 254.0f / 255.0f);
}

TEST(Bc7, TextureSamplesDecodedTexelsWithNearestFilter) {
  // An 8x4 BC7_UNORM texture: block (0, 0) the mode 6 block, block (1, 0) a reserved block.
  std::array<uint8_t, 32> blocks{};
  const std::array<uint8_t, 16> left = mode6_block();
  std::copy(left.begin(), left.end(), blocks.begin());
  blocks[16] = 0;
  blocks[17] = 0xFF;
  Texture tex;
  std::string error;
  ASSERT_TRUE(tex.create(VK_FORMAT_BC7_UNORM_BLOCK, 8, 4, 1, 1, 0x1000, &error)) << error;
  ASSERT_TRUE(tex.upload(0, 0, blocks.data(), blocks.size(), &error)) << error;
  const Decoded d = decode(left);
  SamplerState nearest;  // NEAREST, REPEAT by default
  for (uint32_t y = 0; y < 4; ++y) {
    for (uint32_t x = 0; x < 8; ++x) {
      SampleRequest r;
      r.s = (static_cast<float>(x) + 0.5f) / 8.0f;
      r.t = (static_cast<float>(y) + 0.5f) / 4.0f;
      r.explicit_lod = true;
      Footprint fp;
      const Rgba c = sample(tex, nearest, r, &fp);
      const Rgba8 want = x < 4 ? d.t[y * 4 + x] : Rgba8{0, 0, 0, 0};
      for (uint32_t k = 0; k < 4; ++k)
        EXPECT_EQ(c[k], static_cast<float>(want[k]) / 255.0f) << "texel " << x << ", " << y << " component " << k;
      // Both 16-byte blocks lie in the texture's first 64-byte line.
      ASSERT_EQ(fp.line_count, 1u);
      EXPECT_EQ(fp.lines[0], 0x1000u);
    }
  }
}
