// Renderer tests on constructed passes: exact pixels for clears, coverage, depth, discard,
// texturing, blending, sRGB, load/store ops, render to texture, flat shading, clears in a pass.
#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <set>

#include "render_test_util.h"
#include "tessera/render/renderer.h"

namespace tessera::render {
namespace {

using testing::ColorVertex;
using testing::ndc;
using testing::TexturedVertex;
using Rgba8 = std::array<uint8_t, 4>;

constexpr uint32_t kW = 64, kH = 48;  // 2 x 2 tiles of 32 x 32, the bottom row clipped to 16

class RendererTest : public ::testing::Test {
 protected:
  // Two triangles covering pixels [x0, x1) x [y0, y1) at depth z.
  static std::vector<ColorVertex> rect(float x0, float y0, float x1, float y1, std::array<float, 4> c,
                                       float z = 0.5f, uint32_t w = kW, uint32_t h = kH) {
    const float l = ndc(x0, static_cast<float>(w)), r = ndc(x1, static_cast<float>(w));
    const float t = ndc(y0, static_cast<float>(h)), b = ndc(y1, static_cast<float>(h));
    const auto v = [&](float x, float y) { return ColorVertex{{x, y, z, 1}, {c[0], c[1], c[2], c[3]}}; };
    return {v(l, t), v(r, t), v(r, b), v(l, t), v(r, b), v(l, b)};
  }
  frontend::Buffer* vb(const std::vector<ColorVertex>& v) {
    return scene.buffer(v.data(), v.size() * sizeof(ColorVertex), 0x10000 + 0x1000 * ++buffers);
  }
  frontend::Image* target(uint32_t format = VK_FORMAT_R8G8B8A8_UNORM, uint32_t w = kW, uint32_t h = kH) {
    return scene.image(format, w, h, 4, 0x100000 * ++images);
  }
  void render(const frontend::RenderPassInstance& p) { renderer.render_pass(p, skipped); }
  static void expect_all(const frontend::Image& img, Rgba8 want) {
    for (uint32_t y = 0; y < img.height; ++y)
      for (uint32_t x = 0; x < img.width; ++x) ASSERT_EQ(testing::rgba8(img, x, y), want) << x << "," << y;
  }

