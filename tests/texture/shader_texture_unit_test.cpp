// The texture unit behind the SPIR-V interpreter: a GLSL fragment shader samples a mip chain
// through ShaderTextureUnit; the LOD comes from the quad derivatives the interpreter computes.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <vector>

#include "tessera/shader/shader_module.h"
#include "tessera/texture/shader_texture_unit.h"

using namespace tessera;
using namespace tessera::texture;

namespace {

std::vector<uint32_t> read_spirv() {
  std::ifstream f(TESSERA_TEXTURE_SPV, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  std::vector<uint32_t> words(bytes.size() / 4);
  if (!words.empty()) std::memcpy(words.data(), bytes.data(), words.size() * 4);
  return words;
}

float out_f(const shader::LaneBatch& b, uint32_t location, uint32_t component, uint32_t lane) {
  return std::bit_cast<float>(b.outputs[location * 4 + component][lane]);
}

}  // namespace

TEST(ShaderTextureUnit, GlslSamplingThroughTheInterpreter) {
  const std::vector<uint32_t> words = read_spirv();
  ASSERT_FALSE(words.empty());
  std::string error;
  auto module = shader::ShaderModule::create(words, "main", shader::Stage::Fragment, {}, error);
  ASSERT_NE(module, nullptr) << error;
  ASSERT_EQ(module->resources().size(), 1u);

  // 256x256 R32F, 9 levels; every texel of level l holds the value l, so a trilinear sample
  // returns d' exactly.
  Texture tex;
  ASSERT_TRUE(tex.create(VK_FORMAT_R32_SFLOAT, 256, 256, 9, 1, 0x200000, &error)) << error;
  for (uint32_t l = 0; l < 9; ++l) {
    std::vector<float> level(static_cast<size_t>(tex.width(l)) * tex.height(l), static_cast<float>(l));
    ASSERT_TRUE(tex.upload(l, 0, level.data(), level.size() * 4, &error)) << error;
  }
  SamplerState smp;
  smp.mag_filter = smp.min_filter = VK_FILTER_LINEAR;
  smp.mipmap_mode = VK_SAMPLER_MIPMAP_MODE_LINEAR;

  ShaderTextureUnit unit;
  unit.bind_texture(0, 0, &tex);
  unit.bind_sampler(0, 0, &smp);
  std::vector<std::pair<uint32_t, Footprint>> seen;
  unit.set_footprint_sink([&](uint32_t lane, const Footprint& fp) { seen.emplace_back(lane, fp); });

  auto batch = std::make_unique<shader::LaneBatch>();
  std::memset(static_cast<void*>(batch.get()), 0, sizeof(shader::LaneBatch));
  batch->lane_count = 8;
  // Quad 0 at pixel (0, 0) with uv = pixel * 4 / 256 (4 texels per pixel: lambda = 2);
  // quad 1 at pixel (8, 8) with uv = pixel * 11.3137 / 256 (lambda = log2(11.3137) = 3.5).
  const float scale[2] = {4.0f / 256, 11.313708f / 256};
  for (uint32_t l = 0; l < 8; ++l) {
    const uint32_t q = l / 4, k = l % 4;
    const float x = static_cast<float>(q * 8 + (k & 1u)) + 0.5f;
    const float y = static_cast<float>(q * 8 + (k >> 1)) + 0.5f;
    batch->frag_coord[0][l] = x;
    batch->frag_coord[1][l] = y;
    batch->inputs[0][l] = std::bit_cast<uint32_t>(x * scale[q]);
    batch->inputs[1][l] = std::bit_cast<uint32_t>(y * scale[q]);
  }
  shader::ShaderExecutor exec(*module);
  shader::Bindings bindings;
  bindings.sampler = &unit;
  ASSERT_TRUE(exec.execute(*batch, bindings, error)) << error;

  for (uint32_t l = 0; l < 8; ++l) {
    EXPECT_NEAR(out_f(*batch, 0, 0, l), l < 4 ? 2.0f : 3.5f, 1e-4f) << "lane " << l;
    EXPECT_EQ(out_f(*batch, 1, 0, l), 64.0f);  // textureSize(tex, 2)
    EXPECT_EQ(out_f(*batch, 1, 1, l), 64.0f);
    EXPECT_EQ(out_f(*batch, 1, 2, l), 9.0f);   // textureQueryLevels
    EXPECT_EQ(out_f(*batch, 1, 3, l), 1.0f);   // texelFetch(.., 1): level 1 holds 1
  }
  // One footprint per lane for texture() and one for texelFetch(); queries read no memory.
  ASSERT_EQ(seen.size(), 16u);
  EXPECT_EQ(unit.lanes_sampled(), 16u);
  EXPECT_EQ(unit.unbound_requests(), 0u);
  const Footprint& first = seen[0].second;  // lane 0, texture(): level 2 only (d' = 2)
  EXPECT_EQ(seen[0].first, 0u);
  EXPECT_EQ(first.level_count, 1u);
  EXPECT_EQ(first.levels[0], 2u);
  // u = 0.5 * 4 / 256 * 64 = 0.5 on level 2: texels 0 and 1 in both axes, one block.
  EXPECT_EQ(first.first_case, FootprintCase::SingleBlock);
  ASSERT_EQ(first.line_count, 1u);
  EXPECT_EQ(first.lines[0], tex.address(0, 2, 0, 0).block);
  const Footprint& fifth = seen[4].second;  // lane 4: trilinear between levels 3 and 4
  EXPECT_EQ(fifth.level_count, 2u);
  EXPECT_EQ(fifth.levels[0], 3u);
  EXPECT_EQ(fifth.levels[1], 4u);
  const Footprint& fetch_fp = seen[8].second;  // texelFetch(ivec2(3, 1), 1)
  ASSERT_EQ(fetch_fp.line_count, 1u);
  EXPECT_EQ(fetch_fp.lines[0], tex.address(0, 1, 3, 1).byte / 64 * 64);

  // An unbound image gives zeros and is counted, never a crash.
  ShaderTextureUnit empty;
  bindings.sampler = &empty;
  ASSERT_TRUE(exec.execute(*batch, bindings, error)) << error;
  EXPECT_EQ(out_f(*batch, 0, 0, 0), 0.0f);
  EXPECT_GT(empty.unbound_requests(), 0u);
}

TEST(ShaderTextureUnit, ArrayLayersFetchQueriesAndUnsupportedDims) {
  // 4x4 R32F, 2 layers: layer a holds 10 * a + x.
  Texture tex;
  std::string error;
  ASSERT_TRUE(tex.create(VK_FORMAT_R32_SFLOAT, 4, 4, 1, 2, 0, &error)) << error;
  for (uint32_t a = 0; a < 2; ++a) {
    std::vector<float> v(16);
    for (uint32_t i = 0; i < 16; ++i) v[i] = static_cast<float>(10 * a + i % 4);
    ASSERT_TRUE(tex.upload(0, a, v.data(), 64, &error)) << error;
  }
  SamplerState smp;  // nearest
  ShaderTextureUnit unit;
  unit.bind_texture(3, 0, &tex);
  unit.bind_sampler(3, 0, &smp);
  uint32_t lines = 0;
  unit.set_footprint_sink([&](uint32_t, const Footprint& fp) { lines += fp.line_count; });

  uint32_t o[4][4] = {};
  uint32_t* const out[4] = {o[0], o[1], o[2], o[3]};
  const float s[2] = {0.625f, 0.125f}, t[2] = {0.5f, 0.5f}, layer[2] = {1.4f, 7.0f};
  shader::ImageRequest r;
  r.op = shader::ImageOp::SampleExplicitLod;
  r.arrayed = true;
  r.image_resource = r.sampler_resource = 3;
  r.lane_count = 2;
  r.active = 3;
  r.coord_components = 3;
  r.coord[0] = s;
  r.coord[1] = t;
  r.coord[2] = layer;
  const float lod[2] = {0, 0};
  r.lod = lod;
  unit.execute(r, out);
  EXPECT_EQ(std::bit_cast<float>(o[0][0]), 12.0f);  // layer round(1.4) = 1, texel x = 2
  EXPECT_EQ(std::bit_cast<float>(o[0][1]), 10.0f);  // layer 7 clamps to 1, texel x = 0
  EXPECT_EQ(lines, 2u);

  const int32_t ix[2] = {3, 4}, iy[2] = {0, 0}, ia[2] = {0, 0}, ilod[2] = {0, 0};
  shader::ImageRequest f = r;
  f.op = shader::ImageOp::Fetch;
  f.icoord[0] = ix;
  f.icoord[1] = iy;
  f.icoord[2] = ia;
  f.ilod = ilod;
  unit.execute(f, out);
  EXPECT_EQ(std::bit_cast<float>(o[0][0]), 3.0f);
  EXPECT_EQ(std::bit_cast<float>(o[0][1]), 0.0f);  // x = 4 is outside: zero
  EXPECT_EQ(lines, 3u);

  shader::ImageRequest q = r;
  q.op = shader::ImageOp::QuerySizeLod;
  q.ilod = ilod;
  unit.execute(q, out);
  EXPECT_EQ(o[0][0], 4u);
  EXPECT_EQ(o[1][0], 4u);
  EXPECT_EQ(o[2][0], 2u);  // layers

  shader::ImageRequest cube = r;
  cube.dim = shader::ImageDim::Cube;
  o[0][0] = 77;
  unit.execute(cube, out);
  EXPECT_EQ(o[0][0], 0u);
  EXPECT_EQ(unit.unsupported_requests(), 1u);
  EXPECT_EQ(unit.lanes_sampled(), 4u);  // 2 samples + 2 fetches; size queries read no texels

  shader::ImageRequest unbound = r;
  unbound.image_resource = 9;
  unit.execute(unbound, out);
  EXPECT_EQ(unit.unbound_requests(), 1u);
}

TEST(ShaderTextureUnit, LayerRoundingCubeAnd3DRequests) {
  // 1x1 R32F, 4 layers holding their index: layer = clamp(RNE(a), 0, 3) (spec "Array Layer
  // Selection"); RNE rounds halves to even.
  Texture layers;
  std::string error;
  ASSERT_TRUE(layers.create(VK_FORMAT_R32_SFLOAT, 1, 1, 1, 4, 0, &error)) << error;
  for (uint32_t a = 0; a < 4; ++a) {
    const float v = static_cast<float>(a);
    ASSERT_TRUE(layers.upload(0, a, &v, 4, &error)) << error;
  }
  SamplerState smp;
  ShaderTextureUnit unit;
  unit.bind_texture(0, 0, &layers);
  unit.bind_sampler(0, 0, &smp);
  uint32_t o[4][8] = {};
  uint32_t* const out[4] = {o[0], o[1], o[2], o[3]};
  const float a[8] = {-3.0f, 0.5f, 1.5f, 2.5f, 9.0f, 1.49f, 0.51f, NAN};
  const float zero[8] = {};
  shader::ImageRequest r;
  r.op = shader::ImageOp::SampleExplicitLod;
  r.arrayed = true;
  r.lane_count = 8;
  r.active = 0xff;
  r.coord[0] = r.coord[1] = zero;
  r.coord[2] = a;
  r.lod = zero;
  unit.execute(r, out);
  const float want[8] = {0, 0, 2, 2, 3, 1, 1, 0};
  for (uint32_t l = 0; l < 8; ++l) EXPECT_EQ(std::bit_cast<float>(o[0][l]), want[l]) << "lane " << l;

  // A cube array through the adapter: 2 cubes of 1x1 faces, face f of cube c holds 10 c + f.
  Texture cubes;
  ASSERT_TRUE(cubes.create(VK_FORMAT_R32_SFLOAT, 1, 1, 1, 12, 0, &error)) << error;
  for (uint32_t layer = 0; layer < 12; ++layer) {
    const float v = static_cast<float>(10 * (layer / 6) + layer % 6);
    ASSERT_TRUE(cubes.upload(0, layer, &v, 4, &error)) << error;
  }
  unit.bind_texture(1, 0, &cubes);
  unit.bind_sampler(1, 0, &smp);
  const float x[2] = {0.0f, -1.0f}, y[2] = {-1.0f, 0.2f}, z[2] = {0.5f, 0.3f}, cube_index[2] = {1.0f, 0.0f};
  shader::ImageRequest c = r;
  c.image_resource = c.sampler_resource = 1;
  c.dim = shader::ImageDim::Cube;
  c.lane_count = 2;
  c.active = 3;
  c.coord[0] = x;
  c.coord[1] = y;
  c.coord[2] = z;
  c.coord[3] = cube_index;
  unit.execute(c, out);
  EXPECT_EQ(std::bit_cast<float>(o[0][0]), 13.0f);  // -Y of cube 1
  EXPECT_EQ(std::bit_cast<float>(o[0][1]), 1.0f);   // -X of cube 0
  shader::ImageRequest size = c;
  size.op = shader::ImageOp::QuerySizeLod;
  const int32_t ilod[2] = {0, 0};
  size.ilod = ilod;
  unit.execute(size, out);
  EXPECT_EQ(o[0][0], 1u);
  EXPECT_EQ(o[1][0], 1u);
  EXPECT_EQ(o[2][0], 2u);  // cubes, not faces
  EXPECT_EQ(unit.unsupported_requests(), 0u);

  // 3D: texelFetch(ivec3) and textureSize = (w, h, d); a 2D request on it is counted.
  Texture volume;
  ASSERT_TRUE(volume.create(VK_FORMAT_R32_SFLOAT, {2, 1, 3, 1, 1}, 0, &error)) << error;
  const float slices[6] = {0, 1, 10, 11, 20, 21};
  ASSERT_TRUE(volume.upload(0, 0, slices, 24, &error)) << error;
  unit.bind_texture(2, 0, &volume);
  const int32_t ix[2] = {1, 0}, iy[2] = {0, 0}, iz[2] = {2, 1};
  shader::ImageRequest f;
  f.op = shader::ImageOp::Fetch;
  f.dim = shader::ImageDim::Dim3D;
  f.image_resource = 2;
  f.lane_count = 2;
  f.active = 3;
  f.icoord[0] = ix;
  f.icoord[1] = iy;
  f.icoord[2] = iz;
  f.ilod = ilod;
  unit.execute(f, out);
  EXPECT_EQ(std::bit_cast<float>(o[0][0]), 21.0f);
  EXPECT_EQ(std::bit_cast<float>(o[0][1]), 10.0f);
  f.op = shader::ImageOp::QuerySizeLod;
  unit.execute(f, out);
  EXPECT_EQ(o[0][0], 2u);
  EXPECT_EQ(o[1][0], 1u);
  EXPECT_EQ(o[2][0], 3u);
  f.op = shader::ImageOp::Fetch;
  f.dim = shader::ImageDim::Dim2D;
  unit.execute(f, out);
  EXPECT_EQ(unit.unsupported_requests(), 1u);
}

// Paper 002 section 3: a texel-buffer fetch whose index came from an earlier sample's result cannot
// be computed ahead of execution: its footprint carries the request's dependent mark (as an image
// sample's does), so DAE leaves it to the demand access; an independent fetch's does not.
TEST(ShaderTextureUnit, TexelBufferFetchCarriesTheDependentMark) {
  std::vector<float> data(16, 1.0f);  // 4 RGBA32F texels
  ShaderTextureUnit::TexelBuffer view;
  ASSERT_TRUE(format_info(VK_FORMAT_R32G32B32A32_SFLOAT, &view.format));
  view.data = reinterpret_cast<const uint8_t*>(data.data());
  view.size = data.size() * sizeof(float);
  view.address = 0x20000;
  ShaderTextureUnit unit;
  unit.bind_texel_buffer(0, 0, view);
  std::vector<bool> dependent;
  unit.set_footprint_sink([&](uint32_t, const Footprint& fp) {
    if (fp.line_count == 1) dependent.push_back(fp.dependent);
  });
  uint32_t o[4][2] = {};
  uint32_t* const out[4] = {o[0], o[1], o[2], o[3]};
  const int32_t index[2] = {0, 3};
  shader::ImageRequest f;
  f.op = shader::ImageOp::Fetch;
  f.dim = shader::ImageDim::Buffer;
  f.lane_count = 2;
  f.active = 3;
  f.icoord[0] = index;
  f.dependent = true;
  unit.execute(f, out);
  f.dependent = false;
  unit.execute(f, out);
  EXPECT_EQ(dependent, (std::vector<bool>{true, true, false, false}));
}

// A uniform texel buffer (GLSL texelFetch on a samplerBuffer): texel i of the view, decoded by
// the view's format; outside the view zeros; the size query gives the texel count; each fetch's
// footprint is the 64 B line of its texel in the simulated address space.
TEST(ShaderTextureUnit, TexelBufferFetchesAndSizeQuery) {
  // 10 RGBA32F texels of 16 B each, texel i = (i, 2i, 3i, 4i), viewed from byte 32 (texel 2 on).
  std::vector<float> data(40);
  for (uint32_t i = 0; i < 10; ++i)
    for (uint32_t c = 0; c < 4; ++c) data[i * 4 + c] = static_cast<float>((c + 1) * i);
  ShaderTextureUnit::TexelBuffer view;
  ASSERT_TRUE(format_info(VK_FORMAT_R32G32B32A32_SFLOAT, &view.format));
  view.data = reinterpret_cast<const uint8_t*>(data.data()) + 32;
  view.size = 8 * 16;
  view.address = 0x10000 + 32;
  ShaderTextureUnit unit;
  unit.bind_texel_buffer(2, 1, view);
  std::vector<uint64_t> lines;
  uint32_t single_texel_probes = 0;
  unit.set_footprint_sink([&](uint32_t, const Footprint& fp) {
    for (uint32_t k = 0; k < fp.line_count; ++k) lines.push_back(fp.lines[k]);
    for (uint32_t k = 0; k < fp.probe_count; ++k) {
      single_texel_probes += fp.probes[k].kind == ProbeKind::SingleTexel && fp.probes[k].block_count == 1;
    }
  });

  uint32_t o[4][3] = {};
  uint32_t* const out[4] = {o[0], o[1], o[2], o[3]};
  const int32_t index[3] = {0, 5, 8};
  shader::ImageRequest f;
  f.op = shader::ImageOp::Fetch;
  f.dim = shader::ImageDim::Buffer;
  f.image_resource = f.sampler_resource = 2;
  f.array_element = 1;
  f.lane_count = 3;
  f.active = 7;
  f.icoord[0] = index;
  unit.execute(f, out);
  for (uint32_t c = 0; c < 4; ++c) {
    EXPECT_EQ(std::bit_cast<float>(o[c][0]), static_cast<float>((c + 1) * 2));  // view texel 0 = buffer texel 2
    EXPECT_EQ(std::bit_cast<float>(o[c][1]), static_cast<float>((c + 1) * 7));
    EXPECT_EQ(o[c][2], 0u);  // view texel 8 is past the view's 8 texels
  }
  // Texel 0 of the view at 0x10020 (line 0x10000), texel 5 at 0x10070 (line 0x10040).
  EXPECT_EQ(lines, (std::vector<uint64_t>{0x10000, 0x10040}));
  EXPECT_EQ(single_texel_probes, 2u);  // the texel outside the view reads no memory: no probe
  EXPECT_EQ(unit.lanes_sampled(), 3u);

  shader::ImageRequest q = f;
  q.op = shader::ImageOp::QuerySize;
  unit.execute(q, out);
  EXPECT_EQ(o[0][0], 8u);

  // A sample (not a fetch) on a texel buffer is invalid SPIR-V for Dim Buffer: counted, zeros.
  shader::ImageRequest s = f;
  s.op = shader::ImageOp::SampleExplicitLod;
  unit.execute(s, out);
  EXPECT_EQ(unit.unsupported_requests(), 1u);
  shader::ImageRequest unbound = f;
  unbound.array_element = 0;
  unit.execute(unbound, out);
  EXPECT_EQ(unit.unbound_requests(), 1u);
}
