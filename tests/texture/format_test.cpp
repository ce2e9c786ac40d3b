// Texel decode: sRGB EOTF, half floats, BGRA order, BC1/BC2/BC3 blocks built by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "tessera/texture/format.h"

using namespace tessera::texture;

namespace {

FormatInfo info_of(VkFormat f) {
  FormatInfo info;
  EXPECT_TRUE(format_info(f, &info));
  return info;
}

void put16(uint8_t* p, uint16_t v) {
  p[0] = static_cast<uint8_t>(v & 0xFF);
  p[1] = static_cast<uint8_t>(v >> 8);
}

// BC1 colour block: two RGB565 endpoints and sixteen 2-bit indices, texel t at bits 2t.
void bc1_block(uint8_t* b, uint16_t c0, uint16_t c1, const int idx[16]) {
  put16(b, c0);
  put16(b + 2, c1);
  uint32_t bits = 0;
  for (int t = 0; t < 16; ++t) bits |= static_cast<uint32_t>(idx[t]) << (2 * t);
  std::memcpy(b + 4, &bits, 4);
}

}  // namespace

TEST(Format, SrgbDecodeOfKnownValues) {
  // 0xBC = 188: ((188/255 + 0.055) / 1.055)^2.4 = 0.50289.
  EXPECT_NEAR(srgb_to_linear(188.0f / 255.0f), 0.5029f, 5e-5f);
  // Linear segment below 0.04045: c / 12.92.
  EXPECT_FLOAT_EQ(srgb_to_linear(10.0f / 255.0f), (10.0f / 255.0f) / 12.92f);
  EXPECT_FLOAT_EQ(srgb_to_linear(1.0f), 1.0f);
  EXPECT_FLOAT_EQ(srgb_to_linear(0.0f), 0.0f);
  const uint8_t texel[4] = {0xBC, 0xBC, 0x0A, 0xBC};
  const Rgba c = decode_texel(info_of(VK_FORMAT_R8G8B8A8_SRGB), texel);
  EXPECT_NEAR(c[0], 0.50289f, 5e-5f);
  EXPECT_FLOAT_EQ(c[2], (10.0f / 255.0f) / 12.92f);
  EXPECT_FLOAT_EQ(c[3], 188.0f / 255.0f);  // alpha is never sRGB-encoded
}

TEST(Format, UnormChannelsAndMissingComponents) {
  const uint8_t bgra[4] = {10, 20, 30, 40};
  const Rgba c = decode_texel(info_of(VK_FORMAT_B8G8R8A8_UNORM), bgra);
  EXPECT_FLOAT_EQ(c[0], 30.0f / 255.0f);
  EXPECT_FLOAT_EQ(c[1], 20.0f / 255.0f);
  EXPECT_FLOAT_EQ(c[2], 10.0f / 255.0f);
  EXPECT_FLOAT_EQ(c[3], 40.0f / 255.0f);
  const uint8_t rg[2] = {255, 51};
  const Rgba d = decode_texel(info_of(VK_FORMAT_R8G8_UNORM), rg);
  EXPECT_FLOAT_EQ(d[0], 1.0f);
  EXPECT_FLOAT_EQ(d[1], 0.2f);
  EXPECT_FLOAT_EQ(d[2], 0.0f);
  EXPECT_FLOAT_EQ(d[3], 1.0f);
}

