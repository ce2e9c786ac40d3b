// Cube maps (face selection, edge and corner handling, LOD), 3D textures (trilinear within a level,
// w wrapping, mips) and 1D images, checked against values worked out by hand from the Vulkan
// spec's "Image Operations" chapter.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "tessera/texture/sampler.h"

using namespace tessera::texture;

namespace {

constexpr uint64_t kBase = 0x200000;

// A cube (6 layers) of n x n R32F faces; texel (i, j) of face f holds 100 f + 10 j + i.
Texture cube_texture(uint32_t n, uint32_t levels = 1) {
  Texture tex;
  std::string error;
  EXPECT_TRUE(tex.create(VK_FORMAT_R32_SFLOAT, n, n, levels, 6, kBase, &error)) << error;
  for (uint32_t f = 0; f < 6; ++f)
    for (uint32_t l = 0; l < levels; ++l) {
      const uint32_t m = tex.width(l);
      std::vector<float> v(static_cast<size_t>(m) * m);
      for (uint32_t j = 0; j < m; ++j)
        for (uint32_t i = 0; i < m; ++i) v[j * m + i] = static_cast<float>(100 * f + 10 * j + i + 1000 * l);
      EXPECT_TRUE(tex.upload(l, f, v.data(), v.size() * 4, &error)) << error;
    }
  return tex;
}

SampleRequest direction(float x, float y, float z) {
  SampleRequest r;
  r.dim = SampleDim::Cube;
  r.s = x;
  r.t = y;
  r.r = z;
  r.explicit_lod = true;
  return r;
}

SamplerState linear(VkSamplerAddressMode mode = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE) {
  SamplerState s;
  s.mag_filter = s.min_filter = VK_FILTER_LINEAR;
  s.address_u = s.address_v = s.address_w = mode;
  return s;
}

}  // namespace

TEST(Cube, FaceSelectionTable) {
  // Spec table "Cube Map Face and Coordinate Selection": face, then (s, t) = 0.5 (sc, tc) / |rc| + 0.5.
  struct Row {
    float x, y, z;
    uint32_t face;
    float s, t;
  };
  const Row rows[] = {
      {1, 0.5f, -0.5f, 0, 0.75f, 0.25f},    // +X: sc = -rz, tc = -ry
      {-1, 0.5f, -0.5f, 1, 0.25f, 0.25f},   // -X: sc = +rz, tc = -ry
      {0.5f, 1, -0.5f, 2, 0.75f, 0.25f},    // +Y: sc = +rx, tc = +rz
      {0.5f, -1, -0.5f, 3, 0.75f, 0.75f},   // -Y: sc = +rx, tc = -rz
      {0.5f, -0.5f, 1, 4, 0.75f, 0.75f},    // +Z: sc = +rx, tc = -ry
      {0.5f, -0.5f, -1, 5, 0.25f, 0.75f},   // -Z: sc = -rx, tc = -ry
      {-2, 1, 1, 1, 0.75f, 0.25f},          // |rc| = 2
      // Ties (the spec's recommended rules): rz wins over ry and rx, ry over rx.
      {1, 1, 1, 4, 1.0f, 0.0f},
      {1, -1, 0, 3, 1.0f, 0.5f},
      {-1, 0, -1, 5, 1.0f, 0.5f},
  };
  for (const Row& r : rows) {
    const CubeCoord c = cube_coord(r.x, r.y, r.z, {});
    EXPECT_EQ(c.face, r.face) << r.x << " " << r.y << " " << r.z;
    EXPECT_FLOAT_EQ(c.s, r.s) << r.x << " " << r.y << " " << r.z;
    EXPECT_FLOAT_EQ(c.t, r.t) << r.x << " " << r.y << " " << r.z;
  }
}

