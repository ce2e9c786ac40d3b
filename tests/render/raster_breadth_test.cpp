// The renderer on points, lines, polygon modes and multisampling, exact pixels: point sprites
// (coverage, gl_PointCoord, PointSize clamped to the device range, size 1 unwritten), lines
// under each rasterization mode at width 1 and 3, polygon mode LINE and POINT (culling first),
// 4x coverage of a triangle edge and its resolve, alpha to coverage, sample shading, the sample
// mask and SampleMask output, logic ops, colour write enable, depth clip control, depth
// resolve, and clip and cull distances.
#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <limits>
#include <set>

#include "render_test_util.h"
#include "tessera/render/renderer.h"

namespace tessera::render {
namespace {

using testing::ColorVertex;
using testing::ndc;
using Rgba8 = std::array<uint8_t, 4>;
using Pixels = std::set<std::pair<int, int>>;

constexpr uint32_t kW = 32, kH = 32;

class RasterBreadthTest : public ::testing::Test {
 protected:
  // A vertex at framebuffer position (x, y) pixels.
  static ColorVertex at(float x, float y, std::array<float, 4> c = {1, 1, 1, 1}, float z = 0.5f) {
    return {{ndc(x, kW), ndc(y, kH), z, 1}, {c[0], c[1], c[2], c[3]}};
  }
  frontend::Buffer* vb(const std::vector<ColorVertex>& v) {
    return scene.buffer(v.data(), v.size() * sizeof(ColorVertex), 0x10000 + 0x1000 * ++buffers);
  }
  frontend::Image* target(uint32_t samples = 1, uint32_t format = VK_FORMAT_R8G8B8A8_UNORM) {
    frontend::Image* img = scene.image(format, kW, kH, 4, 0x100000 * ++images);
    img->samples = samples;
    img->planes[0].resize(img->planes[0].size() * samples);
    return img;
  }
  frontend::Draw draw(const std::vector<ColorVertex>& v, uint32_t topology, const std::string& vs = "color.vert",
                      const std::string& fs = "color.frag") {
    frontend::Draw d = testing::color_draw(vs, fs, vb(v), static_cast<uint32_t>(v.size()), kW, kH);
    d.state.topology = topology;
    return d;
  }
  // A pass clearing a target to black and storing it.
  frontend::RenderPassInstance pass(frontend::Image* img) {
    auto p = testing::pass(kW, kH, scene.view(img), VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE);
    p.attachments[0].clear = testing::clear_color(0, 0, 0, 1);
    return p;
  }
  void render(const frontend::RenderPassInstance& p) { renderer.render_pass(p, skipped); }
  // Pixels not left at the clear colour (black).
  static Pixels written(const frontend::Image& img) {
    Pixels out;
    for (uint32_t y = 0; y < img.height; ++y)
      for (uint32_t x = 0; x < img.width; ++x)
        if (testing::rgba8(img, x, y) != Rgba8{0, 0, 0, 255}) out.insert({static_cast<int>(x), static_cast<int>(y)});
    return out;
  }
  static Pixels rect(int x0, int y0, int x1, int y1) {
    Pixels p;
    for (int y = y0; y < y1; ++y)
      for (int x = x0; x < x1; ++x) p.insert({x, y});
    return p;
  }
  // Sample s of pixel (x, y) of a multisampled RGBA8 image (frame.h: samples one after the other).
  static Rgba8 sample(const frontend::Image& img, uint32_t x, uint32_t y, uint32_t s) {
    const uint8_t* p = img.planes[0].data() + (size_t{s} * img.width * img.height + size_t{y} * img.width + x) * 4;
    return {p[0], p[1], p[2], p[3]};
  }

