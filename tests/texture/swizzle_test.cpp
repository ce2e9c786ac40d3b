// Image view component swizzle (Vulkan spec "Component Swizzle"): applied after "Conversion to
// RGBA" (missing G, B read 0, missing A reads one) for every format the texture unit decodes,
// on samples, fetches and gathers; ZERO and ONE are exact, ONE is the integer 1 for integer
// formats. This is how GL luminance / alpha / intensity textures reach Vulkan through Zink.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "tessera/texture/sampler.h"

using namespace tessera::texture;

namespace {

constexpr uint32_t I = VK_COMPONENT_SWIZZLE_IDENTITY, Z = VK_COMPONENT_SWIZZLE_ZERO, O = VK_COMPONENT_SWIZZLE_ONE;
constexpr uint32_t R = VK_COMPONENT_SWIZZLE_R, G = VK_COMPONENT_SWIZZLE_G, B = VK_COMPONENT_SWIZZLE_B,
                   A = VK_COMPONENT_SWIZZLE_A;

// A 2x1 texture of `format` whose two texels are `texel_bytes` bytes each from `data`.
Texture texture(VkFormat format, const void* data, size_t bytes, std::array<uint32_t, 4> swizzle) {
  Texture tex;
  std::string error;
  EXPECT_TRUE(tex.create(format, 2, 1, 1, 1, 0x10000, &error)) << error;
  EXPECT_TRUE(tex.upload(0, 0, data, bytes, &error)) << error;
  tex.set_swizzle(swizzle.data());
  return tex;
}

// Texel 0 through a NEAREST sample.
Rgba texel0(const Texture& tex) {
  SampleRequest r;
  r.s = 0.25f;
  r.t = 0.5f;
  r.explicit_lod = true;
  return sample(tex, SamplerState{}, r, nullptr);
}

void expect_rgba(const Rgba& got, Rgba want, const char* what) {
  for (int k = 0; k < 4; ++k) EXPECT_EQ(got[k], want[k]) << what << " channel " << k;
}

}  // namespace

TEST(Swizzle, R8EveryMappingIncludingZeroAndOne) {
  const uint8_t r8[2] = {51, 204};
  const float v = 51.0f / 255.0f;
  expect_rgba(texel0(texture(VK_FORMAT_R8_UNORM, r8, 2, {I, I, I, I})), {v, 0, 0, 1}, "identity");
  expect_rgba(texel0(texture(VK_FORMAT_R8_UNORM, r8, 2, {R, G, B, A})), {v, 0, 0, 1}, "explicit identity");
  expect_rgba(texel0(texture(VK_FORMAT_R8_UNORM, r8, 2, {R, R, R, O})), {v, v, v, 1}, "GL luminance");
  expect_rgba(texel0(texture(VK_FORMAT_R8_UNORM, r8, 2, {Z, Z, Z, R})), {0, 0, 0, v}, "GL alpha");
  expect_rgba(texel0(texture(VK_FORMAT_R8_UNORM, r8, 2, {R, R, R, R})), {v, v, v, v}, "GL intensity");
  // Missing components after "Conversion to RGBA": G = B = 0, A = 1.
  expect_rgba(texel0(texture(VK_FORMAT_R8_UNORM, r8, 2, {O, Z, A, G})), {1, 0, 1, 0}, "one, zero, A, G");
  expect_rgba(texel0(texture(VK_FORMAT_R8_UNORM, r8, 2, {B, A, Z, O})), {0, 1, 0, 1}, "B, A, zero, one");
}

TEST(Swizzle, TwoChannelSixteenBitFloatAndSrgbFormats) {
  const uint8_t rg8[4] = {51, 102, 0, 0};
  expect_rgba(texel0(texture(VK_FORMAT_R8G8_UNORM, rg8, 4, {R, R, R, G})),
              {51.0f / 255, 51.0f / 255, 51.0f / 255, 102.0f / 255}, "GL luminance-alpha");
  expect_rgba(texel0(texture(VK_FORMAT_R8G8_UNORM, rg8, 4, {G, Z, O, R})), {102.0f / 255, 0, 1, 51.0f / 255}, "rg8");
  const uint16_t r16[2] = {13107, 0};  // 13107 / 65535 = 0.2
  expect_rgba(texel0(texture(VK_FORMAT_R16_UNORM, r16, 4, {R, R, R, O})), {0.2f, 0.2f, 0.2f, 1}, "r16");
  const uint16_t rg16[4] = {65535, 32768, 0, 0};
  expect_rgba(texel0(texture(VK_FORMAT_R16G16_UNORM, rg16, 8, {G, R, Z, G})),
              {32768.0f / 65535, 1, 0, 32768.0f / 65535}, "rg16");
  const uint16_t rg16f[4] = {0x3800, 0xC000, 0, 0};  // 0.5, -2
  expect_rgba(texel0(texture(VK_FORMAT_R16G16_SFLOAT, rg16f, 8, {G, R, O, Z})), {-2, 0.5f, 1, 0}, "rg16f");
  const float r32f[2] = {3.25f, 0};
  expect_rgba(texel0(texture(VK_FORMAT_R32_SFLOAT, r32f, 8, {Z, O, R, O})), {0, 1, 3.25f, 1}, "r32f");
  const uint8_t srgb[2] = {0xBC, 0};
  const float lin = srgb_to_linear(188.0f / 255.0f);
  expect_rgba(texel0(texture(VK_FORMAT_R8_SRGB, srgb, 2, {R, R, R, O})), {lin, lin, lin, 1}, "r8 srgb");
}

