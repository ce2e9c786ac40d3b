// Sampling rules of the Vulkan spec and the footprint cases of paper 004 Algorithm 2, checked on
// constructed textures against values worked out by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "tessera/texture/sampler.h"

using namespace tessera::texture;

namespace {

// R32_SFLOAT texture with one level per vector (sizes w >> l, h >> l).
Texture float_texture(uint32_t w, uint32_t h, const std::vector<std::vector<float>>& levels,
                      VkFormat format = VK_FORMAT_R32_SFLOAT) {
  Texture tex;
  std::string error;
  EXPECT_TRUE(tex.create(format, w, h, static_cast<uint32_t>(levels.size()), 1, 0x100000, &error)) << error;
  for (uint32_t l = 0; l < levels.size(); ++l)
    EXPECT_TRUE(tex.upload(l, 0, levels[l].data(), levels[l].size() * 4, &error)) << error;
  return tex;
}

// The 2x2 texture of the filtering tests: T(0,0)=1, T(1,0)=2, T(0,1)=3, T(1,1)=5.
Texture two_by_two() { return float_texture(2, 2, {{1, 2, 3, 5}}); }

SamplerState linear_sampler(VkSamplerAddressMode mode = VK_SAMPLER_ADDRESS_MODE_REPEAT) {
  SamplerState s;
  s.mag_filter = s.min_filter = VK_FILTER_LINEAR;
  s.address_u = s.address_v = mode;
  return s;
}

SampleRequest at(float s, float t, float lod = 0.0f) {
  SampleRequest r;
  r.s = s;
  r.t = t;
  r.explicit_lod = true;
  r.lod = lod;
  return r;
}

}  // namespace

TEST(Wrap, EachAddressModeAtTheEdges) {
  constexpr auto R = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  constexpr auto MR = VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT;
  constexpr auto CE = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  constexpr auto CB = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
  constexpr auto MCE = VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE;
  // Size 4. Repeat: ... 2 3 | 0 1 2 3 | 0 1 ...
  EXPECT_EQ(wrap_texel(-1, 4, R), 3);
  EXPECT_EQ(wrap_texel(-5, 4, R), 3);
  EXPECT_EQ(wrap_texel(4, 4, R), 0);
  EXPECT_EQ(wrap_texel(9, 4, R), 1);
  // Mirrored repeat: ... 1 0 | 0 1 2 3 | 3 2 1 0 | 0 ...
  EXPECT_EQ(wrap_texel(-1, 4, MR), 0);
  EXPECT_EQ(wrap_texel(-2, 4, MR), 1);
  EXPECT_EQ(wrap_texel(4, 4, MR), 3);
  EXPECT_EQ(wrap_texel(5, 4, MR), 2);
  EXPECT_EQ(wrap_texel(7, 4, MR), 0);
  EXPECT_EQ(wrap_texel(8, 4, MR), 0);
  EXPECT_EQ(wrap_texel(9, 4, MR), 1);
  // Clamp to edge.
  EXPECT_EQ(wrap_texel(-1, 4, CE), 0);
  EXPECT_EQ(wrap_texel(6, 4, CE), 3);
  // Clamp to border: outside is the border texel.
  EXPECT_EQ(wrap_texel(-1, 4, CB), -1);
  EXPECT_EQ(wrap_texel(4, 4, CB), -1);
  EXPECT_EQ(wrap_texel(3, 4, CB), 3);
  // Mirror clamp to edge: one mirror, then clamp.
  EXPECT_EQ(wrap_texel(-1, 4, MCE), 0);
  EXPECT_EQ(wrap_texel(-3, 4, MCE), 2);
  EXPECT_EQ(wrap_texel(-9, 4, MCE), 3);
  EXPECT_EQ(wrap_texel(5, 4, MCE), 3);
}

