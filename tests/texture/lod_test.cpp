// The LOD rules of lavapipe (Mesa gallivm lp_bld_sample.c, lp_bld_sample_soa.c) that
// select_lod, query_lod and the anisotropic sampler follow (replay/texture/README.md, "LOD
// selection"), on constructed derivatives. Every expected value is worked out by hand in the
// comment beside it from the rule, not from the implementation.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "tessera/texture/sampler.h"

using namespace tessera::texture;

namespace {

// A 256x256 RGBA8 texture with its 9 levels (contents unused by the LOD tests).
Texture chain_256() {
  Texture tex;
  std::string error;
  EXPECT_TRUE(tex.create(VK_FORMAT_R8G8B8A8_UNORM, 256, 256, 9, 1, 0, &error)) << error;
  return tex;
}

SamplerState sampler(VkSamplerMipmapMode mode) {
  SamplerState s;
  s.mag_filter = s.min_filter = VK_FILTER_LINEAR;
  s.mipmap_mode = mode;
  return s;
}

// A request whose texel-space derivatives on the 256x256 base level are (ux, vx) per pixel
// along x and (uy, vy) along y.
SampleRequest derivs(float ux, float vx, float uy, float vy) {
  SampleRequest r;
  r.derivatives.dsdx = ux / 256;
  r.derivatives.dtdx = vx / 256;
  r.derivatives.dsdy = uy / 256;
  r.derivatives.dtdy = vy / 256;
  return r;
}

}  // namespace

TEST(GallivmLog2, FastLog2IsLinearBetweenPowersOfTwo) {
  // x = m 2^e -> e + (m - 1).
  EXPECT_EQ(gallivm_fast_log2(1.0f), 0.0f);
  EXPECT_EQ(gallivm_fast_log2(8.0f), 3.0f);
  EXPECT_EQ(gallivm_fast_log2(12.0f), 3.5f);   // 1.5 x 2^3 (log2 12 = 3.585)
  EXPECT_EQ(gallivm_fast_log2(0.75f), -0.5f);  // 1.5 x 2^-1 (log2 0.75 = -0.415)
  EXPECT_EQ(gallivm_fast_log2(36.0f), 5.125f); // 1.125 x 2^5
  EXPECT_EQ(gallivm_fast_log2(0.0f), -127.0f); // exponent field 0: -127 - 1 + 1
}

TEST(GallivmLog2, ILog2SqrtRoundsAtTheSquareRootOfTwo) {
  // (exponent(rho^2) + 1) >> 1: level n for rho in [2^(n - 0.5), 2^(n + 0.5)).
  EXPECT_EQ(gallivm_ilog2_sqrt(25.0f), 2);     // rho 5 (log2 2.32): exponent 4 -> 2
  EXPECT_EQ(gallivm_ilog2_sqrt(32.49f), 3);    // rho 5.7 (log2 2.51): exponent 5 -> 3
  EXPECT_EQ(gallivm_ilog2_sqrt(0.49f), -1);    // rho 0.7 (log2 -0.51): exponent -2 -> -1
  EXPECT_EQ(gallivm_ilog2_sqrt(0.5041f), 0);   // rho 0.71 (log2 -0.49): exponent -1 -> 0
  EXPECT_EQ(gallivm_ilog2_sqrt(1.0f), 0);
  EXPECT_EQ(gallivm_ilog2_sqrt(2.0f), 1);      // rho = sqrt 2 exactly: up
}

TEST(Lod, RhoIsTheLongerDerivativeVector) {
  const Texture tex = chain_256();
  // NEAREST mipmapping, no bias or clamp: level = ilog2_sqrt(rho^2). x step (5, 5) texels:
  // rho^2 = 50 (rho 7.07, log2 2.82) -> exponent 5 -> level 3.
  LodSelection sel = select_lod(tex, sampler(VK_SAMPLER_MIPMAP_MODE_NEAREST), derivs(5, 5, 0, 0));
  EXPECT_EQ(sel.level0, 3u);
  EXPECT_EQ(sel.weight, 0.0f);
  EXPECT_FALSE(sel.magnify);
  // The longer of the two: x step (1, -3) (10), y step (11, 2) (125, log2 sqrt = 3.48) -> 3.
  sel = select_lod(tex, sampler(VK_SAMPLER_MIPMAP_MODE_NEAREST), derivs(1, -3, 11, 2));
  EXPECT_EQ(sel.level0, 3u);
}