TEST(Cube, EdgeTexelsComeFromTheNeighbouringFace) {
  // Worked by hand on 4x4 faces: beyond +X's right edge (s -> -z) is -Z's left column, same row;
  // above +Y (t -> -z) is -Z's top row, columns reversed (+Y's s is +x, -Z's s is -x); beyond +Z's
  // left edge (s -> -x) is -X's right column.
  const CubeTexel a = cube_edge_texel(0, 4, 1, 4);
  EXPECT_EQ(a.face, 5u);
  EXPECT_EQ(a.i, 0);
  EXPECT_EQ(a.j, 1);
  const CubeTexel b = cube_edge_texel(2, 0, -1, 4);
  EXPECT_EQ(b.face, 5u);
  EXPECT_EQ(b.i, 3);
  EXPECT_EQ(b.j, 0);
  const CubeTexel c = cube_edge_texel(4, -1, 2, 4);
  EXPECT_EQ(c.face, 1u);
  EXPECT_EQ(c.i, 3);
  EXPECT_EQ(c.j, 2);
  // Every edge texel of every face, against the float face selection of its centre's direction,
  // and the adjacency is symmetric: the neighbour's own out-of-face step comes back.
  const int32_t n = 8;
  for (uint32_t f = 0; f < 6; ++f)
    for (int32_t k = 0; k < n; ++k)
      for (const auto& [i, j] : {std::pair{-1, k}, std::pair{n, k}, std::pair{k, -1}, std::pair{k, n}}) {
        const CubeTexel t = cube_edge_texel(f, i, j, n);
        // The texel centre's direction on face f: (sc, tc) = (2i + 1 - n, 2j + 1 - n) / n, |rc| = 1.
        const float sc = static_cast<float>(2 * i + 1 - n) / n, tc = static_cast<float>(2 * j + 1 - n) / n;
        float d[3];
        switch (f) {
          case 0: d[0] = 1, d[1] = -tc, d[2] = -sc; break;
          case 1: d[0] = -1, d[1] = -tc, d[2] = sc; break;
          case 2: d[0] = sc, d[1] = 1, d[2] = tc; break;
          case 3: d[0] = sc, d[1] = -1, d[2] = -tc; break;
          case 4: d[0] = sc, d[1] = -tc, d[2] = 1; break;
          default: d[0] = -sc, d[1] = -tc, d[2] = -1; break;
        }
        const CubeCoord cc = cube_coord(d[0], d[1], d[2], {});
        ASSERT_EQ(cc.face, t.face) << f << " " << i << " " << j;
        EXPECT_EQ(static_cast<int32_t>(std::floor(cc.s * n)), t.i) << f << " " << i << " " << j;
        EXPECT_EQ(static_cast<int32_t>(std::floor(cc.t * n)), t.j) << f << " " << i << " " << j;
        EXPECT_NE(t.face, f);
      }
}