TEST(Sample, NearestVersusBilinearOnA2x2Texture) {
  const Texture tex = two_by_two();
  SamplerState nearest;
  EXPECT_EQ(sample(tex, nearest, at(0.25f, 0.25f), nullptr)[0], 1.0f);
  EXPECT_EQ(sample(tex, nearest, at(0.75f, 0.25f), nullptr)[0], 2.0f);
  EXPECT_EQ(sample(tex, nearest, at(0.25f, 0.75f), nullptr)[0], 3.0f);
  EXPECT_EQ(sample(tex, nearest, at(0.5f, 0.5f), nullptr)[0], 5.0f);  // floor(1) = texel 1
  const SamplerState linear = linear_sampler();
  // Centre: all four weights 1/4.
  EXPECT_FLOAT_EQ(sample(tex, linear, at(0.5f, 0.5f), nullptr)[0], (1 + 2 + 3 + 5) / 4.0f);
  // u = 0.75 -> alpha = 0.25; v = 1 -> beta = 0.5.
  EXPECT_FLOAT_EQ(sample(tex, linear, at(0.375f, 0.5f), nullptr)[0],
                  0.75f * 0.5f * 1 + 0.25f * 0.5f * 2 + 0.75f * 0.5f * 3 + 0.25f * 0.5f * 5);
  // Texel centres reproduce the texels exactly.
  EXPECT_FLOAT_EQ(sample(tex, linear, at(0.75f, 0.75f), nullptr)[0], 5.0f);
}

TEST(Sample, BilinearAddressingAtTheLeftEdge) {
  const Texture tex = two_by_two();
  // s = 0.125: u - 0.5 = -0.25 -> i0 = -1, i1 = 0, alpha = 0.75; t = 0.25: row 0 only.
  const SampleRequest r = at(0.125f, 0.25f);
  EXPECT_FLOAT_EQ(sample(tex, linear_sampler(VK_SAMPLER_ADDRESS_MODE_REPEAT), r, nullptr)[0], 0.25f * 2 + 0.75f * 1);
  EXPECT_FLOAT_EQ(sample(tex, linear_sampler(VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT), r, nullptr)[0], 1.0f);
  EXPECT_FLOAT_EQ(sample(tex, linear_sampler(VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE), r, nullptr)[0], 1.0f);
  EXPECT_FLOAT_EQ(sample(tex, linear_sampler(VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE), r, nullptr)[0], 1.0f);
  SamplerState border = linear_sampler(VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER);
  border.border_color = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK;
  Rgba c = sample(tex, border, r, nullptr);
  EXPECT_FLOAT_EQ(c[0], 0.75f);
  // "Texel Replacement": a one-component format takes only Br; "Conversion to RGBA" then gives
  // alpha 1 to the border texel as to every other texel.
  EXPECT_FLOAT_EQ(c[3], 1.0f);
  border.border_color = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE;
  c = sample(tex, border, at(0.125f, 0.25f), nullptr);
  EXPECT_FLOAT_EQ(c[0], 0.25f * 1 + 0.75f * 1);
  EXPECT_FLOAT_EQ(c[1], 0.0f);  // green: the border texel is (1, 0, 0, 1) for R32_SFLOAT
  EXPECT_FLOAT_EQ(c[3], 1.0f);
  // A four-component format takes the whole border colour.
  Texture rgba;
  std::string error;
  ASSERT_TRUE(rgba.create(VK_FORMAT_R32G32B32A32_SFLOAT, 2, 2, 1, 1, 0, &error)) << error;
  const std::vector<float> texels(16, 0.5f);
  ASSERT_TRUE(rgba.upload(0, 0, texels.data(), 64, &error)) << error;
  c = sample(rgba, border, at(0.125f, 0.25f), nullptr);
  EXPECT_FLOAT_EQ(c[1], 0.25f * 1 + 0.75f * 0.5f);
  // Custom border colours (VK_EXT_custom_border_color) are the sampler's four floats.
  border.border_color = static_cast<VkBorderColor>(1000287003);  // FLOAT_CUSTOM_EXT
  const float custom[4] = {0.25f, 2.0f, -1.0f, 0.5f};
  std::memcpy(border.custom_border, custom, 16);
  c = sample(rgba, border, at(0.125f, 0.25f), nullptr);
  EXPECT_FLOAT_EQ(c[1], 0.25f * 2 + 0.75f * 0.5f);
  EXPECT_FLOAT_EQ(c[2], 0.25f * -1 + 0.75f * 0.5f);

  // Nearest beyond the right edge: s = 1.25 -> u = 2.5 -> i = 2.
  SamplerState n;
  n.address_v = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  n.address_u = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  EXPECT_EQ(sample(tex, n, at(1.25f, 0.25f), nullptr)[0], 1.0f);
  n.address_u = VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT;
  EXPECT_EQ(sample(tex, n, at(1.25f, 0.25f), nullptr)[0], 2.0f);
  n.address_u = VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE;
  EXPECT_EQ(sample(tex, n, at(-1.25f, 0.25f), nullptr)[0], 2.0f);  // i = -3 -> mirror 2 -> clamp 1
  n.address_u = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
  n.border_color = VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK;
  EXPECT_EQ(sample(tex, n, at(1.25f, 0.25f), nullptr)[0], 0.0f);
}

