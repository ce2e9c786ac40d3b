// The renderer's own counters against what a consumer recounts from the stream it wrote, and the
// event order the stream header promises.
#include <gtest/gtest.h>

#include <bit>
#include <set>

#include "render_test_util.h"
#include "tessera/render/renderer.h"

namespace tessera::render {
namespace {

using testing::ColorVertex;
using testing::TexturedVertex;

constexpr uint32_t kW = 96, kH = 80;

// Everything RenderStats holds, recounted from the decoded events.
RenderStats recount(std::span<const uint8_t> bytes, std::string& order_error) {
  stream::StreamReader reader(bytes);
  RenderStats s;
  std::set<uint32_t> binned;
  stream::Event e;
  uint32_t quad_lanes_sampled = 0;
  bool in_tile = false, after_quad = false, vertex_samples_pending = false;
  uint32_t tile_position = 0;
  while (reader.next(e)) {
    // VertexTexture events come right before the VertexShade of their batch.
    if (vertex_samples_pending && e.kind != stream::EventKind::VertexTexture &&
        e.kind != stream::EventKind::VertexShade)
      order_error = "vertex texture event not followed by its batch";
    switch (e.kind) {
      case stream::EventKind::PassBegin: ++s.passes; tile_position = 0; break;
      case stream::EventKind::TileBegin:
        ++s.tiles;
        if (e.u[3] != tile_position++) order_error = "tile order position";
        in_tile = true;
        break;
      case stream::EventKind::TileEnd: in_tile = false; after_quad = false; break;
      case stream::EventKind::Draw: ++s.draws; if (in_tile) order_error = "draw inside a tile"; break;
      case stream::EventKind::VertexFetch: ++s.vertex_fetches; break;
      case stream::EventKind::VertexTexture:
        ++s.vertex_texture_samples;
        s.vertex_texture_lines += e.lines.size();
        if (in_tile || e.u[0] > 63) order_error = "vertex texture event inside a tile";
        vertex_samples_pending = true;
        break;
      case stream::EventKind::VertexShade:
        vertex_samples_pending = false;
        s.vertices_shaded += e.u[0];
        s.vertex_instructions += e.wide;
        s.vertex_mix.add(e.mix);
        break;
      case stream::EventKind::PbWrite:
        ++s.pb_writes;
        binned.insert(e.u[1]);
        if (in_tile) order_error = "PB write inside a tile";
        break;
      case stream::EventKind::PbRead: ++s.pb_reads; break;
      case stream::EventKind::Primitive: ++s.tile_primitives; after_quad = false; break;
      case stream::EventKind::Quad: {
        ++s.quads;
        const auto coverage = static_cast<uint8_t>(e.u[2]);
        s.fragments += static_cast<uint64_t>(std::popcount(coverage));
        if (e.u[5] & stream::kQuadShaded) {
          ++s.quads_shaded;
          const uint8_t lanes = e.u[5] & stream::kQuadLateDepth ? coverage : static_cast<uint8_t>(coverage & e.u[3]);
          s.fragments_shaded += static_cast<uint64_t>(std::popcount(lanes));
        }
        s.fragment_instructions += e.wide;
        s.fragment_mix.add(e.mix);
        if (!(e.u[5] & stream::kQuadShaded) && e.mix != stream::OpMix{}) order_error = "operations of an unshaded quad";
        s.pixels_written += static_cast<uint64_t>(std::popcount(e.u[4]));
        after_quad = true;
        quad_lanes_sampled = 0;
        break;
      }
      case stream::EventKind::Texture:
        ++s.texture_samples;
        s.texture_lines += e.lines.size();
        if (!after_quad || e.u[0] > 3) order_error = "texture event not after a quad";
        ++quad_lanes_sampled;
        break;
      case stream::EventKind::AttachmentLoad: ++s.attachment_loads; break;
      case stream::EventKind::AttachmentStore: ++s.attachment_stores; after_quad = false; break;
      default: break;
    }
  }
  if (!reader.error().empty()) order_error = reader.error();
  s.primitives_binned = binned.size();
  return s;
}

// Every RenderStats field of `renderer` equals its recount from `bytes`, and the writer's
// StreamCounts (`written`) equal the reader's and the renderer's.
void expect_reconciled(const Renderer& renderer, const stream::StreamCounts& written, const std::vector<uint8_t>& bytes) {
  const RenderStats& mine = renderer.frame_stats();
  std::string order_error;
  const RenderStats recounted = recount(bytes, order_error);
  EXPECT_EQ(order_error, "");
  EXPECT_EQ(recounted.passes, mine.passes);
  EXPECT_EQ(recounted.tiles, mine.tiles);
  EXPECT_EQ(recounted.draws, mine.draws);
  EXPECT_EQ(recounted.vertices_shaded, mine.vertices_shaded);
  EXPECT_EQ(recounted.vertex_instructions, mine.vertex_instructions);
  EXPECT_EQ(recounted.vertex_fetches, mine.vertex_fetches);
  EXPECT_EQ(recounted.primitives_binned, renderer.pass_stats()[0].stats.primitives_binned);  // ids restart per pass
  EXPECT_EQ(recounted.tile_primitives, mine.tile_primitives);
  EXPECT_EQ(recounted.quads, mine.quads);
  EXPECT_EQ(recounted.quads_shaded, mine.quads_shaded);
  EXPECT_EQ(recounted.fragments, mine.fragments);
  EXPECT_EQ(recounted.fragments_shaded, mine.fragments_shaded);
  EXPECT_EQ(recounted.fragment_instructions, mine.fragment_instructions);
  EXPECT_EQ(recounted.fragment_mix, mine.fragment_mix);
  EXPECT_EQ(recounted.vertex_mix, mine.vertex_mix);
  EXPECT_EQ(recounted.pixels_written, mine.pixels_written);
  EXPECT_EQ(recounted.texture_samples, mine.texture_samples);
  EXPECT_EQ(recounted.texture_lines, mine.texture_lines);
  EXPECT_EQ(recounted.vertex_texture_samples, mine.vertex_texture_samples);
  EXPECT_EQ(recounted.vertex_texture_lines, mine.vertex_texture_lines);
  EXPECT_EQ(recounted.pb_writes, mine.pb_writes);
  EXPECT_EQ(recounted.pb_reads, mine.pb_reads);
  EXPECT_EQ(recounted.attachment_loads, mine.attachment_loads);
  EXPECT_EQ(recounted.attachment_stores, mine.attachment_stores);

  // And the writer's and reader's StreamCounts agree with the renderer's.
  stream::StreamReader reader(bytes);
  stream::Event e;
  while (reader.next(e)) {
  }
  EXPECT_EQ(reader.counts(), written);
  EXPECT_EQ(written[stream::EventKind::Quad], mine.quads);
  EXPECT_EQ(written[stream::EventKind::Texture], mine.texture_samples);
  EXPECT_EQ(written[stream::EventKind::Draw], mine.draws);
  EXPECT_EQ(written.fragment_instructions, mine.fragment_instructions);
  EXPECT_EQ(written.vertex_instructions, mine.vertex_instructions);
  EXPECT_EQ(written.fragment_mix, mine.fragment_mix);
  EXPECT_EQ(written.vertex_mix, mine.vertex_mix);
  EXPECT_EQ(written.covered_pixels, mine.fragments);
  EXPECT_EQ(written.texture_lines, mine.texture_lines);
  EXPECT_EQ(written[stream::EventKind::VertexTexture], mine.vertex_texture_samples);
  EXPECT_EQ(written.vertex_texture_lines, mine.vertex_texture_lines);
}

// Pass 0 of both tests: a 16x16 texture drawn with a rotated quad over a depth-tested
// background, then a discarding draw in front, then a strip whose colours the vertex shader
// samples. With `samples` > 1 the targets are multisampled
// (colour resolved into a third image), the textured draw is shaded per sample, and a line
// strip and points are added.
frontend::RenderPassInstance make_pass(testing::Scene& scene, uint32_t samples) {
  frontend::Image* tex = scene.image(VK_FORMAT_R8G8B8A8_UNORM, 16, 16, 4, 0x7000000);
  for (size_t i = 0; i < tex->planes[0].size(); ++i) tex->planes[0][i] = static_cast<uint8_t>(i * 13);
  frontend::Image* color = scene.image(VK_FORMAT_B8G8R8A8_UNORM, kW, kH, 4, 0x1000000);
  frontend::Image* depth = scene.image(VK_FORMAT_D16_UNORM, kW, kH, 2, 0x2000000);
  for (frontend::Image* img : {color, depth}) {
    img->samples = samples;
    img->planes[0].resize(img->planes[0].size() * samples);
  }
  auto p = testing::pass(kW, kH, scene.view(color), VK_ATTACHMENT_LOAD_OP_LOAD, VK_ATTACHMENT_STORE_OP_STORE,
                         scene.view(depth, 0, VK_IMAGE_ASPECT_DEPTH_BIT));
  const auto cv = [](float x, float y, float z, float a) { return ColorVertex{{x, y, z, 1}, {0.3f, 0.6f, 0.9f, a}}; };
  const std::vector<ColorVertex> background = {cv(-1, -1, 0.8f, 1), cv(1, -1, 0.0f, 1), cv(1, 1, 0.8f, 1),
                                               cv(-1, -1, 0.8f, 1), cv(1, 1, 0.8f, 1), cv(-1, 1, 0.0f, 1)};
  frontend::Draw bg = testing::color_draw("color.vert", "color.frag",
                                          scene.buffer(background.data(), background.size() * sizeof(ColorVertex), 0x10000), 6, kW, kH);
  bg.state.depth_test = bg.state.depth_write = 1;
  const auto tv = [](float x, float y, float u, float v) { return TexturedVertex{{x, y, 0.5f, 1}, {u, v}}; };
  const std::vector<TexturedVertex> quad = {tv(0, -0.9f, 0, 0), tv(0.9f, 0, 2, 0), tv(0, 0.9f, 2, 2),
                                            tv(0, -0.9f, 0, 0), tv(0, 0.9f, 2, 2), tv(-0.9f, 0, 0, 2)};
  frontend::Draw textured = testing::textured_draw(scene.buffer(quad.data(), quad.size() * sizeof(TexturedVertex), 0x20000), 6, kW, kH);
  textured.state.depth_test = textured.state.depth_write = 1;
  frontend::DescriptorBinding binding;
  binding.type = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
  capture::SamplerRecord* linear = const_cast<capture::SamplerRecord*>(scene.nearest_sampler());
  linear->mag_filter = linear->min_filter = VK_FILTER_LINEAR;
  linear->address_u = linear->address_v = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  binding.elements.push_back({scene.view(tex), linear, nullptr, 0, 0});
  textured.descriptors.push_back(binding);
  const std::vector<ColorVertex> front = {cv(-1, -1, 0.1f, 0), cv(1, -1, 0.1f, 1), cv(-1, 1, 0.1f, 1)};
  frontend::Draw discard = testing::color_draw("color.vert", "discard.frag",
                                               scene.buffer(front.data(), front.size() * sizeof(ColorVertex), 0x30000), 3, kW, kH);
  discard.state.depth_test = discard.state.depth_write = 1;
  frontend::Draw vertex_sampled = textured;
  vertex_sampled.stages[0] = testing::stage("vertex_sampled.vert");
  vertex_sampled.stages[1] = testing::stage("color.frag");
  vertex_sampled.state.depth_test = vertex_sampled.state.depth_write = 0;
  p.commands.push_back(bg);
  p.commands.push_back(textured);
  p.commands.push_back(discard);
  p.commands.push_back(vertex_sampled);
  if (samples > 1) {
    // Shaded once per sample: four times the texture samples of a quad's lanes.
    std::get<frontend::Draw>(p.commands[1]).state.sample_shading = 1;
    std::get<frontend::Draw>(p.commands[1]).state.min_sample_shading = 1.0f;
    p.attachments[0].resolve = scene.view(scene.image(VK_FORMAT_B8G8R8A8_UNORM, kW, kH, 4, 0x3000000));
    const std::vector<ColorVertex> strip = {cv(-0.9f, -0.8f, 0.05f, 1), cv(0.7f, 0.3f, 0.05f, 1), cv(-0.2f, 0.9f, 0.05f, 1)};
    frontend::Draw lines = testing::color_draw("color.vert", "color.frag",
                                               scene.buffer(strip.data(), strip.size() * sizeof(ColorVertex), 0x40000), 3, kW, kH);
    lines.state.topology = VK_PRIMITIVE_TOPOLOGY_LINE_STRIP;
    lines.state.line_width = 3;
    p.commands.push_back(lines);
    const std::vector<ColorVertex> points = {ColorVertex{{0.5f, -0.5f, 0.05f, 1}, {1, 1, 1, 7}},
                                             ColorVertex{{-0.5f, 0.5f, 0.05f, 1}, {1, 1, 1, 3}}};
    frontend::Draw sprites = testing::color_draw("point_size.vert", "color.frag",
                                                 scene.buffer(points.data(), points.size() * sizeof(ColorVertex), 0x50000), 2, kW, kH);
    sprites.state.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
    p.commands.push_back(sprites);
  }
  return p;
}

TEST(StreamCounts, RendererCountsEqualWhatTheStreamReaderRecounts) {
  for (uint32_t samples : {1u, 4u}) {
    testing::Scene scene;
    stream::StreamWriter writer;
    Renderer renderer(&writer);
    frontend::SkipCounts skipped;
    auto p = make_pass(scene, samples);
    p.index = 0;
    writer.frame_begin(1, kW, kH);
    renderer.render_pass(p, skipped);
    p.index = 1;
    p.attachments[0].load_op = VK_ATTACHMENT_LOAD_OP_CLEAR;
    renderer.render_pass(p, skipped);
    writer.frame_end();
    ASSERT_EQ(skipped.total(), 0u);
    const stream::StreamCounts written = writer.counts();
    const std::vector<uint8_t> bytes = writer.finish();

    const RenderStats& mine = renderer.frame_stats();
    ASSERT_EQ(renderer.pass_stats().size(), 2u);
    EXPECT_GT(mine.texture_samples, 0u);
    EXPECT_EQ(mine.vertex_texture_samples, 2u * 6u);  // 6 vertices per pass, one sample each
    EXPECT_GT(mine.vertex_texture_lines, 0u);
    EXPECT_GT(mine.quads_shaded, 0u);
    EXPECT_LT(mine.fragments_shaded, mine.fragments);  // early depth kills some
    EXPECT_LT(mine.pixels_written, mine.fragments);    // discard kills some
    SCOPED_TRACE(samples);
    expect_reconciled(renderer, written, bytes);
    EXPECT_GT(mine.fragment_mix.varying, 0u);
    EXPECT_GT(mine.fragment_mix.texture, 0u);
    EXPECT_GT(mine.vertex_mix.varying, 0u);

    // Attachment traffic names its aspect: colour attachment 0 (and the resolve target 2), depth
    // attachment 1.
    stream::StreamReader reader(bytes);
    stream::Event e;
    uint64_t depth_stores = 0;
    while (reader.next(e)) {
      if (e.kind != stream::EventKind::AttachmentLoad && e.kind != stream::EventKind::AttachmentStore) continue;
      EXPECT_EQ(e.u[2], e.u[1] == 1 ? stream::kAspectDepthStencil : stream::kAspectColour) << e.u[1];
      if (e.kind == stream::EventKind::AttachmentStore && e.u[1] == 1) ++depth_stores;
    }
    EXPECT_GT(depth_stores, 0u);
  }
}

// A draw whose shaders' operations are known (tests/render/glsl/op_mix.frag, color.vert): every
// shaded quad carries exactly the fragment shader's mix for each of its shading units, every
// other quad none, and each vertex batch the vertex shader's mix per quad of four vertices.
TEST(StreamCounts, QuadsCarryTheirShadersOperationMix) {
  // op_mix.frag: normalize(vec3) 6 alu + 1 sfu; FragCoord.x to int, & 1, == 0: 3 alu; vec4 * vec4:
  // 4 alu; sqrt(vec3): 3 sfu (both sides: every quad has even and odd columns); varyings:
  // v_color 4, FragCoord.x 1.
  const stream::OpMix fragment{13, 4, 5, 0, 0};
  for (uint32_t samples : {1u, 4u}) {
    SCOPED_TRACE(samples);
    testing::Scene scene;
    frontend::Image* color = scene.image(VK_FORMAT_R8G8B8A8_UNORM, kW, kH, 4, 0x1000000);
    color->samples = samples;
    color->planes[0].resize(color->planes[0].size() * samples);
    auto p = testing::pass(kW, kH, scene.view(color), VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE);
    const auto cv = [](float x, float y) { return ColorVertex{{x, y, 0.5f, 1}, {0.25f, 0.5f, 0.75f, 1}}; };
    // A triangle covering part of the area (edge quads partly covered) and one covering a corner.
    const std::vector<ColorVertex> tris = {cv(-0.9f, -0.8f), cv(0.7f, -0.3f), cv(-0.2f, 0.9f),
                                           cv(0.5f, 0.5f), cv(1.0f, 0.5f), cv(1.0f, 1.0f)};
    frontend::Draw d = testing::color_draw("color.vert", "op_mix.frag",
                                           scene.buffer(tris.data(), tris.size() * sizeof(ColorVertex), 0x10000), 6, kW, kH);
    if (samples > 1) {
      d.state.sample_shading = 1;  // one shading unit (a warp of the quad's lanes) per covered sample
      d.state.min_sample_shading = 1.0f;
    }
    p.commands.push_back(d);
    stream::StreamWriter writer;
    Renderer renderer(&writer);
    frontend::SkipCounts skipped;
    writer.frame_begin(1, kW, kH);
    renderer.render_pass(p, skipped);
    writer.frame_end();
    ASSERT_EQ(skipped.total(), 0u);
    const std::vector<uint8_t> bytes = writer.finish();
    stream::StreamReader reader(bytes);
    stream::Event e;
    uint64_t shaded = 0, units_all_samples = 0, vertex_batches = 0;
    while (reader.next(e)) {
      if (e.kind == stream::EventKind::VertexShade) {
        // color.vert reads a_position and a_color: 8 varyings per quad of vertices, nothing else.
        ++vertex_batches;
        EXPECT_EQ(e.u[0], 6u);
        EXPECT_EQ(e.mix, (stream::OpMix{0, 0, 2 * 8, 0, 0}));
      }
      if (e.kind != stream::EventKind::Quad) continue;
      if (!(e.u[5] & stream::kQuadShaded)) {
        EXPECT_EQ(e.mix, stream::OpMix{});
        continue;
      }
      ++shaded;
      // One shading unit per pixel-rate quad; per sample, one per sample any pixel covers.
      const uint32_t units = e.mix.alu / fragment.alu;
      ASSERT_GE(units, 1u);
      ASSERT_LE(units, samples);
      EXPECT_EQ(e.mix, (stream::OpMix{units * fragment.alu, units * fragment.sfu, units * fragment.varying, 0, 0}))
          << e.u[0] << "," << e.u[1];
      if (units == samples) ++units_all_samples;
    }
    EXPECT_EQ(reader.error(), "");
    EXPECT_EQ(vertex_batches, 1u);
    EXPECT_GT(shaded, 20u);
    EXPECT_GT(units_all_samples, shaded / 2);  // interior quads: every sample covered
    EXPECT_EQ(renderer.frame_stats().fragment_mix.alu, reader.counts().fragment_mix.alu);
  }
}

}  // namespace
}  // namespace tessera::render