TEST(Lod, LinearTakesTheFastLog2AndBlendsFloorAndFloorPlusOne) {
  const Texture tex = chain_256();
  const SamplerState s = sampler(VK_SAMPLER_MIPMAP_MODE_LINEAR);
  // lod = 0.5 fast_log2(rho^2); levels floor(lod), floor(lod) + 1, weight frac(lod).
  // rho = 6: rho^2 = 36 = 1.125 x 2^5 -> 0.5 x 5.125 = 2.5625 (log2 6 = 2.585).
  LodSelection sel = select_lod(tex, s, derivs(6, 0, 0, 1));
  EXPECT_EQ(sel.lambda, 2.5625f);
  EXPECT_EQ(sel.level0, 2u);
  EXPECT_EQ(sel.level1, 3u);
  EXPECT_EQ(sel.weight, 0.5625f);
  // rho = 3: 9 = 1.125 x 2^3 -> 1.5625 (log2 3 = 1.585).
  sel = select_lod(tex, s, derivs(3, 0, 0, 0));
  EXPECT_EQ(sel.lambda, 1.5625f);
  EXPECT_EQ(sel.level0, 1u);
  EXPECT_EQ(sel.weight, 0.5625f);
  // rho = 4: lod 2 exactly, level 2 alone.
  sel = select_lod(tex, s, derivs(4, 0, 0, 1));
  EXPECT_EQ(sel.level0, 2u);
  EXPECT_EQ(sel.weight, 0.0f);
  // rho = 0.5: lod = 0.5 x fast_log2(0.25) = -1: magnified, level 0 alone.
  sel = select_lod(tex, s, derivs(0.5f, 0, 0, 0.5f));
  EXPECT_TRUE(sel.magnify);
  EXPECT_EQ(sel.level0, 0u);
  EXPECT_EQ(sel.weight, 0.0f);
  // Beyond the chain: rho = 4096 -> lod 12: the last level 8 alone.
  sel = select_lod(tex, s, derivs(4096, 0, 0, 1));
  EXPECT_EQ(sel.level0, 8u);
  EXPECT_EQ(sel.level1, 8u);
  EXPECT_EQ(sel.weight, 0.0f);
}

TEST(Lod, ABiasOperandLeavesTheNearestFastPathEvenWhenZero) {
  const Texture tex = chain_256();
  const SamplerState s = sampler(VK_SAMPLER_MIPMAP_MODE_NEAREST);
  // rho^2 = 2 (x step (1, 1)): the fast path gives (exponent 1 + 1) >> 1 = level 1; with a Bias
  // operand of 0 the LOD is 0.5 fast_log2(2) = 0.5, rounded half to even: level 0.
  SampleRequest r = derivs(1, 1, 0, 0);
  EXPECT_EQ(select_lod(tex, s, r).level0, 1u);
  r.has_bias = true;
  r.bias = 0.0f;
  EXPECT_EQ(select_lod(tex, s, r).lambda, 0.5f);
  EXPECT_EQ(select_lod(tex, s, r).level0, 0u);
  // Bias 1: 1.5 -> level 2.
  r.bias = 1.0f;
  EXPECT_EQ(select_lod(tex, s, r).level0, 2u);
}