  testing::Scene scene;
  stream::StreamWriter writer;
  Renderer renderer{&writer};
  frontend::SkipCounts skipped;
  uint32_t buffers = 0, images = 0;
};

// Spec "Basic Point Rasterization": the 4 x 4 square centred on (8, 8) covers pixels 6..9, and
// gl_PointCoord = (1/2 + (x - 8) / 4, 1/2 + (y - 8) / 4) at each pixel centre, upper-left origin.
TEST_F(RasterBreadthTest, PointSpriteCoverageAndPointCoord) {
  frontend::Image* img = target();
  auto p = pass(img);
  p.commands.push_back(draw({at(8, 8, {0, 0, 0, 4})}, VK_PRIMITIVE_TOPOLOGY_POINT_LIST, "point_size.vert", "point_coord.frag"));
  render(p);
  ASSERT_EQ(skipped.total(), 0u);
  EXPECT_EQ(written(*img), rect(6, 6, 10, 10));
  const uint8_t coord[4] = {32, 96, 159, 223};  // round(255 * {0.125, 0.375, 0.625, 0.875})
  for (int y = 6; y < 10; ++y)
    for (int x = 6; x < 10; ++x)
      EXPECT_EQ(testing::rgba8(*img, x, y), (Rgba8{coord[x - 6], coord[y - 6], 0, 255})) << x << "," << y;
  EXPECT_EQ(renderer.frame_stats().fragments, 16u);
}

TEST_F(RasterBreadthTest, PointSizeIsClampedToTheDeviceRangeAndOneWhenNotWritten) {
  frontend::Image* img = target();
  auto p = pass(img);
  p.limits.point_size_range[0] = 1.0f;
  p.limits.point_size_range[1] = 2.0f;
  // Size 6 clamped to 2: pixels 15..16 around (16, 16); size 0.25 clamped up to 1.
  p.commands.push_back(draw({at(16, 16, {1, 0, 0, 6}), at(4.5f, 4.5f, {1, 0, 0, 0.25f})}, VK_PRIMITIVE_TOPOLOGY_POINT_LIST,
                            "point_size.vert", "color.frag"));
  // color.vert does not write PointSize: size 1.
  p.commands.push_back(draw({at(24.5f, 8.5f)}, VK_PRIMITIVE_TOPOLOGY_POINT_LIST));
  render(p);
  ASSERT_EQ(skipped.total(), 0u);
  Pixels want = rect(15, 15, 17, 17);
  want.insert({4, 4});
  want.insert({24, 8});
  EXPECT_EQ(written(*img), want);
}

// The pixel sets of the pipeline tests (tests/pipeline/line_point_test.cpp), rendered: each
// line mode at width 1 and 3, as VkLineRasterizationModeEXT and lineWidth select them.
TEST_F(RasterBreadthTest, LinesUnderEachRasterizationModeAtWidthOneAndThree) {
  struct Case {
    uint32_t mode;  // VkLineRasterizationModeEXT
    bool strict;    // VkPhysicalDeviceLimits::strictLines, for DEFAULT
    float x0, y0, x1, y1, width;
    Pixels want;
  };
  const Pixels bresenham = {{0, 0}, {1, 1}, {2, 1}, {3, 2}, {4, 2}, {5, 3}, {6, 3}, {7, 4}};
  Pixels bresenham3;
  for (const auto& [x, y] : bresenham)
    for (int d = -1; d <= 1; ++d)
      if (y + d >= 0) bresenham3.insert({x, y + d});
  const Pixels parallelogram = {{1, 1}, {2, 2}, {3, 2}, {4, 3}, {5, 3}, {6, 4}, {7, 4}, {8, 5}};
  Pixels parallelogram3;
  for (const auto& [x, y] : parallelogram)
    for (int d = -1; d <= 1; ++d) parallelogram3.insert({x, y + d});
  const std::vector<Case> cases = {
      {VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT, false, 0.5f, 0.5f, 8.5f, 4.5f, 1, bresenham},
      {VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT, false, 0.5f, 0.5f, 8.5f, 4.5f, 3, bresenham3},
      {VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT, false, 2, 5.5f, 10, 5.5f, 1, rect(2, 5, 10, 6)},
      {VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT, false, 2, 5.5f, 10, 5.5f, 3, rect(2, 4, 10, 7)},
      {VK_LINE_RASTERIZATION_MODE_DEFAULT_EXT, true, 2, 5.5f, 10, 5.5f, 3, rect(2, 4, 10, 7)},
      {VK_LINE_RASTERIZATION_MODE_DEFAULT_EXT, false, 1.5f, 1.7f, 9.5f, 5.7f, 1, parallelogram},
      {VK_LINE_RASTERIZATION_MODE_DEFAULT_EXT, false, 1.5f, 1.7f, 9.5f, 5.7f, 3, parallelogram3},
  };
  for (const Case& c : cases) {
    frontend::Image* img = target();
    auto p = pass(img);
    p.limits.strict_lines = c.strict;
    frontend::Draw d = draw({at(c.x0, c.y0), at(c.x1, c.y1)}, VK_PRIMITIVE_TOPOLOGY_LINE_LIST);
    d.state.line_mode = c.mode;
    d.state.line_width = c.width;
    p.commands.push_back(d);
    render(p);
    EXPECT_EQ(written(*img), c.want) << "mode " << c.mode << " width " << c.width;
  }
  EXPECT_EQ(skipped.total(), 0u);
}

// A strip with a restart, additively blended: each fragment of the half-open Bresenham
// segments is written once (a pixel written twice would read 2 x 51).
TEST_F(RasterBreadthTest, IndexedLineStripWithRestartWritesEachFragmentOnce) {
  frontend::Image* img = target();
  auto p = pass(img);
  const std::array<float, 4> c = {0.2f, 0.2f, 0.2f, 0.2f};
  const std::vector<ColorVertex> v = {at(2.5f, 3.5f, c), at(12.5f, 3.5f, c), at(20.5f, 3.5f, c),
                                      at(2.5f, 9.5f, c), at(20.5f, 9.5f, c)};
  frontend::Draw d = draw(v, VK_PRIMITIVE_TOPOLOGY_LINE_STRIP);
  d.state.line_mode = VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT;
  d.state.primitive_restart = 1;
  d.state.blend_attachments[0] = {1, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE, VK_BLEND_OP_ADD,
                                  VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ONE, VK_BLEND_OP_ADD, 0xf};
  const std::vector<uint16_t> idx = {0, 1, 2, 0xFFFF, 3, 4};
  d.indexed = true;
  d.index_buffer = scene.buffer(idx.data(), idx.size() * 2, 0x80000);
  d.index_type = VK_INDEX_TYPE_UINT16;
  d.vertex_count = static_cast<uint32_t>(idx.size());
  p.commands.push_back(d);
  render(p);
  ASSERT_EQ(skipped.total(), 0u);
  Pixels want = rect(2, 3, 20, 4);
  for (int x = 2; x < 20; ++x) want.insert({x, 9});
  EXPECT_EQ(written(*img), want);
  for (const auto& [x, y] : want) EXPECT_EQ(testing::rgba8(*img, x, y)[0], 51) << x << "," << y;
}

// Spec "Polygon Mode": the triangle (2.5, 2.5), (12.5, 2.5), (2.5, 12.5) drawn as its three
// Bresenham edges (each half-open: 30 pixels, none twice), as its three vertices, or not at
// all when culled first.
TEST_F(RasterBreadthTest, PolygonModeLineAndPointOfATriangle) {
  const std::vector<ColorVertex> tri = {at(2.5f, 2.5f), at(12.5f, 2.5f), at(2.5f, 12.5f)};
  Pixels edges = rect(2, 2, 13, 3);       // (2..11, 2) and (12, 2)
  for (int x = 3; x < 12; ++x) edges.insert({x, 14 - x});  // the diagonal, (11, 3) .. (3, 11)
  for (int y = 3; y < 13; ++y) edges.insert({2, y});       // (2, 3) .. (2, 12)
  {
    frontend::Image* img = target();
    auto p = pass(img);
    frontend::Draw d = draw(tri, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
    d.state.polygon_mode = VK_POLYGON_MODE_LINE;
    d.state.line_mode = VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT;
    p.commands.push_back(d);
    render(p);
    EXPECT_EQ(written(*img), edges);
    EXPECT_EQ(renderer.frame_stats().fragments, 30u);
  }
  {
    frontend::Image* img = target();
    auto p = pass(img);
    frontend::Draw d = draw(tri, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
    d.state.polygon_mode = VK_POLYGON_MODE_POINT;
    p.commands.push_back(d);
    render(p);
    EXPECT_EQ(written(*img), (Pixels{{2, 2}, {12, 2}, {2, 12}}));
  }
  for (uint32_t cull : {VK_CULL_MODE_BACK_BIT, VK_CULL_MODE_FRONT_BIT}) {
    // Clockwise on screen with y down: counter-clockwise in the spec's area sense, front-facing
    // for VK_FRONT_FACE_CLOCKWISE.
    frontend::Image* img = target();
    auto p = pass(img);
    frontend::Draw d = draw(tri, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
    d.state.polygon_mode = VK_POLYGON_MODE_LINE;
    d.state.line_mode = VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT;
    d.state.front_face = VK_FRONT_FACE_CLOCKWISE;
    d.state.cull_mode = cull;
    p.commands.push_back(d);
    render(p);
    EXPECT_EQ(written(*img).size(), cull == VK_CULL_MODE_BACK_BIT ? 30u : 0u) << cull;
  }
  EXPECT_EQ(skipped.total(), 0u);
}

// 4 samples at the standard locations; x < 10.5 white over black: pixel 10 keeps samples 0 and
// 2 (x = 10.375, 10.125), and its resolve is the average, 127.5 -> 128.
TEST_F(RasterBreadthTest, FourSampleEdgeCoverageAndResolve) {
  frontend::Image* ms = target(4);
  frontend::Image* resolved = target();
  auto p = pass(ms);
  p.attachments[0].resolve = scene.view(resolved);
  p.attachments[0].resolve_mode = VK_RESOLVE_MODE_AVERAGE_BIT;
  // One triangle whose right edge is x = 10.5 (the others lie outside the target).
  const std::vector<ColorVertex> v = {at(10.5f, -32), at(10.5f, 96), at(-64, 32)};
  p.commands.push_back(draw(v, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST));
  render(p);
  ASSERT_EQ(skipped.total(), 0u) << skipped.reasons[0].first;
  for (uint32_t y = 0; y < kH; y += 5) {
    for (uint32_t s = 0; s < 4; ++s) {
      EXPECT_EQ(sample(*ms, 9, y, s)[0], 255);
      EXPECT_EQ(sample(*ms, 10, y, s)[0], s % 2 == 0 ? 255 : 0) << s;
      EXPECT_EQ(sample(*ms, 11, y, s)[0], 0);
    }
    EXPECT_EQ(testing::rgba8(*resolved, 9, y), (Rgba8{255, 255, 255, 255}));
    EXPECT_EQ(testing::rgba8(*resolved, 10, y), (Rgba8{128, 128, 128, 255}));
    EXPECT_EQ(testing::rgba8(*resolved, 11, y), (Rgba8{0, 0, 0, 255}));
  }
  // The stream keeps per-pixel coverage: pixel 10 counts as covered.
  EXPECT_EQ(renderer.frame_stats().fragments, 11u * kH);
  // Multisampled traffic: four samples loaded / stored per row; the resolve target's rows too.
  EXPECT_EQ(renderer.frame_stats().attachment_stores, uint64_t{kH} * 4 + kH);
}

// Alpha to coverage (spec "Multisample Coverage"): the first round(4 alpha) samples, so the
// resolve of white at alpha 0.25 / 0.5 / 0.75 is 64 / 128 / 191 (and the sample counts 1/2/3).
TEST_F(RasterBreadthTest, AlphaToCoverageSampleCounts) {
  const float alphas[3] = {0.25f, 0.5f, 0.75f};
  const uint8_t want[3] = {64, 128, 191};
  for (int i = 0; i < 3; ++i) {
    frontend::Image* ms = target(4);
    frontend::Image* resolved = target();
    auto p = pass(ms);
    p.attachments[0].resolve = scene.view(resolved);
    const std::array<float, 4> c = {1, 1, 1, alphas[i]};
    const std::vector<ColorVertex> v = {at(0, 0, c), at(32, 0, c), at(32, 32, c), at(0, 0, c), at(32, 32, c), at(0, 32, c)};
    frontend::Draw d = draw(v, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
    d.state.alpha_to_coverage = 1;
    p.commands.push_back(d);
    render(p);
    int samples_written = 0;
    for (uint32_t s = 0; s < 4; ++s) samples_written += sample(*ms, 5, 5, s)[0] == 255;
    EXPECT_EQ(samples_written, i + 1);
    EXPECT_EQ(testing::rgba8(*resolved, 5, 5)[0], want[i]);
  }
  // One sample: covered from alpha 0.5 on.
  for (float a : {0.4f, 0.6f}) {
    frontend::Image* img = target();
    auto p = pass(img);
    const std::array<float, 4> c = {1, 1, 1, a};
    frontend::Draw d = draw({at(0, 0, c), at(64, 0, c), at(0, 64, c)}, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
    d.state.alpha_to_coverage = 1;
    d.state.alpha_to_one = 1;  // the written alpha is then 1
    p.commands.push_back(d);
    render(p);
    EXPECT_EQ(testing::rgba8(*img, 3, 3), a < 0.5f ? (Rgba8{0, 0, 0, 255}) : (Rgba8{255, 255, 255, 255}));
  }
  EXPECT_EQ(skipped.total(), 0u);
}

// Reading gl_SampleID shades each sample (spec "Sample Shading"): red = SampleID / 3 per
// sample, resolved to the average 0.5; the pipeline's sample mask and the shader's SampleMask
// output keep two samples of four.
TEST_F(RasterBreadthTest, SampleShadingSampleMaskAndSampleMaskOutput) {
  const std::vector<ColorVertex> full = {at(0, 0), at(64, 0), at(0, 64)};
  struct Case {
    std::string fs;
    uint32_t sample_mask;
    uint8_t sample_red[4];
    uint8_t resolved;
  };
  const std::vector<Case> cases = {{"sample_id.frag", ~0u, {0, 85, 170, 255}, 128},
                                   {"color.frag", 0x3u, {255, 255, 0, 0}, 128},
                                   {"sample_mask.frag", ~0u, {255, 0, 255, 0}, 128}};
  uint64_t instructions[3] = {};
  for (size_t i = 0; i < cases.size(); ++i) {
    frontend::Image* ms = target(4);
    frontend::Image* resolved = target();
    auto p = pass(ms);
    p.attachments[0].resolve = scene.view(resolved);
    frontend::Draw d = draw(full, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, "color.vert", cases[i].fs);
    d.state.sample_mask = cases[i].sample_mask;
    p.commands.push_back(d);
    renderer.reset_stats();
    render(p);
    instructions[i] = renderer.frame_stats().fragment_instructions;
    for (uint32_t s = 0; s < 4; ++s) EXPECT_EQ(sample(*ms, 4, 4, s)[0], cases[i].sample_red[s]) << cases[i].fs << " " << s;
    EXPECT_EQ(testing::rgba8(*resolved, 4, 4)[0], cases[i].resolved) << cases[i].fs;
  }
  EXPECT_EQ(skipped.total(), 0u);
  // Per-sample shading runs four invocations per pixel.
  EXPECT_GT(instructions[0], 3 * instructions[1] / 2);
}

// Spec "Logical Operations": XOR of 0xFF (the source) with the cleared 0x0F, per channel; a
// colour attachment disabled by VK_EXT_color_write_enable keeps its clear value.
TEST_F(RasterBreadthTest, LogicOpAndColorWriteEnable) {
  for (bool enabled : {true, false}) {
    frontend::Image* img = target();
    auto p = pass(img);
    p.attachments[0].clear = testing::clear_color(15 / 255.0f, 0, 1, 1);
    frontend::Draw d = draw({at(0, 0), at(64, 0), at(0, 64)}, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
    d.state.logic_op_enable = 1;
    d.state.logic_op = VK_LOGIC_OP_XOR;
    d.state.blend_attachments[0].blend_enable = 1;  // ignored: the logic op replaces blending
    if (!enabled) d.state.color_write_enables = {0};
    p.commands.push_back(d);
    render(p);
    EXPECT_EQ(testing::rgba8(*img, 2, 2), enabled ? (Rgba8{240, 255, 0, 0}) : (Rgba8{15, 0, 255, 255}));
  }
  EXPECT_EQ(skipped.total(), 0u);
}

// VK_EXT_depth_clip_control negativeOneToOne: z = -0.5 maps to (1 + -0.5) / 2 = 0.25, and a
// vertex at z = -0.9 (outside [0, w], inside [-w, w]) is not clipped.
TEST_F(RasterBreadthTest, DepthClipNegativeOneToOne) {
  frontend::Image* img = target();
  frontend::Image* depth = scene.image(VK_FORMAT_D32_SFLOAT, kW, kH, 4, 0x9000000);
  auto p = testing::pass(kW, kH, scene.view(img), VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE,
                         scene.view(depth, 0, VK_IMAGE_ASPECT_DEPTH_BIT));
  frontend::Draw d = draw({at(0, 0, {1, 1, 1, 1}, -0.5f), at(64, 0, {1, 1, 1, 1}, -0.5f), at(0, 64, {1, 1, 1, 1}, -0.9f)},
                          VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
  d.state.depth_test = d.state.depth_write = 1;
  d.state.depth_compare = VK_COMPARE_OP_ALWAYS;
  d.state.depth_clip_negative_one_to_one = 1;
  p.commands.push_back(d);
  render(p);
  ASSERT_EQ(skipped.total(), 0u);
  float z;
  std::memcpy(&z, depth->planes[0].data(), 4);  // pixel (0, 0): depth 0.25 at its centre, nearly
  EXPECT_NEAR(z, 0.25f, 0.002f);
  EXPECT_EQ(testing::rgba8(*img, 1, 28), (Rgba8{255, 255, 255, 255}));  // near the z = -0.9 vertex
}

// A multisampled depth attachment resolved with SAMPLE_ZERO and MAX (dynamic rendering's
// VkRenderingAttachmentInfo::resolveMode): a plane z = x / 32 with samples at x + 0.375 etc.
TEST_F(RasterBreadthTest, DepthResolveModes) {
  for (uint32_t mode : {VK_RESOLVE_MODE_SAMPLE_ZERO_BIT, VK_RESOLVE_MODE_MAX_BIT}) {
    frontend::Image* img = target(4);
    frontend::Image* depth = scene.image(VK_FORMAT_D32_SFLOAT, kW, kH, 4, 0x9000000 + 0x100000 * mode);
    depth->samples = 4;
    depth->planes[0].resize(depth->planes[0].size() * 4);
    frontend::Image* resolved = scene.image(VK_FORMAT_D32_SFLOAT, kW, kH, 4, 0xa000000 + 0x100000 * mode);
    auto p = testing::pass(kW, kH, scene.view(img), VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE,
                           scene.view(depth, 0, VK_IMAGE_ASPECT_DEPTH_BIT));
    p.attachments[1].resolve = scene.view(resolved, 0, VK_IMAGE_ASPECT_DEPTH_BIT);
    p.attachments[1].resolve_mode = mode;
    // z = x / 32 across the framebuffer (NDC z equals depth with the default viewport).
    frontend::Draw d = draw({at(0, 0, {1, 1, 1, 1}, 0), at(64, 0, {1, 1, 1, 1}, 2), at(0, 64, {1, 1, 1, 1}, 0)},
                            VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
    d.state.depth_test = d.state.depth_write = 1;
    d.state.depth_compare = VK_COMPARE_OP_ALWAYS;
    p.commands.push_back(d);
    render(p);
    ASSERT_EQ(skipped.total(), 0u);
    float z;
    std::memcpy(&z, resolved->planes[0].data() + (4 * kW + 8) * 4, 4);
    // Sample 0 at x + 0.375; the largest at x + 0.875 (sample 1).
    EXPECT_NEAR(z, (8 + (mode == VK_RESOLVE_MODE_MAX_BIT ? 0.875f : 0.375f)) / 32, 1e-6f) << mode;
  }
}

// Values no valid capture holds (a damaged or hostile file): clamped, dropped or counted,
// never a crash or an unbounded loop.
TEST_F(RasterBreadthTest, AbsurdLineAndPointStateIsClampedOrCounted) {
  frontend::Image* img = target();
  auto p = pass(img);
  p.limits.line_width_range[1] = 65536.0f;
  p.limits.point_size_range[1] = 65536.0f;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (float width : {nan, 1e30f, -3.0f, 65536.0f})
    for (uint32_t mode : {0u, 1u, 2u, 3u, 99u}) {
      frontend::Draw d = draw({at(1, 1), at(30, 20), at(-1e6f, 5)}, VK_PRIMITIVE_TOPOLOGY_LINE_STRIP);
      d.state.line_width = width;
      d.state.line_mode = mode;
      d.state.line_stipple_enable = 1;
      d.state.line_stipple_factor = 1000;  // beyond [1, 256]: no stipple
      p.commands.push_back(d);
    }
  for (float size : {nan, std::numeric_limits<float>::infinity(), -1.0f, 1e30f})
    p.commands.push_back(draw({at(5, 5, {1, 1, 1, size})}, VK_PRIMITIVE_TOPOLOGY_POINT_LIST, "point_size.vert", "color.frag"));
  frontend::Draw fill_rect = draw({at(0, 0), at(64, 0), at(0, 64)}, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
  fill_rect.state.polygon_mode = 1000153000;  // VK_POLYGON_MODE_FILL_RECTANGLE_NV
  p.commands.push_back(fill_rect);
  render(p);
  EXPECT_EQ(skipped.total(), 1u);
  EXPECT_EQ(renderer.frame_stats().draws, 24u);
  EXPECT_FALSE(written(*img).empty());
}

// The vertex shader's clip and cull distances reach the clipper: clip distance 0 (x in NDC)
// keeps the right half of a full-target quad; a quad whose every vertex has a negative cull
// distance (alpha < 0.5) is culled whole; a triangle negative at two vertices only is drawn, cut
// by the clip distance like the rest. Cull distances follow the clip distances in each vertex.
TEST_F(RasterBreadthTest, ClipAndCullDistancesFromTheVertexShader) {
  frontend::Image* img = target();
  auto p = pass(img);
  const auto quad = [&](std::array<float, 4> c) {
    return std::vector<ColorVertex>{at(0, 0, c), at(32, 0, c), at(32, 32, c), at(0, 0, c), at(32, 32, c), at(0, 32, c)};
  };
  p.commands.push_back(draw(quad({1, 0, 0, 1}), VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, "clip_cull.vert"));
  p.commands.push_back(draw(quad({0, 1, 0, 0.25f}), VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, "clip_cull.vert"));
  // Over the bottom rows: alpha 0, 0, 1 -- not culled.
  p.commands.push_back(draw({at(0, 24, {0, 0, 1, 0}), at(32, 24, {0, 0, 1, 0}), at(32, 32, {0, 0, 1, 1})},
                            VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, "clip_cull.vert"));
  render(p);
  EXPECT_EQ(skipped.total(), 0u);
  EXPECT_EQ(written(*img), rect(16, 0, 32, 32));
  EXPECT_EQ(testing::rgba8(*img, 20, 10), (Rgba8{255, 0, 0, 255}));  // red: the green quad was culled
  EXPECT_EQ(testing::rgba8(*img, 30, 25), (Rgba8{0, 0, 255, 255}));  // the blue triangle drew
  EXPECT_EQ(testing::rgba8(*img, 10, 25), (Rgba8{0, 0, 0, 255}));    // but not left of x = 16
  // The same quad without the distances covers the whole target.
  frontend::Image* plain = target();
  auto q = pass(plain);
  q.commands.push_back(draw(quad({1, 0, 0, 1}), VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST));
  render(q);
  EXPECT_EQ(written(*plain), rect(0, 0, 32, 32));
}

}  // namespace
}  // namespace tessera::render
