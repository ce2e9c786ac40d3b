// Blending: every VkBlendFactor once (as source and as destination factor), the five core ops,
// separate colour/alpha state, disabled blending, the write mask, and the fixed-point clamp.
#include "tessera/pipeline/blend.h"

#include <gtest/gtest.h>
#include <vulkan/vulkan_core.h>

namespace tessera::pipeline {
namespace {

// Dyadic values: every product and sum below is exact in float.
constexpr float kSrc[4] = {0.5f, 0.25f, 0.75f, 0.375f};
constexpr float kSrc1[4] = {0.125f, 0.625f, 0.875f, 0.0625f};
constexpr float kDst[4] = {0.25f, 0.5f, 1.0f, 0.75f};
constexpr float kConstants[4] = {0.875f, 0.125f, 0.5f, 0.1875f};

struct FactorCase {
  VkBlendFactor factor;
  float value[4];  // the factor's value for R, G, B, A with the inputs above
};

// Spec "Blend Factors" table, evaluated by hand for kSrc, kSrc1, kDst, kConstants.
constexpr FactorCase kFactors[] = {
    {VK_BLEND_FACTOR_ZERO, {0, 0, 0, 0}},
    {VK_BLEND_FACTOR_ONE, {1, 1, 1, 1}},
    {VK_BLEND_FACTOR_SRC_COLOR, {0.5f, 0.25f, 0.75f, 0.375f}},
    {VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR, {0.5f, 0.75f, 0.25f, 0.625f}},
    {VK_BLEND_FACTOR_DST_COLOR, {0.25f, 0.5f, 1.0f, 0.75f}},
    {VK_BLEND_FACTOR_ONE_MINUS_DST_COLOR, {0.75f, 0.5f, 0.0f, 0.25f}},
    {VK_BLEND_FACTOR_SRC_ALPHA, {0.375f, 0.375f, 0.375f, 0.375f}},
    {VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA, {0.625f, 0.625f, 0.625f, 0.625f}},
    {VK_BLEND_FACTOR_DST_ALPHA, {0.75f, 0.75f, 0.75f, 0.75f}},
    {VK_BLEND_FACTOR_ONE_MINUS_DST_ALPHA, {0.25f, 0.25f, 0.25f, 0.25f}},
    {VK_BLEND_FACTOR_CONSTANT_COLOR, {0.875f, 0.125f, 0.5f, 0.1875f}},
    {VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_COLOR, {0.125f, 0.875f, 0.5f, 0.8125f}},
    {VK_BLEND_FACTOR_CONSTANT_ALPHA, {0.1875f, 0.1875f, 0.1875f, 0.1875f}},
    {VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_ALPHA, {0.8125f, 0.8125f, 0.8125f, 0.8125f}},
    // (f, f, f, 1), f = min(As, 1 - Ad) = min(0.375, 0.25).
    {VK_BLEND_FACTOR_SRC_ALPHA_SATURATE, {0.25f, 0.25f, 0.25f, 1.0f}},
    {VK_BLEND_FACTOR_SRC1_COLOR, {0.125f, 0.625f, 0.875f, 0.0625f}},
    {VK_BLEND_FACTOR_ONE_MINUS_SRC1_COLOR, {0.875f, 0.375f, 0.125f, 0.9375f}},
    {VK_BLEND_FACTOR_SRC1_ALPHA, {0.0625f, 0.0625f, 0.0625f, 0.0625f}},
    {VK_BLEND_FACTOR_ONE_MINUS_SRC1_ALPHA, {0.9375f, 0.9375f, 0.9375f, 0.9375f}},
};

BlendState state(VkBlendFactor src, VkBlendFactor dst, VkBlendOp op) {
  BlendState s;
  s.enable = true;
  s.src_color = s.src_alpha = src;
  s.dst_color = s.dst_alpha = dst;
  s.color_op = s.alpha_op = op;
  return s;
}

void run(const BlendState& s, float out[4]) {
  for (int i = 0; i < 4; ++i) out[i] = kDst[i];
  blend(s, kConstants, kSrc, kSrc1, out);
}

TEST(Blend, EveryFactorAsSourceFactor) {
  for (const FactorCase& c : kFactors) {
    float out[4];
    run(state(c.factor, VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD), out);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(out[i], kSrc[i] * c.value[i]) << "factor " << c.factor << " component " << i;
  }
}

TEST(Blend, EveryFactorAsDestinationFactor) {
  for (const FactorCase& c : kFactors) {
    float out[4];
    run(state(VK_BLEND_FACTOR_ZERO, c.factor, VK_BLEND_OP_ADD), out);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(out[i], kDst[i] * c.value[i]) << "factor " << c.factor << " component " << i;
  }
}

TEST(Blend, Operations) {
  float out[4];
  // SRC_ALPHA / ONE_MINUS_SRC_ALPHA: S * 0.375 + D * 0.625.
  run(state(VK_BLEND_FACTOR_SRC_ALPHA, VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA, VK_BLEND_OP_ADD), out);
  EXPECT_EQ(out[0], 0.34375f);  // 0.1875 + 0.15625
  EXPECT_EQ(out[2], 0.90625f);  // 0.28125 + 0.625
  run(state(VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_SRC_ALPHA, VK_BLEND_OP_SUBTRACT), out);
  EXPECT_EQ(out[0], 0.40625f);  // 0.5 - 0.25 * 0.375
  EXPECT_EQ(out[2], 0.375f);    // 0.75 - 0.375
  run(state(VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_SRC_ALPHA, VK_BLEND_OP_REVERSE_SUBTRACT), out);
  EXPECT_EQ(out[0], -0.40625f);
  EXPECT_EQ(out[3], -0.09375f);  // 0.75 * 0.375 - 0.375
  // MIN / MAX ignore the factors (ZERO would otherwise give 0).
  run(state(VK_BLEND_FACTOR_ZERO, VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_MIN), out);
  EXPECT_EQ(out[0], 0.25f);
  EXPECT_EQ(out[1], 0.25f);
  EXPECT_EQ(out[2], 0.75f);
  EXPECT_EQ(out[3], 0.375f);
  run(state(VK_BLEND_FACTOR_ZERO, VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_MAX), out);
  EXPECT_EQ(out[0], 0.5f);
  EXPECT_EQ(out[1], 0.5f);
  EXPECT_EQ(out[2], 1.0f);
  EXPECT_EQ(out[3], 0.75f);
}

TEST(Blend, SeparateColourAndAlphaState) {
  BlendState s = state(VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE, VK_BLEND_OP_ADD);
  s.src_alpha = VK_BLEND_FACTOR_ZERO;
  s.dst_alpha = VK_BLEND_FACTOR_ONE;
  float out[4];
  run(s, out);
  EXPECT_EQ(out[0], 0.75f);
  EXPECT_EQ(out[1], 0.75f);
  EXPECT_EQ(out[2], 1.75f);
  EXPECT_EQ(out[3], 0.75f);  // alpha keeps the destination
  s.alpha_op = VK_BLEND_OP_MIN;
  run(s, out);
  EXPECT_EQ(out[0], 0.75f);
  EXPECT_EQ(out[3], 0.375f);
}

TEST(Blend, DisabledWritesSourceAndWriteMaskKeepsDestination) {
  BlendState s;  // disabled, all components written
  float out[4];
  run(s, out);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(out[i], kSrc[i]);
  s.write_mask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_B_BIT;
  run(s, out);
  EXPECT_EQ(out[0], kSrc[0]);
  EXPECT_EQ(out[1], kDst[1]);
  EXPECT_EQ(out[2], kSrc[2]);
  EXPECT_EQ(out[3], kDst[3]);
  BlendState enabled = state(VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE, VK_BLEND_OP_ADD);
  enabled.write_mask = VK_COLOR_COMPONENT_A_BIT;
  run(enabled, out);
  EXPECT_EQ(out[0], kDst[0]);
  EXPECT_EQ(out[2], kDst[2]);
  EXPECT_EQ(out[3], 1.125f);
  enabled.write_mask = 0;
  run(enabled, out);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(out[i], kDst[i]);
}

TEST(Blend, FixedPointAttachmentsClampInputsAndFactors) {
  const float constants[4] = {0, 0, 0, 0};
  const float src[4] = {1.5f, -0.5f, -2.0f, 0.5f};
  const float src1[4] = {0, 0, 0, 0};
  const BlendState add = state(VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE, VK_BLEND_OP_ADD);
  float dst[4] = {0.25f, 0.25f, 0.25f, 0.25f};
  blend_normalized(add, BlendRange::Unorm, constants, src, src1, dst);
  EXPECT_EQ(dst[0], 1.25f);  // source clamped to 1 first
  EXPECT_EQ(dst[1], 0.25f);  // -0.5 clamped to 0
  // SNORM: ONE_MINUS_SRC_COLOR of -1 is 2, clamped to 1; the source -2 clamps to -1.
  const BlendState inv = state(VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR, VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD);
  float snorm_dst[4] = {0, 0, 0, 0};
  blend_normalized(inv, BlendRange::Snorm, constants, src, src1, snorm_dst);
  EXPECT_EQ(snorm_dst[2], -1.0f);
  // Unbounded (float attachments) is blend() itself: no clamp.
  float float_dst[4] = {0, 0, 0, 0};
  blend_normalized(inv, BlendRange::Unbounded, constants, src, src1, float_dst);
  EXPECT_EQ(float_dst[2], -6.0f);  // -2 * (1 - -2)
}

TEST(Blend, SupportedStates) {
  EXPECT_TRUE(blend_state_supported(state(VK_BLEND_FACTOR_ONE_MINUS_SRC1_ALPHA, VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_MAX)));
  BlendState bad_factor = state(VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE, VK_BLEND_OP_ADD);
  bad_factor.dst_alpha = 19;
  EXPECT_FALSE(blend_state_supported(bad_factor));
  EXPECT_FALSE(blend_state_supported(state(VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE, VK_BLEND_OP_MULTIPLY_EXT)));
}

}  // namespace
}  // namespace tessera::pipeline