TEST(Lod, BiasesAddThenMaxLodThenMinLod) {
  const Texture tex = chain_256();
  SamplerState s = sampler(VK_SAMPLER_MIPMAP_MODE_NEAREST);
  const SampleRequest r = derivs(6, 0, 0, 1);  // lod 2.5625 on the fast-log2 path
  // The sampler's bias is added unclamped and after the instruction's: 2.5625 + 0.75 = 3.3125;
  // NEAREST rounds -> level 3.
  s.mip_lod_bias = 0.75f;
  EXPECT_EQ(select_lod(tex, s, r).lambda, 3.3125f);
  EXPECT_EQ(select_lod(tex, s, r).level0, 3u);
  // A bias beyond maxSamplerLodBias (16) is not clamped: 2.5625 + 20 -> 22.5625, level 8.
  s.mip_lod_bias = 20.0f;
  EXPECT_EQ(select_lod(tex, s, r).lambda, 22.5625f);
  EXPECT_EQ(select_lod(tex, s, r).level0, 8u);
  // maxLod applies after the bias: min(2.5625 + 2, 3) = 3.
  s.mip_lod_bias = 2.0f;
  s.max_lod = 3.0f;
  EXPECT_EQ(select_lod(tex, s, r).lambda, 3.0f);
  // minLod > maxLod: max(min(2.5625, 2), 3) = 3 (the spec's clamp would give maxLod, 2).
  s.mip_lod_bias = 0.0f;
  s.min_lod = 3.0f;
  s.max_lod = 2.0f;
  EXPECT_EQ(select_lod(tex, s, r).lambda, 3.0f);
  EXPECT_EQ(select_lod(tex, s, r).level0, 3u);
  // maxLod 15 or more is never applied (VK_LOD_CLAMP_NONE included): rho^2 = 2 stays on the
  // fast path (level 1); maxLod 14.5 is applied, so the fast-log2 path: 0.5, level 0.
  s = sampler(VK_SAMPLER_MIPMAP_MODE_NEAREST);
  s.max_lod = 15.0f;
  EXPECT_EQ(select_lod(tex, s, derivs(1, 1, 0, 0)).level0, 1u);
  s.max_lod = 14.5f;
  EXPECT_EQ(select_lod(tex, s, derivs(1, 1, 0, 0)).level0, 0u);
}

TEST(Lod, MinLodEqualToMaxLodForcesTheLodWithoutBias) {
  const Texture tex = chain_256();
  SamplerState s = sampler(VK_SAMPLER_MIPMAP_MODE_NEAREST);
  s.min_lod = s.max_lod = 1.5f;
  s.mip_lod_bias = 4.0f;  // ignored
  SampleRequest r = derivs(64, 0, 0, 64);
  // lod = 1.5; NEAREST rounds to nearest, ties to even -> 2.
  EXPECT_EQ(select_lod(tex, s, r).lambda, 1.5f);
  EXPECT_EQ(select_lod(tex, s, r).level0, 2u);
  // LINEAR at lod 1.25: floor 1, weight the fraction 0.25 (brilinear, off in lavapipe, would
  // give clamp(2 x 0.25 - 0.5, 0, 1) = 0).
  s.mipmap_mode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
  s.min_lod = s.max_lod = 1.25f;
  const LodSelection sel = select_lod(tex, s, r);
  EXPECT_EQ(sel.level0, 1u);
  EXPECT_EQ(sel.level1, 2u);
  EXPECT_EQ(sel.weight, 0.25f);
  // lod 2.5 with NEAREST: ties to even -> 2 (the spec's ceil(d + 0.5) - 1 gives 2 as well; 3.5
  // gives 4 against the spec's 3).
  s.mipmap_mode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
  s.min_lod = s.max_lod = 3.5f;
  EXPECT_EQ(select_lod(tex, s, r).level0, 4u);
}