TEST(Swizzle, BlockCompressedDepthAndIntegerFormats) {
  // BC4 block: red endpoints 255 and 0, all indices 0 -> every texel R = 1 (G = B = 0, A = 1).
  Texture bc4;
  std::string error;
  ASSERT_TRUE(bc4.create(VK_FORMAT_BC4_UNORM_BLOCK, 4, 4, 1, 1, 0, &error)) << error;
  const uint8_t block[8] = {255, 0, 0, 0, 0, 0, 0, 0};
  ASSERT_TRUE(bc4.upload(0, 0, block, 8, &error)) << error;
  const uint32_t lum[4] = {R, R, R, O}, bgra[4] = {B, G, R, A};
  bc4.set_swizzle(lum);
  expect_rgba(texel0(bc4), {1, 1, 1, 1}, "bc4 luminance");
  bc4.set_swizzle(bgra);
  expect_rgba(texel0(bc4), {0, 0, 1, 1}, "bc4 bgra");

  // D16 sampled as a luminance texture (GL_DEPTH_TEXTURE_MODE LUMINANCE) and with depth compare:
  // the compare result replaces D before the swizzle.
  const uint16_t d16[2] = {32768, 0};
  const Texture depth = texture(VK_FORMAT_D16_UNORM, d16, 4, {R, R, R, O});
  const float d = 32768.0f / 65535;
  expect_rgba(texel0(depth), {d, d, d, 1}, "d16");
  SamplerState cmp;
  cmp.compare_enable = true;
  cmp.compare_op = VK_COMPARE_OP_LESS;
  SampleRequest r;
  r.s = 0.25f;
  r.t = 0.5f;
  r.explicit_lod = true;
  r.has_dref = true;
  r.dref = 0.25f;  // 0.25 < 0.50001: passes
  expect_rgba(sample(depth, cmp, r, nullptr), {1, 1, 1, 1}, "d16 compare");

  // Integer formats: ONE is the integer 1, components stay bit patterns.
  const uint32_t u32[2] = {0xFFFFFFF0u, 7};
  const Texture integer = texture(VK_FORMAT_R32_UINT, u32, 8, {O, R, Z, R});
  const Rgba c = fetch(integer, 0, 0, 0, 0, nullptr);
  uint32_t bits[4];
  std::memcpy(bits, c.data(), 16);
  EXPECT_EQ(bits[0], 1u);
  EXPECT_EQ(bits[1], 0xFFFFFFF0u);
  EXPECT_EQ(bits[2], 0u);
  EXPECT_EQ(bits[3], 0xFFFFFFF0u);
}

TEST(Swizzle, FilteringGatherAndBorderSeeTheSwizzledTexels) {
  const uint8_t r8[2] = {0, 255};
  const Texture alpha = texture(VK_FORMAT_R8_UNORM, r8, 2, {Z, Z, Z, R});
  SamplerState linear;
  linear.mag_filter = linear.min_filter = VK_FILTER_LINEAR;
  linear.address_u = linear.address_v = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  SampleRequest r;
  r.s = 0.375f;  // u = 0.75: texel 0 weighted 0.75, texel 1 0.25
  r.t = 0.5f;
  r.explicit_lod = true;
  expect_rgba(sample(alpha, linear, r, nullptr), {0, 0, 0, 0.25f}, "filtered alpha");
  const Texture lum = texture(VK_FORMAT_R8_UNORM, r8, 2, {R, R, R, O});
  expect_rgba(sample(lum, linear, r, nullptr), {0.25f, 0.25f, 0.25f, 1}, "filtered luminance (ONE exact)");
  // Gather takes the requested component of the swizzled texels: alpha of a GL alpha texture is
  // the R texel; its red is ZERO. Order (i0,j1), (i1,j1), (i1,j0), (i0,j0) on a one-row texture
  // with clamp to edge: both rows are row 0.
  r.s = 0.5f;
  expect_rgba(gather(alpha, linear, r, 3, nullptr), {0, 1, 1, 0}, "gather alpha");
  expect_rgba(gather(alpha, linear, r, 0, nullptr), {0, 0, 0, 0}, "gather red (ZERO)");
  expect_rgba(gather(lum, linear, r, 3, nullptr), {1, 1, 1, 1}, "gather alpha (ONE)");
  // Border texels go through the swizzle too: R8 with OPAQUE_WHITE is (1, 0, 0, 1) after
  // "Texel Replacement", so a luminance view reads (1, 1, 1, 1) and an alpha view (0, 0, 0, 1).
  SamplerState border;
  border.address_u = border.address_v = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
  border.border_color = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE;
  r.s = 2.0f;
  expect_rgba(sample(lum, border, r, nullptr), {1, 1, 1, 1}, "border luminance");
  expect_rgba(sample(alpha, border, r, nullptr), {0, 0, 0, 1}, "border alpha");
}