  testing::Scene scene;
  stream::StreamWriter writer;
  Renderer renderer{&writer};
  frontend::SkipCounts skipped;
  uint32_t buffers = 0, images = 0;
};

TEST_F(RendererTest, ClearLoadOpFillsTheRenderArea) {
  frontend::Image* img = target();
  auto p = testing::pass(kW, kH, scene.view(img), VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE);
  p.attachments[0].clear = testing::clear_color(0.2f, 0.4f, 0.6f, 1.0f);
  const uint64_t generation = img->generation;
  render(p);
  expect_all(*img, {51, 102, 153, 255});
  EXPECT_EQ(img->generation, generation + 1);
  EXPECT_EQ(skipped.total(), 0u);
  EXPECT_EQ(renderer.frame_stats().tiles, 4u);
  EXPECT_EQ(renderer.frame_stats().attachment_stores, uint64_t{kH} * 2);  // one per tile row
  EXPECT_EQ(renderer.frame_stats().attachment_loads, 0u);                 // CLEAR reads nothing
}

TEST_F(RendererTest, FullScreenTriangleCoversEveryPixel) {
  frontend::Image* img = target();
  auto p = testing::pass(kW, kH, scene.view(img), VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE);
  const std::vector<ColorVertex> v = {{{-1, -1, 0.5f, 1}, {1, 0, 0, 1}}, {{3, -1, 0.5f, 1}, {1, 0, 0, 1}},
                                      {{-1, 3, 0.5f, 1}, {1, 0, 0, 1}}};
  p.commands.push_back(testing::color_draw("color.vert", "color.frag", vb(v), 3, kW, kH));
  render(p);
  expect_all(*img, {255, 0, 0, 255});
  EXPECT_EQ(renderer.frame_stats().fragments, uint64_t{kW} * kH);
  EXPECT_EQ(renderer.frame_stats().fragments_shaded, uint64_t{kW} * kH);
  EXPECT_EQ(renderer.frame_stats().pixels_written, uint64_t{kW} * kH);
}

// Four triangles fanned around an off-centre point: with additive blending a pixel hit twice
// would read 102 and a missed one 0 (top-left rule, Vulkan "Basic Polygon Rasterization").
TEST_F(RendererTest, TrianglesSharingEdgesCoverEachPixelExactlyOnce) {
  frontend::Image* img = target();
  auto p = testing::pass(kW, kH, scene.view(img), VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE);
  const float cx = ndc(23.37f, kW), cy = ndc(29.61f, kH);
  const std::array<float, 4> c = {0.2f, 0.2f, 0.2f, 0.2f};
  const auto v = [&](float x, float y) { return ColorVertex{{x, y, 0.5f, 1}, {c[0], c[1], c[2], c[3]}}; };
  const std::vector<ColorVertex> verts = {v(-1, -1), v(1, -1), v(cx, cy), v(1, -1), v(1, 1), v(cx, cy),
                                          v(1, 1),   v(-1, 1), v(cx, cy), v(-1, 1), v(-1, -1), v(cx, cy)};
  frontend::Draw d = testing::color_draw("color.vert", "color.frag", vb(verts), 12, kW, kH);
  auto& b = d.state.blend_attachments[0];
  b = {1, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE, VK_BLEND_OP_ADD, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE, VK_BLEND_OP_ADD, 0xf};
  p.commands.push_back(d);
  render(p);
  expect_all(*img, {51, 51, 51, 51});
  EXPECT_EQ(renderer.frame_stats().fragments, uint64_t{kW} * kH);
}

TEST_F(RendererTest, NearerFragmentWinsWhateverTheOrder) {
  for (bool near_first : {true, false}) {
    frontend::Image* img = target();
    frontend::Image* depth = scene.image(VK_FORMAT_D32_SFLOAT, kW, kH, 4, 0x9000000 + images);
    auto p = testing::pass(kW, kH, scene.view(img), VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE,
                           scene.view(depth, 0, VK_IMAGE_ASPECT_DEPTH_BIT));
    frontend::Draw near = testing::color_draw("color.vert", "color.frag", vb(rect(0, 0, kW, kH, {1, 0, 0, 1}, 0.3f)), 6, kW, kH);
    frontend::Draw far = testing::color_draw("color.vert", "color.frag", vb(rect(8, 8, 40, 40, {0, 1, 0, 1}, 0.6f)), 6, kW, kH);
    for (frontend::Draw* d : {&near, &far}) {
      d->state.depth_test = 1;
      d->state.depth_write = 1;
      d->state.depth_compare = VK_COMPARE_OP_LESS;
    }
    p.commands.push_back(near_first ? near : far);
    p.commands.push_back(near_first ? far : near);
    render(p);
    expect_all(*img, {255, 0, 0, 255});
    float stored;
    std::memcpy(&stored, depth->planes[0].data() + (20 * kW + 20) * 4, 4);
    EXPECT_NEAR(stored, 0.3f, 1e-6f);
  }
}

TEST_F(RendererTest, DiscardedFragmentsLeaveTheAttachment) {
  frontend::Image* img = target();
  auto p = testing::pass(kW, kH, scene.view(img), VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE);
  // Alpha 0 on the left edge, 1 on the right: pixel x has alpha (x + 0.5) / 64.
  const auto v = [](float x, float y, float a) { return ColorVertex{{x, y, 0.5f, 1}, {0, 0, 1, a}}; };
  const std::vector<ColorVertex> verts = {v(-1, -1, 0), v(1, -1, 1), v(1, 1, 1), v(-1, -1, 0), v(1, 1, 1), v(-1, 1, 0)};
  p.commands.push_back(testing::color_draw("color.vert", "discard.frag", vb(verts), 6, kW, kH));
  render(p);
  for (uint32_t y = 0; y < kH; ++y)
    for (uint32_t x = 0; x < kW; ++x) {
      const Rgba8 want = x < kW / 2 ? Rgba8{0, 0, 0, 0}
                                    : Rgba8{0, 0, 255, static_cast<uint8_t>((x + 0.5f) / kW * 255.0f + 0.5f)};
      ASSERT_EQ(testing::rgba8(*img, x, y), want) << x << "," << y;
    }
  EXPECT_EQ(renderer.frame_stats().pixels_written, uint64_t{kW / 2} * kH);
}

TEST_F(RendererTest, LateDepthUsesTheShadersFragDepth) {
  frontend::Image* img = target();
  frontend::Image* depth = scene.image(VK_FORMAT_D32_SFLOAT, kW, kH, 4, 0x9000000);
  auto p = testing::pass(kW, kH, scene.view(img), VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE,
                         scene.view(depth, 0, VK_IMAGE_ASPECT_DEPTH_BIT));
  // First: position depth 0.9 but FragDepth 0.25; second: position depth 0.1, FragDepth 0.5.
  frontend::Draw a = testing::color_draw("color.vert", "frag_depth.frag", vb(rect(0, 0, kW, kH, {1, 0.25f, 0, 1}, 0.9f)), 6, kW, kH);
  frontend::Draw b = testing::color_draw("color.vert", "frag_depth.frag", vb(rect(0, 0, kW, kH, {0, 0.5f, 1, 1}, 0.1f)), 6, kW, kH);
  for (frontend::Draw* d : {&a, &b}) {
    d->state.depth_test = 1;
    d->state.depth_write = 1;
  }
  p.commands.push_back(a);
  p.commands.push_back(b);
  render(p);
  expect_all(*img, {255, 64, 0, 255});
  float stored;
  std::memcpy(&stored, depth->planes[0].data(), 4);
  EXPECT_NEAR(stored, 0.25f, 1e-6f);
}

TEST_F(RendererTest, TexturedQuadSamplesExactTexelsWithNearest) {
  constexpr uint32_t W = 8, H = 8;
  frontend::Image* tex = scene.image(VK_FORMAT_R8G8B8A8_UNORM, 4, 4, 4, 0x7000000);
  for (uint32_t i = 0; i < 16; ++i) {
    uint8_t* t = tex->planes[0].data() + i * 4;
    t[0] = static_cast<uint8_t>(i * 16);
    t[1] = static_cast<uint8_t>(255 - i * 16);
    t[2] = static_cast<uint8_t>(i);
    t[3] = 255;
  }
  frontend::Image* img = target(VK_FORMAT_R8G8B8A8_UNORM, W, H);
  auto p = testing::pass(W, H, scene.view(img), VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE);
  const auto v = [](float x, float y, float u, float w) { return TexturedVertex{{x, y, 0.5f, 1}, {u, w}}; };
  const std::vector<TexturedVertex> verts = {v(-1, -1, 0, 0), v(1, -1, 1, 0), v(1, 1, 1, 1),
                                             v(-1, -1, 0, 0), v(1, 1, 1, 1), v(-1, 1, 0, 1)};
  frontend::Draw d = testing::textured_draw(scene.buffer(verts.data(), verts.size() * sizeof(TexturedVertex), 0x20000), 6, W, H);
  frontend::DescriptorBinding binding;
  binding.type = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
  binding.elements.push_back({scene.view(tex), scene.nearest_sampler(), nullptr, 0, 0});
  d.descriptors.push_back(binding);
  p.commands.push_back(d);
  render(p);
  for (uint32_t y = 0; y < H; ++y)
    for (uint32_t x = 0; x < W; ++x) {
      const uint32_t i = (y / 2) * 4 + x / 2;
      ASSERT_EQ(testing::rgba8(*img, x, y), (Rgba8{static_cast<uint8_t>(i * 16), static_cast<uint8_t>(255 - i * 16), static_cast<uint8_t>(i), 255}))
          << x << "," << y;
    }
  // Every lane samples, helpers included: the 16 quads plus the 4 on the diagonal that both
  // triangles shade.
  EXPECT_EQ(renderer.frame_stats().quads_shaded, 20u);
  EXPECT_EQ(renderer.frame_stats().texture_samples, 20u * 4u);
  EXPECT_EQ(skipped.total(), 0u);
}

TEST_F(RendererTest, TextureViewSwizzleIsApplied) {
  constexpr uint32_t W = 4, H = 4;
  frontend::Image* tex = scene.image(VK_FORMAT_R8G8B8A8_UNORM, 2, 2, 4, 0x7000000);
  for (uint32_t i = 0; i < 4; ++i) {
    uint8_t* t = tex->planes[0].data() + i * 4;
    t[0] = static_cast<uint8_t>(10 + i);
    t[1] = static_cast<uint8_t>(20 + i);
    t[2] = static_cast<uint8_t>(30 + i);
    t[3] = 0;
  }
  frontend::ImageView* view = scene.view(tex);
  // (B, G, R, ONE): red and blue swapped, alpha forced to one, as Zink does for GL RGB textures.
  view->swizzle[0] = VK_COMPONENT_SWIZZLE_B;
  view->swizzle[1] = VK_COMPONENT_SWIZZLE_IDENTITY;
  view->swizzle[2] = VK_COMPONENT_SWIZZLE_R;
  view->swizzle[3] = VK_COMPONENT_SWIZZLE_ONE;
  frontend::Image* img = target(VK_FORMAT_R8G8B8A8_UNORM, W, H);
  auto p = testing::pass(W, H, scene.view(img), VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE);
  const auto v = [](float x, float y, float u, float w) { return TexturedVertex{{x, y, 0.5f, 1}, {u, w}}; };
  const std::vector<TexturedVertex> verts = {v(-1, -1, 0, 0), v(1, -1, 1, 0), v(1, 1, 1, 1),
                                             v(-1, -1, 0, 0), v(1, 1, 1, 1), v(-1, 1, 0, 1)};
  frontend::Draw d = testing::textured_draw(scene.buffer(verts.data(), verts.size() * sizeof(TexturedVertex), 0x20000), 6, W, H);
  frontend::DescriptorBinding binding;
  binding.type = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
  binding.elements.push_back({view, scene.nearest_sampler(), nullptr, 0, 0});
  d.descriptors.push_back(binding);
  p.commands.push_back(d);
  render(p);
  for (uint32_t y = 0; y < H; ++y)
    for (uint32_t x = 0; x < W; ++x) {
      const auto i = static_cast<uint8_t>((y / 2) * 2 + x / 2);
      ASSERT_EQ(testing::rgba8(*img, x, y), (Rgba8{static_cast<uint8_t>(30 + i), static_cast<uint8_t>(20 + i), static_cast<uint8_t>(10 + i), 255}))
          << x << "," << y;
    }
  EXPECT_EQ(skipped.total(), 0u);
}

TEST_F(RendererTest, BlendModesAndWriteMask) {
  struct Case {
    capture::GraphicsPipelineRecord::BlendAttachment blend;
    Rgba8 want;
  };
  // Destination (0, 0, 1, 1) from the clear, source (1, 0.6, 0, 0.25).
  const Case cases[] = {
      {{1, VK_BLEND_FACTOR_SRC_ALPHA, VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA, VK_BLEND_OP_ADD,
        VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD, 0xf},
       {64, 38, 191, 64}},
      {{1, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE, VK_BLEND_OP_REVERSE_SUBTRACT,
        VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE, VK_BLEND_OP_MAX, 0xf},
       {0, 0, 255, 255}},
      {{1, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE, VK_BLEND_OP_ADD,
        VK_BLEND_FACTOR_ZERO, VK_BLEND_FACTOR_ONE, VK_BLEND_OP_ADD, 0xf},
       {255, 153, 255, 255}},  // sums clamp at 1 in UNORM
      {{0, 0, 0, 0, 0, 0, 0, VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_A_BIT}, {255, 0, 255, 64}},
  };
  for (const Case& c : cases) {
    frontend::Image* img = target();
    auto p = testing::pass(kW, kH, scene.view(img), VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE);
    p.attachments[0].clear = testing::clear_color(0, 0, 1, 1);
    frontend::Draw d = testing::color_draw("color.vert", "color.frag", vb(rect(0, 0, kW, kH, {1, 0.6f, 0, 0.25f})), 6, kW, kH);
    d.state.blend_attachments[0] = c.blend;
    p.commands.push_back(d);
    render(p);
    expect_all(*img, c.want);
  }
}

TEST_F(RendererTest, SrgbAttachmentEncodesOnStoreAndBlendsInLinear) {
  frontend::Image* img = target(VK_FORMAT_R8G8B8A8_SRGB);
  auto p = testing::pass(kW, kH, scene.view(img), VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE);
  frontend::Draw d = testing::color_draw("color.vert", "color.frag", vb(rect(0, 0, kW, kH, {0.25f, 0.25f, 0.5f, 0.6f})), 6, kW, kH);
  auto& b = d.state.blend_attachments[0];
  b = {1, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE, VK_BLEND_OP_ADD, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD, 0xf};
  p.commands.push_back(d);
  p.commands.push_back(d);
  render(p);
  // Linear 0.25 is stored as sRGB 137 (0.5371); decoded back and doubled it is 0.5 -> 188 (a
  // blend in sRGB space would give 255); alpha stays linear and is replaced: 0.6 -> 153.
  expect_all(*img, {188, 188, 255, 153});
}

TEST_F(RendererTest, LoadOpLoadKeepsContentsAndStoreDontCareWritesNothing) {
  frontend::Image* img = target();
  for (size_t i = 0; i < img->planes[0].size(); ++i) img->planes[0][i] = static_cast<uint8_t>(i * 7);
  const std::vector<uint8_t> before = img->planes[0];
  auto p = testing::pass(kW, kH, scene.view(img), VK_ATTACHMENT_LOAD_OP_LOAD, VK_ATTACHMENT_STORE_OP_STORE);
  p.commands.push_back(testing::color_draw("color.vert", "color.frag", vb(rect(10, 10, 20, 14, {1, 1, 1, 1})), 6, kW, kH));
  render(p);
  for (uint32_t y = 0; y < kH; ++y)
    for (uint32_t x = 0; x < kW; ++x) {
      const bool inside = x >= 10 && x < 20 && y >= 10 && y < 14;
      const size_t o = (size_t{y} * kW + x) * 4;
      const Rgba8 want = inside ? Rgba8{255, 255, 255, 255} : Rgba8{before[o], before[o + 1], before[o + 2], before[o + 3]};
      ASSERT_EQ(testing::rgba8(*img, x, y), want) << x << "," << y;
    }
  EXPECT_EQ(renderer.frame_stats().attachment_loads, uint64_t{kH} * 2);

  const std::vector<uint8_t> after = img->planes[0];
  const uint64_t generation = img->generation;
  auto q = testing::pass(kW, kH, scene.view(img), VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_DONT_CARE);
  q.commands.push_back(testing::color_draw("color.vert", "color.frag", vb(rect(0, 0, kW, kH, {1, 0, 0, 1})), 6, kW, kH));
  render(q);
  EXPECT_EQ(img->planes[0], after);
  EXPECT_EQ(img->generation, generation);
}

TEST_F(RendererTest, RenderToTextureThenSampleSeesEachNewGeneration) {
  constexpr uint32_t S = 4, W = 8, H = 8;
  frontend::Image* rt = target(VK_FORMAT_R8G8B8A8_UNORM, S, S);
  frontend::Image* img = target(VK_FORMAT_R8G8B8A8_UNORM, W, H);
  const auto draw_into_rt = [&](float red) {
    auto p = testing::pass(S, S, scene.view(rt), VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE);
    p.attachments[0].clear = testing::clear_color(0, 0, 1, 1);
    p.commands.push_back(testing::color_draw("color.vert", "color.frag", vb(rect(0, 0, 2, 4, {red, 1, 0, 1}, 0.5f, S, S)), 6, S, S));
    render(p);
  };
  const auto sample_rt = [&] {
    auto p = testing::pass(W, H, scene.view(img), VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE);
    const auto v = [](float x, float y, float u, float w) { return TexturedVertex{{x, y, 0.5f, 1}, {u, w}}; };
    const std::vector<TexturedVertex> verts = {v(-1, -1, 0, 0), v(1, -1, 1, 0), v(1, 1, 1, 1),
                                               v(-1, -1, 0, 0), v(1, 1, 1, 1), v(-1, 1, 0, 1)};
    frontend::Draw d = testing::textured_draw(scene.buffer(verts.data(), verts.size() * sizeof(TexturedVertex), 0x30000), 6, W, H);
    frontend::DescriptorBinding binding;
    binding.type = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    binding.elements.push_back({scene.view(rt), scene.nearest_sampler(), nullptr, 0, 0});
    d.descriptors.push_back(binding);
    p.commands.push_back(d);
    render(p);
  };
  draw_into_rt(1.0f);
  sample_rt();
  EXPECT_EQ(testing::rgba8(*img, 0, 0), (Rgba8{255, 255, 0, 255}));
  EXPECT_EQ(testing::rgba8(*img, 7, 7), (Rgba8{0, 0, 255, 255}));
  draw_into_rt(0.0f);
  sample_rt();
  for (uint32_t y = 0; y < H; ++y)
    for (uint32_t x = 0; x < W; ++x)
      ASSERT_EQ(testing::rgba8(*img, x, y), x < 4 ? (Rgba8{0, 255, 0, 255}) : (Rgba8{0, 0, 255, 255})) << x << "," << y;
}

TEST_F(RendererTest, UniformBufferAndPushConstants) {
  frontend::Image* img = target();
  auto p = testing::pass(kW, kH, scene.view(img), VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE);
  frontend::Draw d = testing::color_draw("color.vert", "uniform.frag", vb(rect(0, 0, kW, kH, {0, 0, 0, 0})), 6, kW, kH);
  // The block sits at offset 32 of its buffer.
  const float ubo[12] = {9, 9, 9, 9, 9, 9, 9, 9, 1.0f, 0.5f, 0.25f, 1.0f};
  frontend::DescriptorBinding binding;
  binding.binding = 1;
  binding.type = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
  binding.elements.push_back({nullptr, nullptr, scene.buffer(ubo, sizeof(ubo), 0x40000), 32, 16});
  d.descriptors.push_back(binding);
  const float scale[4] = {0.5f, 1, 1, 1};
  d.push_constants.resize(16);
  std::memcpy(d.push_constants.data(), scale, 16);
  p.commands.push_back(d);
  render(p);
  expect_all(*img, {128, 128, 64, 255});
}

TEST_F(RendererTest, FlatInputsTakeTheProvokingVertex) {
  for (uint32_t provoking : {0u, 1u}) {
    frontend::Image* img = target();
    auto p = testing::pass(kW, kH, scene.view(img), VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE);
    const std::vector<ColorVertex> v = {{{-1, -1, 0.5f, 1}, {1, 0, 0, 1}}, {{3, -1, 0.5f, 1}, {0, 1, 0, 1}},
                                        {{-1, 3, 0.5f, 1}, {0, 0, 1, 1}}};
    frontend::Draw d = testing::color_draw("flat.vert", "flat.frag", vb(v), 3, kW, kH);
    d.state.provoking_vertex = provoking;
    p.commands.push_back(d);
    render(p);
    expect_all(*img, provoking ? Rgba8{0, 0, 255, 255} : Rgba8{255, 0, 0, 255});
  }
}

TEST_F(RendererTest, LastProvokingVertexOfStripsRestartsItsParityAtEachRestart) {
  frontend::Image* img = target();
  auto p = testing::pass(kW, kH, scene.view(img), VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE);
  // Vertex i has red = 20 * (i + 1) / 255. Strip (0 1 2), restart, strip (3 4 5 6): with
  // LAST_VERTEX the triangles take vertices 2, 5 and 6 (the second triangle of a run is odd).
  const float pos[7][2] = {{-1, -1}, {-1, 1}, {-0.5f, -1}, {0, -1}, {0, 1}, {1, -1}, {1, 1}};
  std::vector<ColorVertex> verts;
  for (int i = 0; i < 7; ++i)
    verts.push_back({{pos[i][0], pos[i][1], 0.5f, 1}, {static_cast<float>(20 * (i + 1)) / 255.0f, 0, 0, 1}});
  const uint32_t indices[] = {0, 1, 2, 0xffffffffu, 3, 4, 5, 6};
  frontend::Draw d = testing::color_draw("flat.vert", "flat.frag", vb(verts), 8, kW, kH);
  d.state.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
  d.state.primitive_restart = 1;
  d.state.provoking_vertex = 1;
  d.indexed = true;
  d.index_buffer = scene.buffer(indices, sizeof(indices), 0x50000);
  d.index_type = VK_INDEX_TYPE_UINT32;
  p.commands.push_back(d);
  render(p);
  std::set<uint8_t> reds;
  for (uint32_t y = 0; y < kH; ++y)
    for (uint32_t x = 0; x < kW; ++x)
      if (testing::rgba8(*img, x, y)[3] != 0) reds.insert(testing::rgba8(*img, x, y)[0]);
  EXPECT_EQ(reds, (std::set<uint8_t>{60, 120, 140}));
}

TEST_F(RendererTest, CullingScissorAndNegativeViewportHeight) {
  frontend::Image* img = target();
  auto p = testing::pass(kW, kH, scene.view(img), VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE);
  // rect() winds clockwise on screen (y down): with the default counter-clockwise front face it
  // is back-facing and culled.
  frontend::Draw culled = testing::color_draw("color.vert", "color.frag", vb(rect(0, 0, kW, kH, {1, 0, 0, 1})), 6, kW, kH);
  culled.state.cull_mode = VK_CULL_MODE_BACK_BIT;
  // A y-flipped viewport (negative height) mirrors the winding: the same rect is then front-facing,
  // and mirrored vertically, drawn inside a scissor.
  frontend::Draw flipped = testing::color_draw("color.vert", "color.frag", vb(rect(0, 0, kW, 8, {0, 1, 0, 1})), 6, kW, kH);
  flipped.state.cull_mode = VK_CULL_MODE_BACK_BIT;
  flipped.state.viewports[0] = {0, kH, kW, -static_cast<float>(kH), 0, 1};
  flipped.state.scissors[0] = {4, 0, 20, kH};
  p.commands.push_back(culled);
  p.commands.push_back(flipped);
  render(p);
  for (uint32_t y = 0; y < kH; ++y)
    for (uint32_t x = 0; x < kW; ++x) {
      const bool green = y >= kH - 8 && x >= 4 && x < 24;
      ASSERT_EQ(testing::rgba8(*img, x, y), (green ? Rgba8{0, 255, 0, 255} : Rgba8{0, 0, 0, 0})) << x << "," << y;
    }
}

TEST_F(RendererTest, StencilMasksASecondDraw) {
  frontend::Image* img = target();
  frontend::Image* ds = scene.image(VK_FORMAT_D24_UNORM_S8_UINT, kW, kH, 4, 0x9000000, true);
  auto p = testing::pass(kW, kH, scene.view(img), VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE,
                         scene.view(ds, 0, VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT));
  // Draw 1 writes stencil 5 in a rectangle (colour masked off); draw 2 passes only where it is 5.
  frontend::Draw mark = testing::color_draw("color.vert", "color.frag", vb(rect(16, 8, 48, 24, {1, 0, 0, 1})), 6, kW, kH);
  mark.state.stencil_test = 1;
  mark.state.stencil_front = mark.state.stencil_back = {VK_STENCIL_OP_KEEP, VK_STENCIL_OP_REPLACE, VK_STENCIL_OP_KEEP,
                                                        VK_COMPARE_OP_ALWAYS, 0xff, 0xff, 5};
  mark.state.blend_attachments[0].write_mask = 0;
  frontend::Draw fill = testing::color_draw("color.vert", "color.frag", vb(rect(0, 0, kW, kH, {0, 1, 0, 1})), 6, kW, kH);
  fill.state.stencil_test = 1;
  fill.state.stencil_front = fill.state.stencil_back = {VK_STENCIL_OP_KEEP, VK_STENCIL_OP_INCREMENT_AND_CLAMP,
                                                        VK_STENCIL_OP_KEEP, VK_COMPARE_OP_EQUAL, 0xff, 0xff, 5};
  p.commands.push_back(mark);
  p.commands.push_back(fill);
  render(p);
  for (uint32_t y = 0; y < kH; ++y)
    for (uint32_t x = 0; x < kW; ++x) {
      const bool inside = x >= 16 && x < 48 && y >= 8 && y < 24;
      ASSERT_EQ(testing::rgba8(*img, x, y), (inside ? Rgba8{0, 255, 0, 255} : Rgba8{0, 0, 0, 0})) << x << "," << y;
      ASSERT_EQ(ds->planes[1][size_t{y} * kW + x], inside ? 6 : 0) << x << "," << y;
    }
}

TEST_F(RendererTest, IndexedStripWithRestartAndReusedVertices) {
  frontend::Image* img = target();
  auto p = testing::pass(kW, kH, scene.view(img), VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE);
  // Two strips of two triangles each (left and right half), separated by a restart index.
  const auto v = [](float x, float y) { return ColorVertex{{x, y, 0.5f, 1}, {1, 1, 1, 1}}; };
  const std::vector<ColorVertex> verts = {v(-1, -1), v(-1, 1), v(0, -1), v(0, 1), v(1, -1), v(1, 1)};
  const uint16_t indices[] = {0, 1, 2, 3, 0xffff, 2, 3, 4, 5};
  frontend::Draw d = testing::color_draw("color.vert", "color.frag", vb(verts), 0, kW, kH);
  d.state.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
  d.state.primitive_restart = 1;
  d.indexed = true;
  d.index_buffer = scene.buffer(indices, sizeof(indices), 0x50000);
  d.index_type = VK_INDEX_TYPE_UINT16;
  d.vertex_count = 9;
  p.commands.push_back(d);
  render(p);
  expect_all(*img, {255, 255, 255, 255});
  EXPECT_EQ(renderer.frame_stats().vertices_shaded, 6u);  // 2 and 3 are shaded once
  EXPECT_EQ(renderer.frame_stats().vertex_fetches, 9u + 6u * 2u);  // indices, then 2 attributes
}

TEST_F(RendererTest, ClearAttachmentsKeepsCommandOrder) {
  frontend::Image* img = target();
  auto p = testing::pass(kW, kH, scene.view(img), VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE);
  p.commands.push_back(testing::color_draw("color.vert", "color.frag", vb(rect(0, 0, kW, kH, {1, 0, 0, 1})), 6, kW, kH));
  frontend::ClearAttachments clear;
  clear.record.attachments.push_back({VK_IMAGE_ASPECT_COLOR_BIT, 0, testing::clear_color(0, 0, 1, 1)});
  clear.record.rects.push_back({{0, 0, 40, 40}, 0, 1});
  p.commands.push_back(clear);
  p.commands.push_back(testing::color_draw("color.vert", "color.frag", vb(rect(30, 30, 50, 46, {0, 1, 0, 1})), 6, kW, kH));
  render(p);
  for (uint32_t y = 0; y < kH; ++y)
    for (uint32_t x = 0; x < kW; ++x) {
      Rgba8 want{255, 0, 0, 255};
      if (x < 40 && y < 40) want = {0, 0, 255, 255};
      if (x >= 30 && x < 50 && y >= 30 && y < 46) want = {0, 255, 0, 255};
      ASSERT_EQ(testing::rgba8(*img, x, y), want) << x << "," << y;
    }
}

TEST_F(RendererTest, RenderAreaOffsetLimitsEveryWrite) {
  frontend::Image* img = target();
  for (size_t i = 0; i < img->planes[0].size(); ++i) img->planes[0][i] = 7;
  auto p = testing::pass(kW, kH, scene.view(img), VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE);
  p.render_area = {9, 5, 40, 30};
  p.attachments[0].clear = testing::clear_color(0, 0, 1, 1);
  // Covers x in [20, 64), y in [0, 48): the part inside the area is drawn, at framebuffer positions.
  p.commands.push_back(testing::color_draw("color.vert", "color.frag", vb(rect(20, 0, kW, kH, {1, 0, 0, 1})), 6, kW, kH));
  render(p);
  for (uint32_t y = 0; y < kH; ++y)
    for (uint32_t x = 0; x < kW; ++x) {
      Rgba8 want{7, 7, 7, 7};
      if (x >= 9 && x < 49 && y >= 5 && y < 35) want = x >= 20 ? Rgba8{255, 0, 0, 255} : Rgba8{0, 0, 255, 255};
      ASSERT_EQ(testing::rgba8(*img, x, y), want) << x << "," << y;
    }
  EXPECT_EQ(renderer.frame_stats().fragments, 29u * 30u);
}

TEST_F(RendererTest, DepthBiasPullsACoplanarDrawInFront) {
  for (float constant : {0.0f, -2.0f}) {
    frontend::Image* img = target();
    frontend::Image* depth = scene.image(VK_FORMAT_D16_UNORM, kW, kH, 2, 0x9000000 + images);
    auto p = testing::pass(kW, kH, scene.view(img), VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE,
                           scene.view(depth, 0, VK_IMAGE_ASPECT_DEPTH_BIT));
    frontend::Draw first = testing::color_draw("color.vert", "color.frag", vb(rect(0, 0, kW, kH, {1, 0, 0, 1}, 0.5f)), 6, kW, kH);
    frontend::Draw second = testing::color_draw("color.vert", "color.frag", vb(rect(0, 0, kW, kH, {0, 1, 0, 1}, 0.5f)), 6, kW, kH);
    for (frontend::Draw* d : {&first, &second}) {
      d->state.depth_test = 1;
      d->state.depth_write = 1;
      d->state.depth_compare = VK_COMPARE_OP_LESS;
    }
    // Spec "Depth Bias": o = r * constantFactor, r = 2^-16 for D16: two steps nearer.
    second.state.depth_bias_enable = 1;
    second.state.depth_bias_constant = constant;
    p.commands.push_back(first);
    p.commands.push_back(second);
    render(p);
    expect_all(*img, constant != 0 ? Rgba8{0, 255, 0, 255} : Rgba8{255, 0, 0, 255});
  }
}

TEST_F(RendererTest, SubpassesKeepTileContentsBetweenThem) {
  frontend::Image* img = target();
  auto p = testing::pass(kW, kH, scene.view(img), VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE);
  p.subpasses.push_back(p.subpasses[0]);
  p.commands.push_back(testing::color_draw("color.vert", "color.frag", vb(rect(0, 0, kW / 2, kH, {1, 0, 0, 1})), 6, kW, kH));
  p.commands.push_back(frontend::NextSubpass{});
  frontend::Draw add = testing::color_draw("color.vert", "color.frag", vb(rect(0, 0, kW, kH, {0, 1, 0, 1})), 6, kW, kH);
  add.state.blend_attachments[0] = {1, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE, VK_BLEND_OP_ADD, VK_BLEND_FACTOR_ONE,
                                    VK_BLEND_FACTOR_ONE, VK_BLEND_OP_ADD, 0xf};
  p.commands.push_back(add);
  render(p);
  for (uint32_t y = 0; y < kH; ++y)
    for (uint32_t x = 0; x < kW; ++x)
      ASSERT_EQ(testing::rgba8(*img, x, y), (x < kW / 2 ? Rgba8{255, 255, 0, 255} : Rgba8{0, 255, 0, 255})) << x << "," << y;
  // Tiles are visited once per subpass; the store happens once, after the last.
  EXPECT_EQ(renderer.frame_stats().tiles, 8u);
  EXPECT_EQ(renderer.frame_stats().attachment_stores, uint64_t{kH} * 2);
}

TEST_F(RendererTest, UnsupportedDrawsAreCountedAndTheRestRenders) {
  frontend::Image* img = target();
  auto p = testing::pass(kW, kH, scene.view(img), VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE);
  frontend::Draw patches = testing::color_draw("color.vert", "color.frag", vb(rect(0, 0, kW, kH, {1, 0, 0, 1})), 6, kW, kH);
  patches.state.topology = VK_PRIMITIVE_TOPOLOGY_PATCH_LIST;
  frontend::Draw broken = testing::color_draw("color.vert", "color.frag", vb(rect(0, 0, kW, kH, {1, 0, 0, 1})), 6, kW, kH);
  broken.stages[1].spirv = std::make_shared<std::vector<uint32_t>>(std::vector<uint32_t>{0x07230203, 1, 2});
  p.commands.push_back(patches);
  p.commands.push_back(broken);
  p.commands.push_back(broken);
  p.commands.push_back(testing::color_draw("color.vert", "color.frag", vb(rect(0, 0, kW, kH, {0, 1, 0, 1})), 6, kW, kH));
  render(p);
  expect_all(*img, {0, 255, 0, 255});
  EXPECT_EQ(renderer.frame_stats().draws, 1u);
  EXPECT_EQ(renderer.frame_stats().draws_skipped, 3u);
  ASSERT_EQ(skipped.reasons.size(), 2u);
  EXPECT_EQ(skipped.reasons[0], (std::pair<std::string, uint64_t>{"draw: patch topology", 1}));
  EXPECT_EQ(skipped.reasons[1].second, 2u);  // the broken module: one reason, counted per draw
  EXPECT_EQ(skipped.reasons[1].first.rfind("draw: shader ", 0), 0u) << skipped.reasons[1].first;
}

}  // namespace
}  // namespace tessera::render