TEST(Lod, AnisotropicLodFollowsTheMinorAxisOnOneLevel) {
  const Texture tex = chain_256();
  SamplerState s = sampler(VK_SAMPLER_MIPMAP_MODE_LINEAR);
  s.anisotropy_enable = true;
  s.max_anisotropy = 16.0f;
  // x step (48, 0), y step (0, 3): px2 = 2304, py2 = 9; rho^2 = min = 9 whatever the ratio (16
  // here, beyond maxAnisotropy = 4 below too); lod = 0.5 fast_log2(9) = 0.5 x 3.125 = 1.5625;
  // itrunc -> level 1 alone, no blend. (The spec: log2(48 / 16) = 1.585, trilinear.)
  LodSelection sel = select_lod(tex, s, derivs(48, 0, 0, 3));
  EXPECT_EQ(sel.lambda, 1.5625f);
  EXPECT_EQ(sel.level0, 1u);
  EXPECT_EQ(sel.weight, 0.0f);
  EXPECT_TRUE(sel.ewa);
  EXPECT_EQ(sel.dudx, 48.0f);
  EXPECT_EQ(sel.dvdy, 3.0f);
  s.max_anisotropy = 4.0f;
  EXPECT_EQ(select_lod(tex, s, derivs(48, 0, 0, 3)).lambda, 1.5625f);
  // Minor axis of one texel: lod 0, not minified; the EWA still runs (on level 0).
  sel = select_lod(tex, s, derivs(32, 0, 0, 1));
  EXPECT_EQ(sel.lambda, 0.0f);
  EXPECT_TRUE(sel.magnify);
  EXPECT_EQ(sel.level0, 0u);
  EXPECT_TRUE(sel.ewa);
  // Disabled anisotropy (maxAnisotropy ignored): the isotropic rule, rho^2 = max(1024, 1) ->
  // lod 0.5 x 10 = 5: level 5 alone.
  s.anisotropy_enable = false;
  sel = select_lod(tex, s, derivs(32, 0, 0, 1));
  EXPECT_FALSE(sel.ewa);
  EXPECT_EQ(sel.level0, 5u);
  EXPECT_EQ(sel.weight, 0.0f);
}

TEST(Sample, AnisotropicEllipticalWeightedAverage) {
  // A 16x16 R32F level 0 (and a 1-texel level 1 so the texture is mipmapped): one texel (8, 8) is
  // 1, the rest 0. Derivatives: x step (4, 0) texels, y step (0, 1): lod 0, level 0. The
  // ellipse: A = 0 + 1 + 1 = 2, B = 0, C = 16 + 0 + 1 = 17, F = A C = 34; scaled so F = 1023:
  // q = 1023 (U^2 / 17 + V^2 / 2) about the sample point (tex_u, tex_v) = (8, 8) (the centre of
  // texel (8, 8)). Inside (q <= 1023): V = 0, |U| <= 4 (q = 0, 60.2, 240.7, 541.6, 962.8);
  // V = +-1, |U| <= 2 (q = 511.5, 571.7, 752.2); |U| = 3 at V = +-1 gives 1052: out. 19 texels,
  // weight exp(-2 trunc(q) / 1023) each; the result is texel (8, 8)'s weight over the sum.
  SamplerState s = sampler(VK_SAMPLER_MIPMAP_MODE_LINEAR);
  s.anisotropy_enable = true;
  s.max_anisotropy = 16.0f;
  std::vector<float> l0(256, 0.0f);
  l0[8 * 16 + 8] = 1.0f;
  std::vector<std::vector<float>> levels = {l0, std::vector<float>(64, 0.0f), std::vector<float>(16, 0.0f),
                                            std::vector<float>(4, 0.0f), {0.0f}};
  Texture tex;
  std::string error;
  ASSERT_TRUE(tex.create(VK_FORMAT_R32_SFLOAT, 16, 16, 5, 1, 0x100000, &error)) << error;
  for (uint32_t l = 0; l < levels.size(); ++l)
    ASSERT_TRUE(tex.upload(l, 0, levels[l].data(), levels[l].size() * 4, &error)) << error;
  SampleRequest r;
  r.s = 8.5f / 16;
  r.t = 8.5f / 16;
  r.derivatives.dsdx = 4.0f / 16;
  r.derivatives.dtdy = 1.0f / 16;
  const auto w = [](int q) { return std::exp(-2.0 * q / 1023.0); };
  const double sum = 1 + 2 * (w(60) + w(240) + w(541) + w(962)) + 2 * (w(511) + 2 * w(571) + 2 * w(752));
  Footprint fp;
  EXPECT_NEAR(sample(tex, s, r, &fp)[0], 1.0 / sum, 1e-5);
  // The footprint is the modelled texture unit's, not the EWA's 19 texels: rho_max = 4, rho_min
  // = 1, eta = 4, N = 4 bilinear probes along x at (i + 0.5) / 4 - 0.5 = -3/8 .. 3/8 of the 4-texel
  // step (u = 7, 8, 9, 10 about v = 8.5); lambda = log2(4 / 4) = 0: magnified, level 0 alone.
  EXPECT_EQ(fp.probe_count, 4u);
  EXPECT_EQ(fp.level_count, 1u);
  EXPECT_EQ(fp.levels[0], 0u);
  EXPECT_EQ(fp.dropped, 0u);
  // 64 B lines of 4x4 R32F texels: x 6..10 (block columns 1, 2), y 8, 9 (block row 2): 2 lines.
  EXPECT_EQ(fp.line_count, 2u);
  // A texture whose texel (x, y) is x: the weights are symmetric in U, the average is 8.
  for (uint32_t y = 0; y < 16; ++y)
    for (uint32_t x = 0; x < 16; ++x) l0[y * 16 + x] = static_cast<float>(x);
  ASSERT_TRUE(tex.upload(0, 0, l0.data(), l0.size() * 4, &error)) << error;
  EXPECT_NEAR(sample(tex, s, r, nullptr)[0], 8.0f, 1e-4f);
}