// The LOD rules (lavapipe's) and anisotropic filtering: lod_test.cpp.

TEST(Sample, TrilinearWeightsBetweenTwoMips) {
  // Constant levels: 1, 3, 7.
  const Texture tex = float_texture(4, 4, {std::vector<float>(16, 1.0f), std::vector<float>(4, 3.0f), {7.0f}});
  SamplerState s = linear_sampler();
  s.mipmap_mode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
  Footprint fp;
  // d' = 1.25: levels 1 and 2 with weights 0.75 and 0.25.
  EXPECT_FLOAT_EQ(sample(tex, s, at(0.3f, 0.6f, 1.25f), &fp)[0], 0.75f * 3 + 0.25f * 7);
  EXPECT_EQ(fp.level_count, 2u);
  EXPECT_EQ(fp.levels[0], 1u);
  EXPECT_EQ(fp.levels[1], 2u);
  EXPECT_EQ(fp.probe_count, 2u);
  EXPECT_FLOAT_EQ(sample(tex, s, at(0.3f, 0.6f, 0.5f), &fp)[0], 0.5f * 1 + 0.5f * 3);
  // Integral d': a single level.
  EXPECT_FLOAT_EQ(sample(tex, s, at(0.3f, 0.6f, 1.0f), &fp)[0], 3.0f);
  EXPECT_EQ(fp.level_count, 1u);
  // Nearest mipmap mode rounds as lavapipe does (lp_build_iround: to nearest, ties to even; the
  // spec's ceil(d' + 0.5) - 1 rounds halves down): 1.49 -> 1, 1.5 -> 2, 0.5 -> 0.
  s.mipmap_mode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
  EXPECT_FLOAT_EQ(sample(tex, s, at(0.3f, 0.6f, 1.49f), nullptr)[0], 3.0f);
  EXPECT_FLOAT_EQ(sample(tex, s, at(0.3f, 0.6f, 1.5f), nullptr)[0], 7.0f);
  EXPECT_FLOAT_EQ(sample(tex, s, at(0.3f, 0.6f, 0.5f), nullptr)[0], 1.0f);
  // The explicit LOD also honours the sampler bias.
  s.mip_lod_bias = 1.0f;
  EXPECT_FLOAT_EQ(sample(tex, s, at(0.3f, 0.6f, 0.0f), nullptr)[0], 3.0f);
}

