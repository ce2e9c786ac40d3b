// Texture samples taken in vertex shaders: VertexTexture events ahead of their batch's
// VertexShade, one per invocation sample, with the exact lines of the blocked layout.
#include <gtest/gtest.h>

#include <vector>

#include "render_test_util.h"
#include "tessera/render/renderer.h"

namespace tessera::render {
namespace {

using testing::TexturedVertex;
using Rgba8 = std::array<uint8_t, 4>;

constexpr uint32_t kW = 32, kH = 32;
constexpr uint64_t kTexture = 0x7000000;

struct Decoded {
  std::vector<stream::Event> events;
  std::vector<std::vector<uint64_t>> lines;
};

Decoded decode(const std::vector<uint8_t>& bytes) {
  Decoded d;
  stream::StreamReader reader(bytes);
  stream::Event e;
  while (reader.next(e)) {
    d.events.push_back(e);
    d.lines.emplace_back(e.lines.begin(), e.lines.end());
  }
  EXPECT_EQ(reader.error(), "");
  return d;
}

class VertexTextureTest : public ::testing::Test {
 protected:
  // 8x8 RGBA8 texture, texel (x, y) = (32 x, 32 y, 7, 255); NEAREST, clamp to edge.
  frontend::Draw draw(const std::vector<TexturedVertex>& v) {
    frontend::Image* tex = scene.image(VK_FORMAT_R8G8B8A8_UNORM, 8, 8, 4, kTexture);
    for (uint32_t y = 0; y < 8; ++y)
      for (uint32_t x = 0; x < 8; ++x) {
        uint8_t* p = tex->planes[0].data() + (y * 8 + x) * 4;
        p[0] = static_cast<uint8_t>(32 * x);
        p[1] = static_cast<uint8_t>(32 * y);
        p[2] = 7;
        p[3] = 255;
      }
    frontend::Draw d = testing::textured_draw(scene.buffer(v.data(), v.size() * sizeof(TexturedVertex), 0x20000),
                                              static_cast<uint32_t>(v.size()), kW, kH);
    d.stages[0] = testing::stage("vertex_sampled.vert");
    d.stages[1] = testing::stage("color.frag");
    frontend::DescriptorBinding binding;
    binding.type = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    binding.elements.push_back({scene.view(tex), scene.nearest_sampler(), nullptr, 0, 0});
    d.descriptors.push_back(binding);
    return d;
  }
  // The 64 B line of texel (x, y) in the blocked layout: 4x4 RGBA8 texels per line, 2 blocks a row.
  static uint64_t line(uint32_t x, uint32_t y) { return kTexture + ((y / 4) * 2 + x / 4) * 64; }
  static float uv(uint32_t texel) { return (static_cast<float>(texel) + 0.5f) / 8.0f; }