TEST(Cube, SeamlessLinearAcrossTheCornerOfThreeFaces) {
  const Texture tex = cube_texture(2);
  // Direction (1, 0.75, 0.75): +X, (s, t) = (0.125, 0.125) -> u = v = 0.25, i0 = j0 = -1,
  // alpha = beta = 0.75. Texels: (0, 0) of +X = 0; (-1, 0) is beyond the edge towards +Z: +Z's
  // (1, 0) = 401; (0, -1) towards +Y: +Y's (1, 1) = 211; (-1, -1) is the corner: the average of
  // the three texels around it, (0 + 401 + 211) / 3 = 204.
  // 0.0625 * 204 + 0.1875 * 211 + 0.1875 * 401 + 0.5625 * 0 = 127.5.
  Footprint fp;
  EXPECT_EQ(sample(tex, linear(), direction(1, 0.75f, 0.75f), &fp)[0], 127.5f);
  EXPECT_EQ(fp.first_case, FootprintCase::FourBlocks);
  // One 64 B line per face read (each 2x2 R32F face is one block): +X, +Y, +Z.
  ASSERT_EQ(fp.line_count, 3u);
  EXPECT_EQ(fp.lines[0], tex.address(0, 0, 0, 0).block);
  EXPECT_EQ(fp.lines[1], tex.address(4, 0, 1, 0).block);
  EXPECT_EQ(fp.lines[2], tex.address(2, 0, 1, 1).block);
  // Depth compare (samplerCubeShadow) happens per texel, before the corner average and the
  // filter: LESS with Dref 205 passes for 211 and 401, fails for 0; the corner is 2/3.
  SamplerState shadow = linear();
  shadow.compare_enable = true;
  shadow.compare_op = VK_COMPARE_OP_LESS;
  SampleRequest dref = direction(1, 0.75f, 0.75f);
  dref.has_dref = true;
  dref.dref = 205.0f;
  EXPECT_FLOAT_EQ(sample(tex, shadow, dref, nullptr)[0], 0.0625f * 2 / 3 + 0.1875f + 0.1875f);
  // NEAREST is CLAMP_TO_EDGE within the face; the address modes are ignored.
  SamplerState nearest = linear(VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER);
  nearest.mag_filter = nearest.min_filter = VK_FILTER_NEAREST;
  EXPECT_EQ(sample(tex, nearest, direction(1, 0.75f, 0.75f), nullptr)[0], 0.0f);
  // Its one texel is one probe holding that texel's block (a probe's blocks are those read before
  // it closes).
  Footprint nearest_fp;
  sample(tex, nearest, direction(1, 0.75f, 0.75f), &nearest_fp);
  ASSERT_EQ(nearest_fp.probe_count, 1u);
  EXPECT_EQ(nearest_fp.probes[0].kind, ProbeKind::SingleTexel);
  EXPECT_EQ(nearest_fp.probes[0].block_count, 1u);
  ASSERT_EQ(nearest_fp.block_count, 1u);
  EXPECT_EQ(nearest_fp.blocks[0], tex.address(0, 0, 0, 0).block);
  EXPECT_EQ(sample(tex, linear(VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER), direction(1, 0.75f, 0.75f), nullptr)[0], 127.5f);
  // With VK_SAMPLER_CREATE_NON_SEAMLESS_CUBE_MAP_BIT_EXT the face is sampled alone with the
  // sampler's address modes: clamp to edge gives texel (0, 0) of +X only.
  SamplerState non_seamless = linear();
  non_seamless.non_seamless_cube = true;
  EXPECT_EQ(sample(tex, non_seamless, direction(1, 0.75f, 0.75f), nullptr)[0], 0.0f);
  // Gather of the same footprint, in the spec's order (i0,j1), (i1,j1), (i1,j0), (i0,j0): the
  // edge texel beyond (i0, j1) = (-1, 0) is +Z's 401, (i1, j1) = (0, 0) is 0, (i1, j0) = (0, -1)
  // is +Y's 211, (i0, j0) the corner 204.
  const Rgba g = gather(tex, linear(), direction(1, 0.75f, 0.75f), 0, nullptr);
  EXPECT_EQ(g[0], 401.0f);
  EXPECT_EQ(g[1], 0.0f);
  EXPECT_EQ(g[2], 211.0f);
  EXPECT_EQ(g[3], 204.0f);
}

TEST(Cube, ArraysSelectTheCubeAndLodUsesTheFaceDerivatives) {
  // Two cubes: layers 6..11 are the second cube.
  Texture tex;
  std::string error;
  ASSERT_TRUE(tex.create(VK_FORMAT_R32_SFLOAT, 256, 256, 9, 12, kBase, &error)) << error;
  for (uint32_t layer = 0; layer < 12; ++layer)
    for (uint32_t l = 0; l < 9; ++l) {
      std::vector<float> v(static_cast<size_t>(tex.width(l)) * tex.height(l), static_cast<float>(layer * 10 + l));
      ASSERT_TRUE(tex.upload(l, layer, v.data(), v.size() * 4, &error)) << error;
    }
  SampleRequest r = direction(0, 0, -1);  // -Z: face 5
  r.layer = 6;
  SamplerState s = linear();
  s.mipmap_mode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
  EXPECT_EQ(sample(tex, s, r, nullptr)[0], 110.0f);  // layer 11, level 0
  // Implicit LOD at the centre of -Z: d(s_face)/dx = 0.5 (|rc| d(sc)/dx - sc d|rc|/dx) / rc^2
  // with sc = -rx: d(rx)/dx = -0.1 gives 0.05 -> 12.8 texels per pixel on a 256 face.
  r.explicit_lod = false;
  r.derivatives.dsdx = -0.1f;
  const LodSelection sel = select_lod(tex, s, r);
  // lavapipe's LOD: 0.5 fast_log2(12.8^2 = 163.84 = 1.28 x 2^7) = 0.5 (7 + 0.28) = 3.64.
  EXPECT_FLOAT_EQ(sel.lambda, 3.64f);
  // A derivative of the major axis alone (towards the face) changes nothing at the centre: rho
  // stays 0, 0.5 fast_log2(0) = 0.5 (-127) (zero's exponent field read as 2^-127).
  r.derivatives = {};
  r.derivatives.drdx = 0.3f;
  EXPECT_EQ(select_lod(tex, s, r).lambda, -63.5f);
  // Off centre it does: (rx, ry, rz) = (0.5, 0, -1): sc = -0.5, d|rc|/dx = -d(rz)/dx = -0.3,
  // d(s_face)/dx = 0.5 (1 * 0 - (-0.5)(-0.3)) = -0.075 -> 19.2 texels.
  r.s = 0.5f;
  // 19.2^2 = 368.64 = 1.44 x 2^8: 0.5 (8 + 0.44) = 4.22.
  EXPECT_FLOAT_EQ(select_lod(tex, s, r).lambda, 4.22f);
}