TEST(Footprint, FourCasesOfAlgorithm2) {
  Texture tex;
  std::string error;
  ASSERT_TRUE(tex.create(VK_FORMAT_R8G8B8A8_UNORM, 16, 16, 1, 1, 0x4000, &error)) << error;
  const SamplerState s = linear_sampler();
  const auto block = [](uint64_t bx, uint64_t by) { return 0x4000 + (by * 4 + bx) * 64; };
  Footprint fp;
  // Texel-space u = 1.5 -> texels 1, 2 (block column 0); u = 4 -> texels 3, 4 (columns 0, 1).
  sample(tex, s, at(1.5f / 16, 1.5f / 16), &fp);
  EXPECT_EQ(fp.first_case, FootprintCase::SingleBlock);
  ASSERT_EQ(fp.line_count, 1u);
  EXPECT_EQ(fp.lines[0], block(0, 0));
  sample(tex, s, at(4.0f / 16, 1.5f / 16), &fp);
  EXPECT_EQ(fp.first_case, FootprintCase::TwoBlocksHorizontal);
  ASSERT_EQ(fp.line_count, 2u);
  EXPECT_EQ(fp.lines[0], block(0, 0));
  EXPECT_EQ(fp.lines[1], block(1, 0));
  sample(tex, s, at(1.5f / 16, 4.0f / 16), &fp);
  EXPECT_EQ(fp.first_case, FootprintCase::TwoBlocksVertical);
  ASSERT_EQ(fp.line_count, 2u);
  EXPECT_EQ(fp.lines[1], block(0, 1));
  sample(tex, s, at(8.0f / 16, 12.0f / 16), &fp);
  EXPECT_EQ(fp.first_case, FootprintCase::FourBlocks);
  ASSERT_EQ(fp.line_count, 4u);
  EXPECT_EQ(fp.lines[0], block(1, 2));
  EXPECT_EQ(fp.lines[3], block(2, 3));
  EXPECT_EQ(fp.line_level[3], 0u);
  // Repeat across the left edge: texels 15 and 0 are in block columns 3 and 0.
  sample(tex, s, at(0.25f / 16, 1.5f / 16), &fp);
  EXPECT_EQ(fp.first_case, FootprintCase::TwoBlocksHorizontal);
  EXPECT_EQ(fp.lines[0], block(3, 0));
  EXPECT_EQ(fp.lines[1], block(0, 0));
  // Border texels read no memory: at the corner only texel (0, 0) is fetched.
  const SamplerState b = linear_sampler(VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER);
  sample(tex, b, at(0.25f / 16, 0.25f / 16), &fp);
  EXPECT_EQ(fp.first_case, FootprintCase::SingleBlock);
  EXPECT_EQ(fp.line_count, 1u);
  sample(tex, b, at(-1.0f, 0.5f), &fp);
  EXPECT_EQ(fp.first_case, FootprintCase::None);
  EXPECT_EQ(fp.line_count, 0u);
  // Nearest filtering reads one texel: always one block.
  sample(tex, SamplerState{}, at(4.0f / 16, 4.0f / 16), &fp);
  EXPECT_EQ(fp.first_case, FootprintCase::SingleBlock);
  EXPECT_EQ(fp.lines[0], block(1, 1));
}