TEST(Sample, AnisotropicExplicitLodAndGradShapeTheEllipseFromTheQuadsDifferences) {
  // The texture and quad derivatives of AnisotropicEllipticalWeightedAverage (texel (8, 8) = 1,
  // x step 4 texels, y step 1): an explicit Lod 0, or Grad operands of a very different shape,
  // still average over the quad's ellipse (lp_build_sample_aniso), so the result is the same
  // 1 / sum. Without quad differences (none known) the ellipse of zero derivatives is the unit
  // circle: A = C = 1, B = 0, F = 1, q = 1023 (U^2 + V^2): texel (8, 8) (q = 0) and its four
  // neighbours (q = 1023, weight exp(-2)), so the result is 1 / (1 + 4 exp(-2)).
  SamplerState s = sampler(VK_SAMPLER_MIPMAP_MODE_LINEAR);
  s.anisotropy_enable = true;
  s.max_anisotropy = 16.0f;
  std::vector<float> l0(256, 0.0f);
  l0[8 * 16 + 8] = 1.0f;
  std::vector<std::vector<float>> levels = {l0, std::vector<float>(64, 0.0f), std::vector<float>(16, 0.0f),
                                            std::vector<float>(4, 0.0f), {0.0f}};
  Texture tex;
  std::string error;
  ASSERT_TRUE(tex.create(VK_FORMAT_R32_SFLOAT, 16, 16, 5, 1, 0x100000, &error)) << error;
  for (uint32_t l = 0; l < levels.size(); ++l)
    ASSERT_TRUE(tex.upload(l, 0, levels[l].data(), levels[l].size() * 4, &error)) << error;
  const auto w = [](int q) { return std::exp(-2.0 * q / 1023.0); };
  const double sum = 1 + 2 * (w(60) + w(240) + w(541) + w(962)) + 2 * (w(511) + 2 * w(571) + 2 * w(752));
  SampleRequest r;
  r.s = 8.5f / 16;
  r.t = 8.5f / 16;
  r.explicit_lod = true;
  r.lod = 0.0f;
  EXPECT_NEAR(sample(tex, s, r, nullptr)[0], 1.0 / (1.0 + 4.0 * std::exp(-2.0)), 1e-5);
  r.has_quad_derivatives = true;
  r.quad_derivatives.dsdx = 4.0f / 16;
  r.quad_derivatives.dtdy = 1.0f / 16;
  EXPECT_NEAR(sample(tex, s, r, nullptr)[0], 1.0 / sum, 1e-5);
  // Grad: x step (0, 1), y step (1, 0) in texels (lod 0): the quad's ellipse all the same.
  r.explicit_lod = false;
  r.explicit_derivatives = true;
  r.derivatives.dtdx = 1.0f / 16;
  r.derivatives.dsdy = 1.0f / 16;
  EXPECT_NEAR(sample(tex, s, r, nullptr)[0], 1.0 / sum, 1e-5);
}