TEST(Texture3D, TrilinearWithinALevelAndAcrossMips) {
  // 2x2x2 R32F level 0 with T(i, j, k) = i + 2 j + 4 k; a 1x1x1 level 1 holding 100.
  Texture tex;
  std::string error;
  ASSERT_TRUE(tex.create(VK_FORMAT_R32_SFLOAT, {2, 2, 2, 2, 1}, kBase, &error)) << error;
  EXPECT_TRUE(tex.is_3d());
  EXPECT_EQ(tex.depth(0), 2u);
  EXPECT_EQ(tex.depth(1), 1u);
  std::vector<float> l0(8);
  for (uint32_t k = 0; k < 2; ++k)
    for (uint32_t j = 0; j < 2; ++j)
      for (uint32_t i = 0; i < 2; ++i) l0[k * 4 + j * 2 + i] = static_cast<float>(i + 2 * j + 4 * k);
  ASSERT_TRUE(tex.upload(0, 0, l0.data(), 32, &error)) << error;
  const float l1 = 100.0f;
  ASSERT_TRUE(tex.upload(1, 0, &l1, 4, &error)) << error;
  // Slices are one 64 B line each (a 2x2 R32F block, padded to the line), level 1 after them.
  EXPECT_EQ(tex.address(0, 0, 1, 1, 1).block, kBase + 64);
  EXPECT_EQ(tex.address(0, 1, 0, 0, 0).block, kBase + 128);
  EXPECT_EQ(tex.texel(0, 0, 1, 0, 1)[0], 5.0f);

  SampleRequest r;
  r.dim = SampleDim::D3;
  r.explicit_lod = true;
  // (s, t, r) = (0.375, 0.625, 0.5): alpha = 0.25, beta = 0.75, gamma = 0.5; trilinear of a linear
  // function is its value: 0.25 + 2 * 0.75 + 4 * 0.5 = 3.75.
  r.s = 0.375f;
  r.t = 0.625f;
  r.r = 0.5f;
  Footprint fp;
  EXPECT_EQ(sample(tex, linear(), r, &fp)[0], 3.75f);
  EXPECT_EQ(fp.probe_count, 2u);  // one bilinear probe per slice
  ASSERT_EQ(fp.line_count, 2u);
  EXPECT_EQ(fp.lines[0], kBase);
  EXPECT_EQ(fp.lines[1], kBase + 64);
  // w wraps with addressModeW: r = 1 -> w = 2, w - 0.5 = 1.5 -> slices 1 and 2, gamma = 0.5;
  // REPEAT makes slice 2 slice 0, CLAMP_TO_EDGE slice 1, CLAMP_TO_BORDER the border.
  r.r = 1.0f;
  const float slice0 = 0.25f + 2 * 0.75f, slice1 = slice0 + 4;
  EXPECT_EQ(sample(tex, linear(VK_SAMPLER_ADDRESS_MODE_REPEAT), r, nullptr)[0], 0.5f * slice1 + 0.5f * slice0);
  EXPECT_EQ(sample(tex, linear(VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE), r, nullptr)[0], slice1);
  SamplerState w_border = linear(VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE);
  w_border.address_w = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;  // transparent black: R = 0
  EXPECT_EQ(sample(tex, w_border, r, nullptr)[0], 0.5f * slice1);
  // NEAREST picks k = floor(w): r = 0.75 -> w = 1.5 -> slice 1.
  r.r = 0.75f;
  SamplerState nearest;
  nearest.address_u = nearest.address_v = nearest.address_w = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  EXPECT_EQ(sample(tex, nearest, r, nullptr)[0], 0 + 2 * 1 + 4 * 1);  // (0.375, 0.625) -> (0, 1)
  // Trilinear across mips: lod 0.5 blends level 0 (3.75) and level 1 (100) half and half.
  r.r = 0.5f;
  r.lod = 0.5f;
  SamplerState mip = linear();
  mip.mipmap_mode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
  EXPECT_EQ(sample(tex, mip, r, &fp)[0], 0.5f * 3.75f + 0.5f * 100.0f);
  EXPECT_EQ(fp.level_count, 2u);
  EXPECT_EQ(fp.probe_count, 4u);
  // Implicit LOD counts the depth: |dr/dx| * depth = 2 * 2 = 4 texels per pixel -> lambda 2.
  r.explicit_lod = false;
  r.derivatives.drdx = 2.0f;
  EXPECT_FLOAT_EQ(select_lod(tex, mip, r).lambda, 2.0f);
  // Fetch reads (x, y, z); beyond the depth is zero.
  EXPECT_EQ(fetch(tex, 0, 0, 1, 1, 1, nullptr)[0], 7.0f);
  EXPECT_EQ(fetch(tex, 0, 0, 1, 1, 2, nullptr)[0], 0.0f);
}