// Each probe's record for paper 004's TFM: Algorithm 2's case and the blocks it looks up, in the
// order of Fig. 4 (t1 = (u0,v0), t2 = (u1,v0), t3 = (u0,v1), t4 = (u1,v1)).
TEST(Footprint, ProbeRecordsInFilterOrder) {
  Texture tex;
  std::string error;
  ASSERT_TRUE(tex.create(VK_FORMAT_R8G8B8A8_UNORM, 16, 16, 1, 1, 0x4000, &error)) << error;
  const SamplerState s = linear_sampler();
  const auto block = [](uint64_t bx, uint64_t by) { return 0x4000 + (by * 4 + bx) * 64; };
  const auto blocks_of = [](const Footprint& fp, uint32_t p) {
    return std::vector<uint64_t>(fp.blocks + fp.probes[p].first_block,
                                 fp.blocks + fp.probes[p].first_block + fp.probes[p].block_count);
  };
  Footprint fp;
  sample(tex, s, at(1.5f / 16, 1.5f / 16), &fp);  // case 1: the block of t1
  ASSERT_EQ(fp.probe_count, 1u);
  EXPECT_EQ(fp.probes[0].kind, ProbeKind::SingleBlock);
  EXPECT_EQ(blocks_of(fp, 0), (std::vector<uint64_t>{block(0, 0)}));
  EXPECT_EQ(fp.block_bytes, 64u);
  sample(tex, s, at(1.5f / 16, 4.0f / 16), &fp);  // case 2: t1 then t3, one above the other
  EXPECT_EQ(fp.probes[0].kind, ProbeKind::TwoBlocksVertical);
  EXPECT_EQ(blocks_of(fp, 0), (std::vector<uint64_t>{block(0, 0), block(0, 1)}));
  sample(tex, s, at(4.0f / 16, 1.5f / 16), &fp);  // case 3: t1 then t2, side by side
  EXPECT_EQ(fp.probes[0].kind, ProbeKind::TwoBlocksHorizontal);
  EXPECT_EQ(blocks_of(fp, 0), (std::vector<uint64_t>{block(0, 0), block(1, 0)}));
  sample(tex, s, at(8.0f / 16, 12.0f / 16), &fp);  // case 4: t1, t2, t3, t4
  EXPECT_EQ(fp.probes[0].kind, ProbeKind::FourBlocks);
  EXPECT_EQ(blocks_of(fp, 0), (std::vector<uint64_t>{block(1, 2), block(2, 2), block(1, 3), block(2, 3)}));
  // Wrapped: t1 = texel 15 (block column 3), t2 = texel 0 (column 0).
  sample(tex, s, at(0.25f / 16, 1.5f / 16), &fp);
  EXPECT_EQ(blocks_of(fp, 0), (std::vector<uint64_t>{block(3, 0), block(0, 0)}));
  // Three border texels: one texel read, looked up as a single texel.
  sample(tex, linear_sampler(VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER), at(0.25f / 16, 0.25f / 16), &fp);
  EXPECT_EQ(fp.probes[0].kind, ProbeKind::SingleTexel);
  sample(tex, SamplerState{}, at(4.0f / 16, 4.0f / 16), &fp);  // nearest
  EXPECT_EQ(fp.probes[0].kind, ProbeKind::SingleTexel);
  EXPECT_EQ(blocks_of(fp, 0), (std::vector<uint64_t>{block(1, 1)}));
  // A gather reads the same 2x2 footprint: recorded in Fig. 4's order too (t1 first), though it
  // returns the texels in the gather order (i0,j1), (i1,j1), (i1,j0), (i0,j0).
  gather(tex, s, at(8.0f / 16, 12.0f / 16), 0, &fp);
  EXPECT_EQ(fp.probes[0].kind, ProbeKind::FourBlocks);
  EXPECT_EQ(blocks_of(fp, 0), (std::vector<uint64_t>{block(1, 2), block(2, 2), block(1, 3), block(2, 3)}));
  gather(tex, s, at(1.5f / 16, 4.0f / 16), 0, &fp);
  EXPECT_EQ(fp.probes[0].kind, ProbeKind::TwoBlocksVertical);
  EXPECT_EQ(blocks_of(fp, 0), (std::vector<uint64_t>{block(0, 0), block(0, 1)}));

  // R8: a 4x4 block is 16 B, four blocks to a line; the blocks are not the lines.
  Texture r8;
  ASSERT_TRUE(r8.create(VK_FORMAT_R8_UNORM, 16, 16, 1, 1, 0x8000, &error)) << error;
  sample(r8, s, at(4.0f / 16, 1.5f / 16), &fp);
  EXPECT_EQ(fp.block_bytes, 16u);
  EXPECT_EQ(blocks_of(fp, 0), (std::vector<uint64_t>{0x8000, 0x8010}));
  ASSERT_EQ(fp.line_count, 1u);
  EXPECT_EQ(fp.lines[0], 0x8000u);
}

// Trilinear: one probe per level, the finer level first, each with its own level.
TEST(Footprint, TrilinearProbesCarryTheirLevels) {
  Texture tex;
  std::string error;
  ASSERT_TRUE(tex.create(VK_FORMAT_R8G8B8A8_UNORM, 16, 16, 3, 1, 0x4000, &error)) << error;
  SamplerState s = linear_sampler();
  s.mipmap_mode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
  s.max_lod = 2;
  Footprint fp;
  sample(tex, s, at(0.3f, 0.6f, 0.5f), &fp);
  ASSERT_EQ(fp.probe_count, 2u);
  EXPECT_EQ(fp.probes[0].level, 0u);
  EXPECT_EQ(fp.probes[1].level, 1u);
  EXPECT_NE(fp.probes[0].kind, ProbeKind::None);
  EXPECT_NE(fp.probes[1].kind, ProbeKind::None);
}