TEST(Sample, AnisotropicFootprintIsTheTextureUnitsProbesWithinTheCaps) {
  // The most the texture unit reads: maxAnisotropy 16, a ratio far beyond it (x step 256 texels,
  // y step 1/4), trilinear: eta = 16, N = 16 probes per level; lambda = log2(256 / 16) = 4, plus
  // a sampler bias of 0.5: 4.5, levels 4 and 5 blended -> 32 probe records, none dropped, each
  // bilinear probe of RGBA8 in at most 4 lines.
  Texture tex;
  std::string error;
  ASSERT_TRUE(tex.create(VK_FORMAT_R8G8B8A8_UNORM, 256, 256, 9, 1, 0, &error)) << error;
  SamplerState s = sampler(VK_SAMPLER_MIPMAP_MODE_LINEAR);
  s.anisotropy_enable = true;
  s.max_anisotropy = 16.0f;
  s.mip_lod_bias = 0.5f;
  SampleRequest r = derivs(256, 0, 0, 0.25f);
  r.s = 0.3f;
  r.t = 0.6f;
  const LodSelection sel = select_lod(tex, s, r);
  EXPECT_EQ(sel.probes, 16u);
  EXPECT_EQ(sel.hw_level0, 4u);
  EXPECT_EQ(sel.hw_level1, 5u);
  EXPECT_EQ(sel.hw_weight, 0.5f);
  Footprint fp;
  sample(tex, s, r, &fp);
  EXPECT_EQ(fp.probe_count, 32u);
  EXPECT_EQ(fp.dropped, 0u);
  EXPECT_LE(fp.line_count, 32u * 4u);
  EXPECT_EQ(fp.level_count, 2u);
  // The colour is the EWA's, on lavapipe's level: min(65536, 1/16) -> lod 0.5 x fast_log2(1/16)
  // = -2: level 0.
  EXPECT_TRUE(sel.ewa);
  EXPECT_EQ(sel.level0, 0u);
}

TEST(QueryLod, YBeforeClampsXClampedAndRoundedForNearest) {
  const Texture tex = chain_256();
  SamplerState s = sampler(VK_SAMPLER_MIPMAP_MODE_LINEAR);
  s.min_lod = 1.0f;
  s.max_lod = 2.5f;
  s.mip_lod_bias = 0.5f;
  const SampleRequest r = derivs(6, 0, 0, 1);
  // y = 0.5 fast_log2(36) + 0.5 = 3.0625 (no clamp); x = max(min(3.0625, 2.5), 1) = 2.5.
  QueryLod q = query_lod(tex, s, r);
  EXPECT_EQ(q.y, 3.0625f);
  EXPECT_EQ(q.x, 2.5f);
  // NEAREST: x rounds to nearest, ties to even: 2.
  s.mipmap_mode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
  EXPECT_EQ(query_lod(tex, s, r).x, 2.0f);
  // A query never takes the level fast paths: rho = 6 without bias or clamps still gives
  // y = x = 2.5625; rho = 0.25: y = 0.5 fast_log2(1 / 16) = -2, x clamps to 0.
  s = sampler(VK_SAMPLER_MIPMAP_MODE_LINEAR);
  q = query_lod(tex, s, r);
  EXPECT_EQ(q.y, 2.5625f);
  EXPECT_EQ(q.x, 2.5625f);
  q = query_lod(tex, s, derivs(0.25f, 0, 0, 0.25f));
  EXPECT_EQ(q.y, -2.0f);
  EXPECT_EQ(q.x, 0.0f);
  // minLod == maxLod does not force a query's LOD: y = x = 2.5625 with minLod = maxLod = 5.
  s.min_lod = s.max_lod = 5.0f;
  EXPECT_EQ(query_lod(tex, s, r).x, 2.5625f);
}