TEST(Texture1D, OnlyTheFirstCoordinateFilters) {
  // A 4x1 R32F row; CLAMP_TO_BORDER in v must not blend the border in (1D has no v).
  Texture tex;
  std::string error;
  ASSERT_TRUE(tex.create(VK_FORMAT_R32_SFLOAT, 4, 1, 1, 1, kBase, &error)) << error;
  const float row[4] = {1, 2, 3, 4};
  ASSERT_TRUE(tex.upload(0, 0, row, 16, &error)) << error;
  SampleRequest r;
  r.dim = SampleDim::D1;
  r.explicit_lod = true;
  r.s = 0.25f;  // u = 1 -> texels 0 and 1 half each
  EXPECT_EQ(sample(tex, linear(VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER), r, nullptr)[0], 1.5f);
}

TEST(Texture3D, AnisotropicSamplesTakeTheTextureUnitsProbes) {
  // lavapipe's EWA is not run for 3D: the texture unit's filter gives colour and footprint. A
  // 16x16x16 R32F single level with T(i, j, k) = i; x step 4 texels, y step 1 (maxAnisotropy 4):
  // eta = 4, N = 4 probes at u = 8 + (-1.5, -0.5, 0.5, 1.5) texels, lambda = log2(4 / 4) = 0.
  // Each probe is bilinear in two slices (w = 8: slices 7 and 8) -> 8 probe records; bilinear
  // at u = 6.5 .. 9.5 reads 6 .. 9 (texel centres at i + 0.5), which average 7.5.
  Texture tex;
  std::string error;
  ASSERT_TRUE(tex.create(VK_FORMAT_R32_SFLOAT, {16, 16, 16, 1, 1}, kBase, &error)) << error;
  std::vector<float> l0(16 * 16 * 16);
  for (uint32_t z = 0; z < 16; ++z)
    for (uint32_t y = 0; y < 16; ++y)
      for (uint32_t x = 0; x < 16; ++x) l0[(z * 16 + y) * 16 + x] = static_cast<float>(x);
  ASSERT_TRUE(tex.upload(0, 0, l0.data(), l0.size() * 4, &error)) << error;
  SamplerState s = linear();
  s.anisotropy_enable = true;
  s.max_anisotropy = 4.0f;
  SampleRequest r;
  r.dim = SampleDim::D3;
  r.s = r.t = r.r = 0.5f;
  r.derivatives.dsdx = 4.0f / 16;
  r.derivatives.dtdy = 1.0f / 16;
  Footprint fp;
  EXPECT_FLOAT_EQ(sample(tex, s, r, &fp)[0], 7.5f);
  EXPECT_EQ(fp.probe_count, 8u);
  EXPECT_EQ(fp.dropped, 0u);
}