TEST(Sample, SrgbDecodedBeforeFiltering) {
  Texture tex;
  std::string error;
  ASSERT_TRUE(tex.create(VK_FORMAT_R8G8B8A8_SRGB, 2, 1, 1, 1, 0, &error)) << error;
  const uint8_t texels[8] = {0x00, 0x00, 0x00, 0xFF, 0xBC, 0xBC, 0xBC, 0xFF};
  ASSERT_TRUE(tex.upload(0, 0, texels, 8, &error)) << error;
  // Half-way between 0 and 0xBC: the mean of the linear values (0.50289 / 2), not the decode of
  // the mean encoding.
  const Rgba c = sample(tex, linear_sampler(VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE), at(0.5f, 0.5f), nullptr);
  EXPECT_NEAR(c[0], 0.50289f / 2, 5e-5f);
  EXPECT_FLOAT_EQ(c[3], 1.0f);
}

TEST(Sample, GatherFetchDrefAndUnnormalized) {
  const Texture tex = two_by_two();
  const Rgba g = gather(tex, linear_sampler(), at(0.5f, 0.5f), 0, nullptr);
  EXPECT_EQ(g[0], 3.0f);  // (i0, j1)
  EXPECT_EQ(g[1], 5.0f);  // (i1, j1)
  EXPECT_EQ(g[2], 2.0f);  // (i1, j0)
  EXPECT_EQ(g[3], 1.0f);  // (i0, j0)
  EXPECT_EQ(gather(tex, linear_sampler(), at(0.5f, 0.5f), 3, nullptr)[0], 1.0f);  // alpha

  Footprint fp;
  EXPECT_EQ(fetch(tex, 0, 0, 1, 1, &fp)[0], 5.0f);
  EXPECT_EQ(fp.line_count, 1u);
  EXPECT_EQ(fp.lines[0], tex.base_address());
  EXPECT_EQ(fetch(tex, 0, 0, 2, 0, &fp)[0], 0.0f);  // out of range
  EXPECT_EQ(fp.line_count, 0u);

  Texture u;
  std::string error;
  ASSERT_TRUE(u.create(VK_FORMAT_R32_UINT, 4, 4, 1, 1, 0, &error)) << error;
  std::vector<uint32_t> values(16);
  for (uint32_t i = 0; i < 16; ++i) values[i] = 0xDEAD0000u + i;
  ASSERT_TRUE(u.upload(0, 0, values.data(), 64, &error)) << error;
  uint32_t fetched;
  const Rgba f = fetch(u, 0, 0, 3, 2, nullptr);  // integer formats fetch bit patterns
  std::memcpy(&fetched, f.data(), 4);
  EXPECT_EQ(fetched, 0xDEAD0000u + 11);

  // Depth compare: D32F 0.2 0.4 / 0.6 0.8, LESS_OR_EQUAL with Dref = 0.5 passes for 0.6 and 0.8.
  const Texture depth = float_texture(2, 2, {{0.2f, 0.4f, 0.6f, 0.8f}}, VK_FORMAT_D32_SFLOAT);
  SamplerState cmp = linear_sampler(VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE);
  cmp.compare_enable = true;
  cmp.compare_op = VK_COMPARE_OP_LESS_OR_EQUAL;
  SampleRequest r = at(0.5f, 0.5f);
  r.has_dref = true;
  r.dref = 0.5f;
  EXPECT_FLOAT_EQ(sample(depth, cmp, r, nullptr)[0], 0.5f);
  r.s = r.t = 0.25f;  // texel (0, 0) = 0.2 only
  EXPECT_FLOAT_EQ(sample(depth, cmp, r, nullptr)[0], 0.0f);
  cmp.compare_op = VK_COMPARE_OP_GREATER;
  EXPECT_FLOAT_EQ(sample(depth, cmp, r, nullptr)[0], 1.0f);

  // Unnormalized coordinates address texels directly.
  SamplerState un;
  un.unnormalized_coordinates = true;
  un.address_u = un.address_v = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  EXPECT_EQ(sample(tex, un, at(1.5f, 0.5f), nullptr)[0], 2.0f);
  EXPECT_EQ(sample(tex, un, at(0.5f, 1.5f), nullptr)[0], 3.0f);
}

