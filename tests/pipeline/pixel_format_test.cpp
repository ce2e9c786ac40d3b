// Attachment formats: fixed-point round trips, the sRGB OETF/EOTF, binary16 rounding, packed and
// BGRA layouts, integer clamping, and depth-aspect bytes as a buffer copy lays them out.
#include "tessera/pipeline/pixel_format.h"

#include <gtest/gtest.h>
#include <vulkan/vulkan_core.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "tessera/pipeline/numeric.h"

namespace tessera::pipeline {
namespace {

PixelFormat format_of(VkFormat vk_format) {
  PixelFormat format;
  EXPECT_TRUE(pixel_format(vk_format, &format)) << vk_format;
  return format;
}

uint32_t word(const uint8_t* b) { return b[0] | (b[1] << 8) | (b[2] << 16) | (static_cast<uint32_t>(b[3]) << 24); }

TEST(PixelFormat, Properties) {
  const PixelFormat bgra_srgb = format_of(VK_FORMAT_B8G8R8A8_SRGB);
  EXPECT_EQ(bgra_srgb.bytes, 4u);
  EXPECT_EQ(bgra_srgb.components, 4u);
  EXPECT_TRUE(bgra_srgb.srgb);
  EXPECT_TRUE(bgra_srgb.bgra);
  EXPECT_FALSE(bgra_srgb.integer || bgra_srgb.is_float || bgra_srgb.depth);

  const PixelFormat rg16f = format_of(VK_FORMAT_R16G16_SFLOAT);
  EXPECT_EQ(rg16f.bytes, 4u);
  EXPECT_EQ(rg16f.components, 2u);
  EXPECT_TRUE(rg16f.is_float);

  const PixelFormat r32ui = format_of(VK_FORMAT_R32_UINT);
  EXPECT_EQ(r32ui.bytes, 4u);
  EXPECT_TRUE(r32ui.integer);

  const PixelFormat d24s8 = format_of(VK_FORMAT_D24_UNORM_S8_UINT);
  EXPECT_EQ(d24s8.bytes, 4u);
  EXPECT_TRUE(d24s8.depth);
  EXPECT_TRUE(d24s8.stencil);
  EXPECT_FALSE(d24s8.is_float);

  const PixelFormat d16 = format_of(VK_FORMAT_D16_UNORM);
  EXPECT_EQ(d16.bytes, 2u);
  EXPECT_FALSE(d16.stencil);

  const PixelFormat d32s8 = format_of(VK_FORMAT_D32_SFLOAT_S8_UINT);
  EXPECT_EQ(d32s8.bytes, 4u);
  EXPECT_TRUE(d32s8.is_float && d32s8.depth && d32s8.stencil);

  const PixelFormat s8 = format_of(VK_FORMAT_S8_UINT);
  EXPECT_EQ(s8.bytes, 1u);
  EXPECT_TRUE(s8.stencil);
  EXPECT_FALSE(s8.depth);

  EXPECT_EQ(format_of(VK_FORMAT_A2B10G10R10_UNORM_PACK32).bytes, 4u);
  EXPECT_EQ(format_of(VK_FORMAT_R16G16B16A16_SFLOAT).bytes, 8u);
  EXPECT_EQ(format_of(VK_FORMAT_R32G32B32A32_SFLOAT).bytes, 16u);
  EXPECT_EQ(format_of(VK_FORMAT_B5G6R5_UNORM_PACK16).bytes, 2u);

  PixelFormat unsupported;
  unsupported.bytes = 99;
  EXPECT_FALSE(pixel_format(VK_FORMAT_BC1_RGBA_UNORM_BLOCK, &unsupported));
  EXPECT_EQ(unsupported.bytes, 0u);
  EXPECT_FALSE(pixel_format(VK_FORMAT_R8G8B8A8_USCALED, &unsupported));
  EXPECT_FALSE(pixel_format(VK_FORMAT_UNDEFINED, &unsupported));
  EXPECT_FALSE(pixel_format(VK_FORMAT_R8_UNORM, nullptr));
}

TEST(PixelFormat, Unorm8RoundTripsAll256Values) {
  const PixelFormat rgba8 = format_of(VK_FORMAT_R8G8B8A8_UNORM);
  for (uint32_t c = 0; c < 256; ++c) {
    const uint8_t in[4] = {static_cast<uint8_t>(c), static_cast<uint8_t>(255 - c), static_cast<uint8_t>(c), 7};
    float rgba[4];
    decode_color(rgba8, in, rgba);
    EXPECT_EQ(rgba[0], static_cast<float>(c) / 255.0f);
    uint8_t out[4] = {};
    encode_color(rgba8, rgba, out);
    EXPECT_EQ(std::memcmp(in, out, 4), 0) << c;
  }
}

TEST(PixelFormat, UnormEncodeRoundsToNearestAndClamps) {
  const PixelFormat r8 = format_of(VK_FORMAT_R8_UNORM);
  uint8_t out = 0;
  const float cases[][2] = {{0.5f, 128}, {0.498f, 127}, {-3.0f, 0}, {2.0f, 255}, {1.0f / 255.0f, 1}, {0.0019f, 0}};
  for (const auto& c : cases) {
    const float in[4] = {c[0], 0, 0, 1};
    encode_color(r8, in, &out);
    EXPECT_EQ(out, c[1]) << c[0];
  }
  const float nan[4] = {std::numeric_limits<float>::quiet_NaN(), 0, 0, 1};
  encode_color(r8, nan, &out);
  EXPECT_EQ(out, 0);
  // 0.5 * 65535 = 32767.5 -> 32768.
  const PixelFormat rgba16 = format_of(VK_FORMAT_R16G16B16A16_UNORM);
  const float half_grey[4] = {0.5f, 1.0f, 0.0f, 0.25f};
  uint8_t bytes[8] = {};
  encode_color(rgba16, half_grey, bytes);
  const uint8_t expected[8] = {0x00, 0x80, 0xff, 0xff, 0x00, 0x00, 0x00, 0x40};  // 0.25 -> 16383.75 -> 16384
  EXPECT_EQ(std::memcmp(bytes, expected, 8), 0);
}

TEST(PixelFormat, MissingComponentsDecodeAsZeroZeroOne) {
  const uint8_t r = 255;
  float rgba[4];
  decode_color(format_of(VK_FORMAT_R8_UNORM), &r, rgba);
  EXPECT_EQ(rgba[0], 1.0f);
  EXPECT_EQ(rgba[1], 0.0f);
  EXPECT_EQ(rgba[2], 0.0f);
  EXPECT_EQ(rgba[3], 1.0f);
  const uint8_t rg[2] = {0, 51};
  decode_color(format_of(VK_FORMAT_R8G8_UNORM), rg, rgba);
  EXPECT_EQ(rgba[1], 0.2f);
  EXPECT_EQ(rgba[3], 1.0f);
}

TEST(PixelFormat, SrgbEncodeKnownValues) {
  const PixelFormat srgb = format_of(VK_FORMAT_R8G8B8A8_SRGB);
  // OETF: 0.5 -> 1.055 * 0.5^(1/2.4) - 0.055 = 0.73536 -> 187.52 -> 188; 0.2 -> 0.48453 -> 123.56
  // -> 124; 0.001 (linear segment) -> 0.01292 -> 3.29 -> 3. Alpha is not encoded: 0.5 -> 128.
  const float in[4] = {0.5f, 0.2f, 0.001f, 0.5f};
  uint8_t out[4] = {};
  encode_color(srgb, in, out);
  EXPECT_EQ(out[0], 188);
  EXPECT_EQ(out[1], 124);
  EXPECT_EQ(out[2], 3);
  EXPECT_EQ(out[3], 128);
  const float ends[4] = {0.0f, 1.0f, -1.0f, 4.0f};
  encode_color(srgb, ends, out);
  EXPECT_EQ(out[0], 0);
  EXPECT_EQ(out[1], 255);
  EXPECT_EQ(out[2], 0);
  EXPECT_EQ(out[3], 255);
}

TEST(PixelFormat, SrgbDecodeKnownValuesAndRoundTrip) {
  const PixelFormat srgb = format_of(VK_FORMAT_B8G8R8A8_SRGB);
  // Memory B, G, R, A = 10, 188, 255, 188: R = 1, G = ((188/255 + 0.055) / 1.055)^2.4 = 0.50289,
  // B = 10/255/12.92 = 0.0030353 (linear segment), alpha linear 188/255.
  const uint8_t bytes[4] = {10, 188, 255, 188};
  float rgba[4];
  decode_color(srgb, bytes, rgba);
  EXPECT_FLOAT_EQ(rgba[0], 1.0f);
  EXPECT_NEAR(rgba[1], 0.502886, 1e-6);
  EXPECT_NEAR(rgba[2], 0.00303527, 1e-8);
  EXPECT_EQ(rgba[3], 188.0f / 255.0f);
  // Every 8-bit sRGB code survives decode + encode.
  const PixelFormat r8 = format_of(VK_FORMAT_R8_SRGB);
  for (uint32_t c = 0; c < 256; ++c) {
    const uint8_t in = static_cast<uint8_t>(c);
    uint8_t out = 0;
    decode_color(r8, &in, rgba);
    encode_color(r8, rgba, &out);
    EXPECT_EQ(out, in);
  }
}

TEST(PixelFormat, HalfFloatKnownBitPatterns) {
  EXPECT_EQ(float_to_half(1.0f), 0x3c00);
  EXPECT_EQ(float_to_half(-2.0f), 0xc000);
  EXPECT_EQ(float_to_half(0.0f), 0x0000);
  EXPECT_EQ(float_to_half(-0.0f), 0x8000);
  EXPECT_EQ(float_to_half(65504.0f), 0x7bff);  // largest finite half
  EXPECT_EQ(float_to_half(65519.0f), 0x7bff);  // below the halfway point to 65536
  EXPECT_EQ(float_to_half(65520.0f), 0x7c00);  // halfway, rounds to even = infinity
  EXPECT_EQ(float_to_half(1e10f), 0x7c00);
  EXPECT_EQ(float_to_half(std::numeric_limits<float>::infinity()), 0x7c00);
  EXPECT_EQ(float_to_half(-std::numeric_limits<float>::infinity()), 0xfc00);
  const uint16_t nan = float_to_half(std::numeric_limits<float>::quiet_NaN());
  EXPECT_EQ(nan & 0x7c00, 0x7c00);
  EXPECT_NE(nan & 0x03ff, 0);
  // A NaN whose payload is only in the low 13 bits stays NaN.
  EXPECT_NE(float_to_half(std::bit_cast<float>(0x7f800001u)) & 0x03ff, 0);
  EXPECT_EQ(float_to_half(0x1p-14f), 0x0400);  // smallest normal
  EXPECT_EQ(float_to_half(0x1p-24f), 0x0001);  // smallest subnormal
  EXPECT_EQ(float_to_half(0x1p-25f), 0x0000);  // halfway to 2^-24: ties to even (0)
  EXPECT_EQ(float_to_half(0x1.8p-24f), 0x0002);  // 1.5 ulp: ties to even (2)
  EXPECT_EQ(float_to_half(0x1.2p-25f), 0x0001);  // above halfway
  EXPECT_EQ(float_to_half(1.0f + 0x1p-11f), 0x3c00);  // tie between 0x3c00 and 0x3c01 -> even
  EXPECT_EQ(float_to_half(1.0f + 0x3p-11f), 0x3c02);  // tie between 0x3c01 and 0x3c02 -> even
  EXPECT_EQ(float_to_half(1.0f + 0x1.8p-11f), 0x3c01);  // above halfway
  EXPECT_EQ(float_to_half(0x1.ffcp-15f), 0x0400);  // subnormal rounding carries into the exponent
  EXPECT_EQ(float_to_half(1.0f / 3.0f), 0x3555);
  EXPECT_EQ(half_to_float(0x3555), 0.333251953125f);
  EXPECT_EQ(half_to_float(0x0001), 0x1p-24f);
  EXPECT_EQ(half_to_float(0x83ff), -0x3ffp-24f);
  EXPECT_EQ(half_to_float(0xfc00), -std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(half_to_float(0x7e00)));
  // Every non-NaN half survives half -> float -> half.
  for (uint32_t h = 0; h < 0x10000; ++h) {
    if ((h & 0x7c00) == 0x7c00 && (h & 0x03ff) != 0) continue;
    ASSERT_EQ(float_to_half(half_to_float(static_cast<uint16_t>(h))), h) << std::hex << h;
  }
}

TEST(PixelFormat, Rgba16FloatEncodeDecode) {
  const PixelFormat rgba16f = format_of(VK_FORMAT_R16G16B16A16_SFLOAT);
  const float in[4] = {1.0f, -2.0f, 70000.0f, 0.5f};
  uint8_t bytes[8] = {};
  encode_color(rgba16f, in, bytes);
  const uint8_t expected[8] = {0x00, 0x3c, 0x00, 0xc0, 0x00, 0x7c, 0x00, 0x38};
  EXPECT_EQ(std::memcmp(bytes, expected, 8), 0);
  float out[4];
  decode_color(rgba16f, bytes, out);
  EXPECT_EQ(out[0], 1.0f);
  EXPECT_EQ(out[1], -2.0f);
  EXPECT_EQ(out[2], std::numeric_limits<float>::infinity());
  EXPECT_EQ(out[3], 0.5f);
}

TEST(PixelFormat, Float32IsBitExact) {
  const PixelFormat rg32f = format_of(VK_FORMAT_R32G32_SFLOAT);
  const float in[4] = {-1.25e-30f, 3.0e38f, 9, 9};
  uint8_t bytes[8] = {};
  encode_color(rg32f, in, bytes);
  EXPECT_EQ(std::memcmp(bytes, in, 8), 0);
  float out[4];
  decode_color(rg32f, bytes, out);
  EXPECT_EQ(out[0], in[0]);
  EXPECT_EQ(out[1], in[1]);
  EXPECT_EQ(out[2], 0.0f);
  EXPECT_EQ(out[3], 1.0f);
}

TEST(PixelFormat, BgraAndPackedLayouts) {
  uint8_t bytes[4] = {};
  const float red[4] = {1, 0, 0, 1};
  encode_color(format_of(VK_FORMAT_B8G8R8A8_UNORM), red, bytes);
  const uint8_t bgra_red[4] = {0, 0, 255, 255};
  EXPECT_EQ(std::memcmp(bytes, bgra_red, 4), 0);

  // A2B10G10R10: R = 1023, G = 0, B = 0.5 * 1023 = 511.5 -> 512, A = 1 -> 3.
  const float rgba[4] = {1.0f, 0.0f, 0.5f, 1.0f};
  const PixelFormat a2b10 = format_of(VK_FORMAT_A2B10G10R10_UNORM_PACK32);
  encode_color(a2b10, rgba, bytes);
  EXPECT_EQ(word(bytes), 1023u | (512u << 20) | (3u << 30));
  float out[4];
  decode_color(a2b10, bytes, out);
  EXPECT_EQ(out[0], 1.0f);
  EXPECT_EQ(out[1], 0.0f);
  EXPECT_EQ(out[2], 512.0f / 1023.0f);
  EXPECT_EQ(out[3], 1.0f);
  // Alpha 1/3 of the 2-bit field.
  const uint32_t one_third_alpha = 1u << 30;
  const uint8_t le[4] = {0, 0, 0, static_cast<uint8_t>(one_third_alpha >> 24)};
  decode_color(a2b10, le, out);
  EXPECT_EQ(out[3], 1.0f / 3.0f);

  // B5G6R5: B in bits 11..15, G 5..10, R 0..4; R5G6B5 the other way round.
  uint8_t b565[2] = {};
  const float magenta[4] = {1, 0, 1, 1};
  encode_color(format_of(VK_FORMAT_B5G6R5_UNORM_PACK16), magenta, b565);
  EXPECT_EQ(b565[0] | (b565[1] << 8), 0xf81f);
  const float green_red[4] = {1, 1, 0, 1};
  encode_color(format_of(VK_FORMAT_R5G6B5_UNORM_PACK16), green_red, b565);
  EXPECT_EQ(b565[0] | (b565[1] << 8), 0xffe0);
  encode_color(format_of(VK_FORMAT_B5G6R5_UNORM_PACK16), green_red, b565);
  EXPECT_EQ(b565[0] | (b565[1] << 8), 0x07ff);
}

TEST(PixelFormat, SnormEncodeDecode) {
  const PixelFormat snorm = format_of(VK_FORMAT_R8G8B8A8_SNORM);
  const uint8_t in[4] = {0x80, 0x81, 0x7f, 0x00};
  float out[4];
  decode_color(snorm, in, out);
  EXPECT_EQ(out[0], -1.0f);
  EXPECT_EQ(out[1], -1.0f);
  EXPECT_EQ(out[2], 1.0f);
  EXPECT_EQ(out[3], 0.0f);
  // -1 -> -127 (0x81), never -128; -0.5 -> -63.5 -> -64 (0xc0); 2 clamps to 127.
  const float values[4] = {-1.0f, -0.5f, 2.0f, 0.25f};
  uint8_t bytes[4] = {};
  encode_color(snorm, values, bytes);
  EXPECT_EQ(bytes[0], 0x81);
  EXPECT_EQ(bytes[1], 0xc0);
  EXPECT_EQ(bytes[2], 0x7f);
  EXPECT_EQ(bytes[3], 32);  // 31.75 -> 32
}

TEST(PixelFormat, IntegerFormatsClampAndRound) {
  const PixelFormat r32ui = format_of(VK_FORMAT_R32_UINT);
  uint8_t bytes[4] = {};
  auto encode_u = [&](float v) {
    const float in[4] = {v, 0, 0, 1};
    encode_color(r32ui, in, bytes);
    return word(bytes);
  };
  EXPECT_EQ(encode_u(7.0f), 7u);
  EXPECT_EQ(encode_u(2.5f), 2u);  // ties to even
  EXPECT_EQ(encode_u(3.5f), 4u);
  EXPECT_EQ(encode_u(-1.0f), 0u);
  EXPECT_EQ(encode_u(5e9f), 0xffffffffu);
  EXPECT_EQ(encode_u(std::numeric_limits<float>::quiet_NaN()), 0u);
  float out[4];
  const uint8_t seven[4] = {7, 0, 0, 0};
  decode_color(r32ui, seven, out);
  EXPECT_EQ(out[0], 7.0f);
  EXPECT_EQ(out[3], 1.0f);

  const PixelFormat r32i = format_of(VK_FORMAT_R32_SINT);
  const float minus_three[4] = {-3.0f, 0, 0, 1};
  encode_color(r32i, minus_three, bytes);
  EXPECT_EQ(word(bytes), 0xfffffffdu);
  decode_color(r32i, bytes, out);
  EXPECT_EQ(out[0], -3.0f);
  const float huge[4] = {-1e20f, 0, 0, 1};
  encode_color(r32i, huge, bytes);
  EXPECT_EQ(word(bytes), 0x80000000u);

  const PixelFormat rgba8i = format_of(VK_FORMAT_R8G8B8A8_SINT);
  const float mixed[4] = {-200.0f, 200.0f, -5.0f, 127.0f};
  encode_color(rgba8i, mixed, bytes);
  EXPECT_EQ(word(bytes), 0x7ffb7f80u);
}

TEST(PixelFormat, DepthAspectBytes) {
  uint8_t bytes[4] = {0xff, 0xff, 0xff, 0xff};
  // D24: 0.5 * (2^24 - 1) = 8388607.5 -> 8388608 = 0x800000 in the low 24 bits, high byte 0.
  const PixelFormat d24s8 = format_of(VK_FORMAT_D24_UNORM_S8_UINT);
  encode_depth(d24s8, 0.5f, bytes);
  EXPECT_EQ(word(bytes), 0x800000u);
  EXPECT_EQ(decode_depth(d24s8, bytes), 8388608.0f / 16777215.0f);
  const PixelFormat x8d24 = format_of(VK_FORMAT_X8_D24_UNORM_PACK32);
  encode_depth(x8d24, 1.0f, bytes);
  EXPECT_EQ(word(bytes), 0xffffffu);
  // The undefined high byte does not leak into the depth.
  const uint8_t with_junk[4] = {0xff, 0xff, 0xff, 0xab};
  EXPECT_EQ(decode_depth(x8d24, with_junk), 1.0f);

  // D16: 0.5 -> 32767.5 -> 32768; out-of-range values clamp.
  const PixelFormat d16 = format_of(VK_FORMAT_D16_UNORM);
  uint8_t d16_bytes[2] = {};
  encode_depth(d16, 0.5f, d16_bytes);
  EXPECT_EQ(d16_bytes[0], 0x00);
  EXPECT_EQ(d16_bytes[1], 0x80);
  encode_depth(d16, 1.5f, d16_bytes);
  EXPECT_EQ(d16_bytes[0] | (d16_bytes[1] << 8), 0xffff);
  encode_depth(d16, -0.5f, d16_bytes);
  EXPECT_EQ(d16_bytes[0] | (d16_bytes[1] << 8), 0);

  // D32: the float itself.
  const PixelFormat d32 = format_of(VK_FORMAT_D32_SFLOAT);
  encode_depth(d32, 0.3f, bytes);
  EXPECT_EQ(word(bytes), std::bit_cast<uint32_t>(0.3f));
  EXPECT_EQ(decode_depth(d32, bytes), 0.3f);
  EXPECT_EQ(decode_depth(format_of(VK_FORMAT_D32_SFLOAT_S8_UINT), bytes), 0.3f);

  float rgba[4];
  encode_depth(d24s8, 0.5f, bytes);
  decode_color(d24s8, bytes, rgba);
  EXPECT_EQ(rgba[0], 8388608.0f / 16777215.0f);
  EXPECT_EQ(rgba[3], 1.0f);
}

TEST(PixelFormat, QuantizeDepth) {
  // 0.3f * 65535 = 19660.5008 -> 19661.
  EXPECT_EQ(quantize_depth(format_of(VK_FORMAT_D16_UNORM), 0.3f), 19661.0f / 65535.0f);
  EXPECT_EQ(quantize_depth(format_of(VK_FORMAT_D24_UNORM_S8_UINT), 0.5f), 8388608.0f / 16777215.0f);
  EXPECT_EQ(quantize_depth(format_of(VK_FORMAT_D24_UNORM_S8_UINT), 2.0f), 1.0f);
  EXPECT_EQ(quantize_depth(format_of(VK_FORMAT_D32_SFLOAT), 0.3f), 0.3f);
  // Two depths closer than one D16 step quantize to the same value (an EQUAL test passes).
  const PixelFormat d16 = format_of(VK_FORMAT_D16_UNORM);
  EXPECT_EQ(quantize_depth(d16, 0.5f), quantize_depth(d16, 0.500001f));
}

}  // namespace
}  // namespace tessera::pipeline