  testing::Scene scene;
  stream::StreamWriter writer;
  Renderer renderer{&writer};
  frontend::SkipCounts skipped;
};

TEST_F(VertexTextureTest, EachVertexSampleIsAnEventBeforeItsBatch) {
  frontend::Image* img = scene.image(VK_FORMAT_R8G8B8A8_UNORM, kW, kH, 4, 0x100000);
  auto p = testing::pass(kW, kH, scene.view(img), VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE);
  // Upper-right triangle: every vertex reads texel (1, 1); lower-left: texel (5, 6).
  const auto v = [](float x, float y, uint32_t tx, uint32_t ty) {
    return TexturedVertex{{x, y, 0.5f, 1}, {uv(tx), uv(ty)}};
  };
  p.commands.push_back(draw({v(-1, -1, 1, 1), v(1, -1, 1, 1), v(1, 1, 1, 1),
                             v(-1, -1, 5, 6), v(1, 1, 5, 6), v(-1, 1, 5, 6)}));
  writer.frame_begin(1, kW, kH);
  renderer.render_pass(p, skipped);
  writer.frame_end();
  ASSERT_EQ(skipped.total(), 0u);
  EXPECT_EQ(testing::rgba8(*img, 28, 2), (Rgba8{32, 32, 7, 255}));
  EXPECT_EQ(testing::rgba8(*img, 2, 28), (Rgba8{160, 192, 7, 255}));

  const Decoded d = decode(writer.finish());
  // FrameBegin, PassBegin, Draw, 12 VertexFetch (2 attributes x 6), 6 VertexTexture, VertexShade.
  ASSERT_GE(d.events.size(), 22u);
  EXPECT_EQ(d.events[2].kind, stream::EventKind::Draw);
  for (uint32_t lane = 0; lane < 6; ++lane) {
    const stream::Event& e = d.events[15 + lane];
    ASSERT_EQ(e.kind, stream::EventKind::VertexTexture) << lane;
    EXPECT_EQ(e.u[0], lane);
    EXPECT_EQ(e.u[1], 0u);  // mip level
    EXPECT_EQ(e.u[2], 1u);  // FootprintCase::SingleBlock
    EXPECT_EQ(e.u[3], 1u);  // one NEAREST probe
    EXPECT_EQ(d.lines[15 + lane], (std::vector<uint64_t>{lane < 3 ? line(1, 1) : line(5, 6)})) << lane;
  }
  EXPECT_EQ(d.events[21].kind, stream::EventKind::VertexShade);
  EXPECT_EQ(d.events[21].u[0], 6u);
  EXPECT_EQ(renderer.frame_stats().vertex_texture_samples, 6u);
  EXPECT_EQ(renderer.frame_stats().vertex_texture_lines, 6u);
  EXPECT_EQ(renderer.frame_stats().texture_samples, 0u);  // the fragment shader samples nothing
}

TEST_F(VertexTextureTest, BatchesOf64LanesEachCarryTheirOwnSamples) {
  frontend::Image* img = scene.image(VK_FORMAT_R8G8B8A8_UNORM, kW, kH, 4, 0x100000);
  auto p = testing::pass(kW, kH, scene.view(img), VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE);
  // 66 vertices (22 triangles, all inside pixel (0, 0)'s corner, none covering a pixel centre):
  // vertex i reads texel (i % 8, i / 8 % 8).
  std::vector<TexturedVertex> verts;
  for (uint32_t i = 0; i < 66; ++i) {
    const float x = i % 3 == 1 ? -0.99f : -1.0f, y = i % 3 == 2 ? -0.99f : -1.0f;
    verts.push_back({{x, y, 0.5f, 1}, {uv(i % 8), uv(i / 8 % 8)}});
  }
  p.commands.push_back(draw(verts));
  renderer.render_pass(p, skipped);
  ASSERT_EQ(skipped.total(), 0u);
  const Decoded d = decode(writer.finish());
  std::vector<uint32_t> shade_sizes;
  std::vector<std::pair<uint32_t, uint64_t>> pending;  // (lane, line) since the last VertexShade
  uint32_t vertex = 0;
  for (size_t i = 0; i < d.events.size(); ++i) {
    const stream::Event& e = d.events[i];
    if (e.kind == stream::EventKind::VertexTexture) {
      ASSERT_EQ(d.lines[i].size(), 1u);
      pending.emplace_back(e.u[0], d.lines[i][0]);
    } else if (e.kind == stream::EventKind::VertexShade) {
      ASSERT_EQ(pending.size(), e.u[0]);
      for (uint32_t lane = 0; lane < e.u[0]; ++lane, ++vertex) {
        EXPECT_EQ(pending[lane].first, lane);
        EXPECT_EQ(pending[lane].second, line(vertex % 8, vertex / 8 % 8)) << vertex;
      }
      shade_sizes.push_back(e.u[0]);
      pending.clear();
    }
  }
  EXPECT_EQ(shade_sizes, (std::vector<uint32_t>{64, 2}));
  EXPECT_EQ(renderer.frame_stats().vertex_texture_samples, 66u);
  EXPECT_EQ(renderer.frame_stats().vertex_texture_lines, 66u);
}

}  // namespace
}  // namespace tessera::render