TEST(Sample, Bc1TextureSamplesDecodedTexels) {
  // One 4x4 BC1 block, c0 = red > c1 = blue, texel (1, 0) index 1, (2, 0) index 2.
  uint8_t block[8] = {0x00, 0xF8, 0x1F, 0x00, 0, 0, 0, 0};
  const uint32_t bits = (1u << 2) | (2u << 4);
  std::memcpy(block + 4, &bits, 4);
  Texture tex;
  std::string error;
  ASSERT_TRUE(tex.create(VK_FORMAT_BC1_RGB_UNORM_BLOCK, 4, 4, 1, 1, 0x800, &error)) << error;
  ASSERT_TRUE(tex.upload(0, 0, block, 8, &error)) << error;
  Footprint fp;
  const Rgba c = sample(tex, SamplerState{}, at(1.5f / 4, 0.5f / 4), &fp);
  EXPECT_EQ(c[0], 0.0f);
  EXPECT_EQ(c[2], 1.0f);
  EXPECT_NEAR(sample(tex, SamplerState{}, at(2.5f / 4, 0.5f / 4), nullptr)[0], 2.0f / 3, 1e-6f);
  EXPECT_EQ(fp.line_count, 1u);
  EXPECT_EQ(fp.lines[0], 0x800u);
  EXPECT_EQ(tex.memory()[1], 0xF8);
}

TEST(Sampler, FromCreateInfo) {
  VkSamplerCreateInfo info{};
  info.magFilter = VK_FILTER_LINEAR;
  info.minFilter = VK_FILTER_NEAREST;
  info.mipmapMode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
  info.addressModeU = VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT;
  info.addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
  info.mipLodBias = -0.5f;
  info.anisotropyEnable = VK_TRUE;
  info.maxAnisotropy = 8;
  info.compareEnable = VK_TRUE;
  info.compareOp = VK_COMPARE_OP_GREATER;
  info.minLod = 1;
  info.maxLod = 3;
  info.borderColor = VK_BORDER_COLOR_INT_OPAQUE_WHITE;
  const SamplerState s = SamplerState::from_create_info(info);
  EXPECT_EQ(s.mag_filter, VK_FILTER_LINEAR);
  EXPECT_EQ(s.min_filter, VK_FILTER_NEAREST);
  EXPECT_EQ(s.mipmap_mode, VK_SAMPLER_MIPMAP_MODE_LINEAR);
  EXPECT_EQ(s.address_u, VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT);
  EXPECT_EQ(s.address_v, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER);
  EXPECT_EQ(s.mip_lod_bias, -0.5f);
  EXPECT_TRUE(s.anisotropy_enable);
  EXPECT_EQ(s.max_anisotropy, 8.0f);
  EXPECT_TRUE(s.compare_enable);
  EXPECT_EQ(s.compare_op, VK_COMPARE_OP_GREATER);
  EXPECT_EQ(s.min_lod, 1.0f);
  EXPECT_EQ(s.max_lod, 3.0f);
  EXPECT_EQ(s.border_color, VK_BORDER_COLOR_INT_OPAQUE_WHITE);
  EXPECT_FALSE(s.unnormalized_coordinates);
}