TEST(Format, HalfAndFloat) {
  EXPECT_EQ(half_to_float(0x3C00), 1.0f);
  EXPECT_EQ(half_to_float(0xC000), -2.0f);
  EXPECT_EQ(half_to_float(0x3800), 0.5f);
  EXPECT_EQ(half_to_float(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(half_to_float(0x7BFF), 65504.0f);
  EXPECT_TRUE(std::isinf(half_to_float(0x7C00)));
  const uint16_t rgba16[4] = {0x3C00, 0x3800, 0xC000, 0x0000};
  uint8_t bytes[8];
  std::memcpy(bytes, rgba16, 8);
  const Rgba c = decode_texel(info_of(VK_FORMAT_R16G16B16A16_SFLOAT), bytes);
  EXPECT_EQ(c[0], 1.0f);
  EXPECT_EQ(c[1], 0.5f);
  EXPECT_EQ(c[2], -2.0f);
  EXPECT_EQ(c[3], 0.0f);
  // R32_UINT keeps the exact integer (beyond float precision) as a bit pattern.
  const uint32_t big = 0xFFFFFFF1u;
  uint8_t ub[4];
  std::memcpy(ub, &big, 4);
  const Rgba u = decode_texel(info_of(VK_FORMAT_R32_UINT), ub);
  uint32_t r = 0, a = 0;
  std::memcpy(&r, &u[0], 4);
  std::memcpy(&a, &u[3], 4);
  EXPECT_EQ(r, big);
  EXPECT_EQ(a, 1u);
  const float f = 3.25f;
  uint8_t fb[4];
  std::memcpy(fb, &f, 4);
  EXPECT_EQ(decode_texel(info_of(VK_FORMAT_R32_SFLOAT), fb)[0], 3.25f);
}

TEST(Format, Bc1FourColorMode) {
  // c0 = pure red (0xF800) > c1 = pure blue (0x001F): four colours, c2 = (2c0+c1)/3, c3 = (c0+2c1)/3.
  int idx[16] = {0, 1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3};
  uint8_t block[8];
  bc1_block(block, 0xF800, 0x001F, idx);
  Rgba out[16];
  decode_bc_block(info_of(VK_FORMAT_BC1_RGBA_UNORM_BLOCK), block, out);
  const Rgba expect[4] = {{1, 0, 0, 1}, {0, 0, 1, 1}, {2.0f / 3, 0, 1.0f / 3, 1}, {1.0f / 3, 0, 2.0f / 3, 1}};
  for (int t = 0; t < 16; ++t)
    for (int k = 0; k < 4; ++k) EXPECT_NEAR(out[t][k], expect[idx[t]][k], 1e-6f) << "texel " << t << " channel " << k;
}

TEST(Format, Bc1ThreeColorPlusTransparentMode) {
  // c0 = 0x8410 (r=16, g=32, b=16) <= c1 = 0xFFFF: three colours + transparent black (index 3).
  int idx[16] = {3, 2, 1, 0, 3, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1};
  uint8_t block[8];
  bc1_block(block, 0x8410, 0xFFFF, idx);
  const Rgba e0 = {16.0f / 31, 32.0f / 63, 16.0f / 31, 1};
  const Rgba e1 = {1, 1, 1, 1};
  const Rgba e2 = {(e0[0] + 1) / 2, (e0[1] + 1) / 2, (e0[2] + 1) / 2, 1};
  Rgba out[16];
  decode_bc_block(info_of(VK_FORMAT_BC1_RGBA_UNORM_BLOCK), block, out);
  const Rgba expect_rgba[4] = {e0, e1, e2, {0, 0, 0, 0}};
  for (int t = 0; t < 16; ++t)
    for (int k = 0; k < 4; ++k) EXPECT_NEAR(out[t][k], expect_rgba[idx[t]][k], 1e-6f) << "texel " << t;
  // BC1_RGB has no alpha: index 3 is opaque black.
  decode_bc_block(info_of(VK_FORMAT_BC1_RGB_UNORM_BLOCK), block, out);
  EXPECT_EQ(out[0][3], 1.0f);
  EXPECT_EQ(out[0][0], 0.0f);
  // sRGB variant linearises the colour, not the alpha.
  decode_bc_block(info_of(VK_FORMAT_BC1_RGBA_SRGB_BLOCK), block, out);
  EXPECT_NEAR(out[3][0], std::pow((16.0f / 31 + 0.055f) / 1.055f, 2.4f), 1e-6f);
  EXPECT_EQ(out[0][3], 0.0f);
}

TEST(Format, Bc2ExplicitAlphaAndBc3InterpolatedAlpha) {
  int idx[16] = {};
  uint8_t bc2[16] = {};
  // 4-bit alpha of texel t at bits 4t: texel 0 = 0, texel 1 = 15, texel 2 = 5.
  bc2[0] = 0xF0;
  bc2[1] = 0x05;
  // Colour half: c0 <= c1 must still decode in four-colour mode for BC2.
  bc1_block(bc2 + 8, 0x001F, 0xF800, idx);
  Rgba out[16];
  decode_bc_block(info_of(VK_FORMAT_BC2_UNORM_BLOCK), bc2, out);
  EXPECT_EQ(out[0][3], 0.0f);
  EXPECT_EQ(out[1][3], 1.0f);
  EXPECT_FLOAT_EQ(out[2][3], 5.0f / 15.0f);
  EXPECT_EQ(out[0][2], 1.0f);  // index 0 = c0 = blue

  // BC3 with a0 = 255 > a1 = 0: eight values, index i (2..7) = ((8-i) a0 + (i-1) a1) / 7.
  uint8_t bc3[16] = {};
  bc3[0] = 255;
  bc3[1] = 0;
  // 3-bit indices: texel 0 -> 2, texel 1 -> 7, texel 2 -> 1.
  const uint64_t bits = 2u | (7u << 3) | (1u << 6);
  for (int i = 0; i < 6; ++i) bc3[2 + i] = static_cast<uint8_t>(bits >> (8 * i));
  bc1_block(bc3 + 8, 0xF800, 0x001F, idx);
  decode_bc_block(info_of(VK_FORMAT_BC3_UNORM_BLOCK), bc3, out);
  EXPECT_FLOAT_EQ(out[0][3], 6.0f / 7.0f);
  EXPECT_FLOAT_EQ(out[1][3], 1.0f / 7.0f);
  EXPECT_EQ(out[2][3], 0.0f);
  EXPECT_EQ(out[3][3], 1.0f);  // index 0 = a0
  // a0 = 0 <= a1 = 255: six values, index 6 = 0, index 7 = 1, index 2 = (4 a0 + a1) / 5.
  bc3[0] = 0;
  bc3[1] = 255;
  const uint64_t bits2 = 2u | (6u << 3) | (7u << 6);
  for (int i = 0; i < 6; ++i) bc3[2 + i] = static_cast<uint8_t>(bits2 >> (8 * i));
  decode_bc_block(info_of(VK_FORMAT_BC3_UNORM_BLOCK), bc3, out);
  EXPECT_FLOAT_EQ(out[0][3], 0.2f);
  EXPECT_EQ(out[1][3], 0.0f);
  EXPECT_EQ(out[2][3], 1.0f);
}

TEST(Format, UnsupportedFormatIsRejected) {
  FormatInfo info;
  EXPECT_FALSE(format_info(VK_FORMAT_R8G8B8_UNORM, &info));
  EXPECT_TRUE(format_info(VK_FORMAT_BC3_SRGB_BLOCK, &info));
  EXPECT_EQ(info.block_bytes, 16u);
  EXPECT_TRUE(info.srgb);
  EXPECT_TRUE(format_info(VK_FORMAT_R8G8B8A8_UNORM, &info));
  EXPECT_EQ(info.block_bytes, 64u);  // one 4x4 RGBA8 block = one 64 B line
}

TEST(Format, SnormSixteenBitIntegerAndPackedFormats) {
  // SNORM: max(c / (2^(b-1) - 1), -1); -128 and -127 both read -1.
  const uint8_t s8[4] = {127, 0x81, 0x80, 64};
  const Rgba s = decode_texel(info_of(VK_FORMAT_R8G8B8A8_SNORM), s8);
  EXPECT_EQ(s[0], 1.0f);
  EXPECT_EQ(s[1], -1.0f);
  EXPECT_EQ(s[2], -1.0f);
  EXPECT_FLOAT_EQ(s[3], 64.0f / 127.0f);
  uint8_t r16[4];
  put16(r16, 65535);
  put16(r16 + 2, 0x8001);  // -32767 -> -1
  const Rgba u = decode_texel(info_of(VK_FORMAT_R16G16_UNORM), r16);
  EXPECT_EQ(u[0], 1.0f);
  EXPECT_FLOAT_EQ(u[1], 32769.0f / 65535.0f);
  EXPECT_EQ(u[3], 1.0f);
  EXPECT_EQ(decode_texel(info_of(VK_FORMAT_R16G16_SNORM), r16)[1], -1.0f);
  // SINT components narrower than 32 bits are sign-extended; missing alpha is the integer 1.
  const uint8_t i8[2] = {0xFE, 5};
  const Rgba i = decode_texel(info_of(VK_FORMAT_R8G8_SINT), i8);
  int32_t bits[4];
  std::memcpy(bits, i.data(), 16);
  EXPECT_EQ(bits[0], -2);
  EXPECT_EQ(bits[1], 5);
  EXPECT_EQ(bits[2], 0);
  EXPECT_EQ(bits[3], 1);
  // R5G6B5: R in the top 5 bits. 0xF81F = R 31, G 0, B 31.
  uint8_t p16[2];
  put16(p16, 0xF81F);
  const Rgba rgb = decode_texel(info_of(VK_FORMAT_R5G6B5_UNORM_PACK16), p16);
  EXPECT_EQ(rgb[0], 1.0f);
  EXPECT_EQ(rgb[1], 0.0f);
  EXPECT_EQ(rgb[2], 1.0f);
  EXPECT_EQ(rgb[3], 1.0f);
  // R4G4B4A4: 0x1234 = R 1, G 2, B 3, A 4 (fifteenths).
  put16(p16, 0x1234);
  const Rgba r4 = decode_texel(info_of(VK_FORMAT_R4G4B4A4_UNORM_PACK16), p16);
  EXPECT_FLOAT_EQ(r4[0], 1.0f / 15);
  EXPECT_FLOAT_EQ(r4[3], 4.0f / 15);
  // A2B10G10R10: R in the low 10 bits, A in the top 2.
  const uint32_t a2 = (3u << 30) | (0u << 20) | (1023u << 10) | 512u;
  uint8_t p32[4];
  std::memcpy(p32, &a2, 4);
  const Rgba ten = decode_texel(info_of(VK_FORMAT_A2B10G10R10_UNORM_PACK32), p32);
  EXPECT_FLOAT_EQ(ten[0], 512.0f / 1023);
  EXPECT_EQ(ten[1], 1.0f);
  EXPECT_EQ(ten[2], 0.0f);
  EXPECT_EQ(ten[3], 1.0f);
  // B10G11R11_UFLOAT: 5-bit exponent (bias 15); R = 1.0 (e 15, m 0), G = 0.5 (e 14), B = 2.0 (e 16).
  const uint32_t f11 = (16u << 5) << 22 | (14u << 6) << 11 | (15u << 6);
  std::memcpy(p32, &f11, 4);
  const Rgba small = decode_texel(info_of(VK_FORMAT_B10G11R11_UFLOAT_PACK32), p32);
  EXPECT_EQ(small[0], 1.0f);
  EXPECT_EQ(small[1], 0.5f);
  EXPECT_EQ(small[2], 2.0f);
  // E5B9G9R9: mantissa * 2^(E - 24); E = 24 makes the mantissas integers.
  const uint32_t e9 = (24u << 27) | (3u << 18) | (2u << 9) | 1u;
  std::memcpy(p32, &e9, 4);
  const Rgba shared = decode_texel(info_of(VK_FORMAT_E5B9G9R9_UFLOAT_PACK32), p32);
  EXPECT_EQ(shared[0], 1.0f);
  EXPECT_EQ(shared[1], 2.0f);
  EXPECT_EQ(shared[2], 3.0f);
  EXPECT_EQ(shared[3], 1.0f);
}

TEST(Format, Bc4AndBc5Channels) {
  // BC4 UNORM: endpoints 255 > 0, indices texel 0 -> 0, texel 1 -> 2 ((6 * 255 + 0) / 7).
  uint8_t bc4[8] = {255, 0, 0, 0, 0, 0, 0, 0};
  bc4[2] = static_cast<uint8_t>(2u << 3);
  Rgba out[16];
  decode_bc_block(info_of(VK_FORMAT_BC4_UNORM_BLOCK), bc4, out);
  EXPECT_EQ(out[0][0], 1.0f);
  EXPECT_FLOAT_EQ(out[1][0], 6.0f / 7.0f);
  EXPECT_EQ(out[1][1], 0.0f);
  EXPECT_EQ(out[1][3], 1.0f);
  // BC4 SNORM: endpoints -127 (0x81) <= 127 -> six values plus -1 (index 6) and 1 (index 7).
  uint8_t sn[8] = {0x81, 127, 0, 0, 0, 0, 0, 0};
  sn[2] = static_cast<uint8_t>(6u | (7u << 3));
  decode_bc_block(info_of(VK_FORMAT_BC4_SNORM_BLOCK), sn, out);
  EXPECT_EQ(out[0][0], -1.0f);
  EXPECT_EQ(out[1][0], 1.0f);
  EXPECT_EQ(out[2][0], -1.0f);  // index 0 = red_0
  // BC5: two BC4 blocks, red then green.
  uint8_t bc5[16] = {0, 255, 0, 0, 0, 0, 0, 0, 255, 0, 0, 0, 0, 0, 0, 0};
  decode_bc_block(info_of(VK_FORMAT_BC5_UNORM_BLOCK), bc5, out);
  EXPECT_EQ(out[5][0], 0.0f);
  EXPECT_EQ(out[5][1], 1.0f);
  EXPECT_EQ(out[5][2], 0.0f);
  EXPECT_EQ(info_of(VK_FORMAT_BC5_UNORM_BLOCK).components, 2u);
  EXPECT_EQ(info_of(VK_FORMAT_BC1_RGB_UNORM_BLOCK).components, 3u);
}