TEST(Sample, IntegerFormatSamplesKeepExactValues) {
  Texture u;
  std::string error;
  ASSERT_TRUE(u.create(VK_FORMAT_R32_UINT, 2, 1, 1, 1, 0, &error)) << error;
  const uint32_t values[2] = {0xFFFFFF01u, 16777217u};  // neither is representable as a float
  ASSERT_TRUE(u.upload(0, 0, values, 8, &error)) << error;
  SamplerState s;
  s.address_u = s.address_v = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
  s.border_color = VK_BORDER_COLOR_INT_OPAQUE_WHITE;
  uint32_t bits[4];
  Rgba c = sample(u, s, at(0.75f, 0.5f), nullptr);
  std::memcpy(bits, c.data(), 16);
  EXPECT_EQ(bits[0], 16777217u);
  EXPECT_EQ(bits[3], 1u);
  c = sample(u, s, at(1.5f, 0.5f), nullptr);  // border: integer (1, 0, 0, 1) for one component
  std::memcpy(bits, c.data(), 16);
  EXPECT_EQ(bits[0], 1u);
  EXPECT_EQ(bits[2], 0u);
  EXPECT_EQ(bits[3], 1u);
  c = fetch(u, 0, 0, 0, 0, nullptr);
  std::memcpy(bits, c.data(), 4);
  EXPECT_EQ(bits[0], 0xFFFFFF01u);
}

TEST(Sample, NonFiniteInputsGiveDefinedResults) {
  const Texture tex = two_by_two();
  SamplerState s = linear_sampler(VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE);
  s.mipmap_mode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
  Footprint fp;
  // NaN coordinate -> texel index 0: with clamp to edge the footprint is texels 0/1 of row 0/1.
  const Rgba c = sample(tex, s, at(NAN, 0.25f), &fp);
  EXPECT_EQ(fp.probe_count, 1u);
  EXPECT_FALSE(std::isnan(c[3]));
  // Huge coordinates clamp to the last texel.
  EXPECT_EQ(sample(tex, s, at(1e30f, 0.25f), nullptr)[0], 2.0f);
  EXPECT_EQ(sample(tex, s, at(-INFINITY, 0.25f), nullptr)[0], 1.0f);
  // NaN derivatives: rho^2 is NaN, whose exponent field (255 -> 128) and mantissa (1.5) the
  // fast log2 reads as 128.5: lod 64.25, the last level (here the only one).
  SampleRequest r;
  r.s = r.t = 0.25f;
  r.derivatives.dsdx = NAN;
  EXPECT_EQ(select_lod(tex, s, r).lambda, 64.25f);
  sample(tex, s, r, &fp);
  EXPECT_EQ(fp.levels[0], 0u);
}

TEST(Footprint, CaseCountsOverASweep) {
  // Bilinear samples centred between texels (x + 0.75, y + 0.75), x, y = 0..14, on a 16x16 RGBA8
  // texture: the footprint is texels x, x+1 and y, y+1, which straddle a block column when
  // x % 4 == 3 (x = 3, 7, 11: 3 of 15) and a block row when y % 4 == 3.
  Texture tex;
  std::string error;
  ASSERT_TRUE(tex.create(VK_FORMAT_R8G8B8A8_UNORM, 16, 16, 1, 1, 0, &error)) << error;
  const SamplerState s = linear_sampler(VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE);
  uint32_t counts[5] = {};
  uint32_t lines = 0;
  Footprint fp;
  for (int y = 0; y < 15; ++y) {
    for (int x = 0; x < 15; ++x) {
      sample(tex, s, at((static_cast<float>(x) + 0.75f) / 16, (static_cast<float>(y) + 0.75f) / 16), &fp);
      ++counts[static_cast<int>(fp.first_case)];
      lines += fp.line_count;
    }
  }
  EXPECT_EQ(counts[static_cast<int>(FootprintCase::SingleBlock)], 12u * 12);
  EXPECT_EQ(counts[static_cast<int>(FootprintCase::TwoBlocksHorizontal)], 3u * 12);
  EXPECT_EQ(counts[static_cast<int>(FootprintCase::TwoBlocksVertical)], 12u * 3);
  EXPECT_EQ(counts[static_cast<int>(FootprintCase::FourBlocks)], 3u * 3);
  EXPECT_EQ(counts[static_cast<int>(FootprintCase::None)], 0u);
  // RGBA8: one line per block, so lines = 1 x 144 + 2 x 72 + 4 x 9.
  EXPECT_EQ(lines, 144u + 2 * 72 + 4 * 9);
}
