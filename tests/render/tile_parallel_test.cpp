// The tiles of a pass shaded on several threads (RenderConfig::threads) give what one thread
// gives: the same stream bytes, the same counts, the same skip reasons and the same attachment
// bytes, on a multi-draw scene with a texture, blending, depth, a clear inside the pass, partial
// edge tiles and a render area offset; with 4 samples and a resolve; for a pass whose fragment
// shader never ends in some tiles (the same error and bytes up to it); and for one
// whose fragment shader counts its invocations with an atomic (kept serial).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "render_test_util.h"
#include "tessera/capture/hash.h"
#include "tessera/render/renderer.h"

namespace tessera::render {
namespace {

using testing::TexturedVertex;

constexpr uint32_t kW = 150, kH = 100;  // 5 x 4 tiles of 32, the last column and row partial

struct Result {
  std::vector<uint8_t> stream;
  RenderStats frame;
  std::vector<PassStats> passes;
  std::vector<std::pair<std::string, uint64_t>> skipped;
  std::vector<std::vector<uint8_t>> color, depth, resolved;
  std::string error;  // what the pass threw (frontend::ReplayLimitError), empty when nothing
};

// Renders the scene on `threads` threads; everything it builds is its own, so two calls start
// from the same bytes.
// With `broken`, layer 3's fragment shader loops forever right of u = 1 (spin.frag): the
// executor's watchdog stops it in the first tile that shades such a fragment, and the pass
// throws frontend::ReplayLimitError. The pass is rendered `passes` times (the second time over
// what the first stored).
// With `shared`, the helpers come from that budget (RenderConfig::thread_budget), of which the
// calling thread holds one.
Result render_scene(uint32_t threads, uint32_t samples, bool broken = false, uint32_t passes = 2,
                    ThreadBudget* shared = nullptr) {
  testing::Scene scene;
  frontend::Image* tex = scene.image(VK_FORMAT_R8G8B8A8_UNORM, 64, 64, 4, 0x7000000);
  for (size_t i = 0; i < tex->planes[0].size(); ++i) tex->planes[0][i] = static_cast<uint8_t>(i * 37 + (i >> 7));
  frontend::Image* color = scene.image(VK_FORMAT_B8G8R8A8_UNORM, kW, kH, 4, 0x10000000);
  // Contents the LOAD op reads back: every tile starts from different bytes.
  for (size_t i = 0; i < color->planes[0].size(); ++i) color->planes[0][i] = static_cast<uint8_t>(i * 7);
  frontend::Image* depth = scene.image(VK_FORMAT_D24_UNORM_S8_UINT, kW, kH, 4, 0x20000000, true);
  auto pass = testing::pass(kW, kH, scene.view(color), VK_ATTACHMENT_LOAD_OP_LOAD, VK_ATTACHMENT_STORE_OP_STORE,
                            scene.view(depth, 0, VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT));
  pass.render_area = {3, 2, kW - 3, kH - 2};
  frontend::Image* resolved = nullptr;
  if (samples > 1) {
    for (frontend::Image* img : {color, depth}) {
      img->samples = samples;
      for (auto& plane : img->planes) plane.resize(plane.size() * samples, 0x55);
    }
    resolved = scene.image(VK_FORMAT_B8G8R8A8_UNORM, kW, kH, 4, 0x30000000);
    pass.attachments[0].resolve = scene.view(resolved);
  }
  auto* linear = const_cast<capture::SamplerRecord*>(scene.nearest_sampler());
  linear->mag_filter = linear->min_filter = VK_FILTER_LINEAR;
  linear->mipmap_mode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
  linear->address_u = linear->address_v = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  for (int layer = 0; layer < 4; ++layer) {
    // A fan of slanted quads per layer, each layer shifted: primitives cross tile edges.
    std::vector<TexturedVertex> v;
    const float z = 0.8f - 0.15f * static_cast<float>(layer), s = 0.13f * static_cast<float>(layer);
    const auto mk = [&](float x, float y) { return TexturedVertex{{x, y, z, 1}, {x * 2.5f + s, y * 1.7f - s}}; };
    for (int i = 0; i < 6; ++i) {
      const float x0 = -0.95f + 0.3f * static_cast<float>(i) + s * 0.2f, y0 = -0.9f + 0.05f * static_cast<float>(layer);
      v.insert(v.end(), {mk(x0, y0), mk(x0 + 0.5f, y0 + 0.2f), mk(x0 + 0.3f, y0 + 1.7f)});
    }
    frontend::Draw d = testing::textured_draw(
        scene.buffer(v.data(), v.size() * sizeof(TexturedVertex), 0x100000 * static_cast<uint64_t>(layer + 1)),
        static_cast<uint32_t>(v.size()), kW, kH);
    d.index = static_cast<uint32_t>(layer);
    if (broken && layer == 3) d.stages.back() = testing::stage("spin.frag");
    d.state.samples = samples;
    d.state.depth_test = d.state.depth_write = 1;
    d.state.depth_compare = layer == 2 ? VK_COMPARE_OP_GREATER : VK_COMPARE_OP_LESS_OR_EQUAL;
    if (layer % 2)
      d.state.blend_attachments[0] = {1, VK_BLEND_FACTOR_SRC_ALPHA, VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA, VK_BLEND_OP_ADD,
                                      VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD, 0xf};
    frontend::DescriptorBinding b;
    b.type = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    b.elements.push_back({scene.view(tex), linear, nullptr, 0, 0});
    d.descriptors.push_back(b);
    pass.commands.push_back(d);
    if (layer == 1) {
      frontend::ClearAttachments clear;
      clear.record.attachments.push_back({VK_IMAGE_ASPECT_COLOR_BIT, 0, testing::clear_color(0.2f, 0.4f, 0.6f, 1)});
      clear.record.rects.push_back({{40, 30, 50, 40}, 0, 1});
      pass.commands.push_back(clear);
    }
  }

  stream::StreamWriter writer;
  RenderConfig config;
  config.threads = threads;
  config.thread_budget = shared;
  // spin.frag's loop is stopped after 2^16 blocks, not the default 2^24: milliseconds a batch.
  if (broken) config.shader_block_budget = uint64_t{1} << 16;
  Renderer renderer(&writer, config);
  frontend::SkipCounts skipped;
  writer.frame_begin(1, kW, kH);
  std::string error;
  try {
    for (pass.index = 0; pass.index < passes; ++pass.index) renderer.render_pass(pass, skipped);  // workers reused
  } catch (const frontend::ReplayLimitError& e) {
    error = e.what();
  }
  writer.frame_end();
  Result r{writer.finish(), renderer.frame_stats(), renderer.pass_stats(), skipped.reasons, color->planes,
           depth->planes, {}, error};
  if (resolved) r.resolved = resolved->planes;
  return r;
}

void expect_same(const Result& serial, const Result& parallel) {
  EXPECT_EQ(serial.stream, parallel.stream);
  EXPECT_EQ(serial.frame, parallel.frame);
  ASSERT_EQ(serial.passes.size(), parallel.passes.size());
  for (size_t i = 0; i < serial.passes.size(); ++i) EXPECT_EQ(serial.passes[i].stats, parallel.passes[i].stats);
  EXPECT_EQ(serial.skipped, parallel.skipped);
  EXPECT_EQ(serial.color, parallel.color);
  EXPECT_EQ(serial.depth, parallel.depth);
  EXPECT_EQ(serial.resolved, parallel.resolved);
  EXPECT_EQ(serial.error, parallel.error);
}

TEST(TileParallel, FourThreadsGiveTheSerialStreamCountsAndPixels) {
  const Result serial = render_scene(1, 1);
  // The scene exercises what it claims: every tile, shaded textured quads, blending.
  EXPECT_EQ(serial.frame.tiles, 2u * 5u * 4u);
  EXPECT_GT(serial.frame.texture_samples, 1000u);
  EXPECT_GT(serial.frame.quads_shaded, 500u);
  EXPECT_TRUE(serial.skipped.empty());
  for (uint32_t threads : {2u, 4u, 7u}) {
    SCOPED_TRACE(threads);
    expect_same(serial, render_scene(threads, 1));
  }
}

// Helpers taken from a budget another thread keeps taking and giving back (a study's models):
// they join between tiles when a thread is free and leave between tiles when the other thread
// waits, and the result is still the serial one.
TEST(TileParallel, HelpersFromASharedBudgetGiveTheSerialResult) {
  const Result serial = render_scene(1, 1);
  for (uint32_t threads : {2u, 4u}) {
    SCOPED_TRACE(threads);
    ThreadBudget budget(threads);
    budget.take();  // this thread's
    std::atomic<bool> done{false};
    std::thread other([&] {
      while (!done) {
        budget.take();
        std::this_thread::sleep_for(std::chrono::microseconds(300));
        budget.give();
        std::this_thread::yield();
      }
    });
    for (int run = 0; run < 3; ++run) expect_same(serial, render_scene(threads, 1, false, 2, &budget));
    done = true;
    other.join();
    budget.give();
    // Every helper gave its thread back: all `threads` can be taken again, and no more.
    for (uint32_t t = 0; t < threads; ++t) EXPECT_TRUE(budget.try_take()) << t;
    EXPECT_FALSE(budget.try_take());
  }
  // A budget with no thread to spare: the calling thread renders every tile.
  ThreadBudget alone(1);
  alone.take();
  expect_same(serial, render_scene(4, 1, false, 2, &alone));
  alone.give();
}

TEST(TileParallel, FourSamplesWithAResolveGiveTheSerialResult) {
  const Result serial = render_scene(1, 4);
  EXPECT_FALSE(serial.resolved.empty());
  expect_same(serial, render_scene(4, 4));
}

// A fragment shader that never ends stops the pass with one error naming the draw and the
// shader. When a tile throws on a thread of the parallel raster phase, the pass is rendered
// again serially from the images as they were, so the outcome is the serial one whatever the
// threads reached first: the same error (that of the first tile in tile order to fail, which
// is not the first tile whose fragments reach the loop on every thread count), and the same
// stream and image bytes up to it (the tiles before it stored, none after).
TEST(TileParallel, AFragmentShaderThatNeverEndsStopsThePassWithTheSerialOutcome) {
  const frontend::ShaderStageCode spin = testing::stage("spin.frag");
  const std::string hash = capture::hash128(std::as_bytes(std::span<const uint32_t>(*spin.spirv))).hex();
  const Result serial = render_scene(1, 1, true, 1);
  EXPECT_EQ(serial.error.rfind("draw 3 (pass 0, 18 vertices x 1 instances): fragment shader " + hash + ": exceeded ", 0),
            0u)
      << serial.error;
  // Tiles before the failing one were stored: the image is no longer what the LOAD op read.
  const Result untouched = render_scene(1, 1, true, 0);
  EXPECT_NE(serial.color, untouched.color);
  for (uint32_t threads : {2u, 3u}) {
    SCOPED_TRACE(threads);
    expect_same(serial, render_scene(threads, 1, true, 1));
  }
}

// count.frag adds 1 to a storage buffer per invocation: the pass stays serial, so no increment
// is lost to two threads and the stream is the serial one.
TEST(TileParallel, FragmentShaderAtomicsKeepThePassSerial) {
  constexpr uint32_t W = 256, H = 256;  // 64 tiles
  const auto run = [&](uint32_t threads, uint32_t* shaded) {
    testing::Scene scene;
    frontend::Image* color = scene.image(VK_FORMAT_R8G8B8A8_UNORM, W, H, 4, 0x100000);
    auto p = testing::pass(W, H, scene.view(color), VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE);
    const testing::ColorVertex v[6] = {{{-1, -1, 0, 1}, {0, 1, 0, 1}}, {{1, -1, 0, 1}, {0, 1, 0, 1}},
                                       {{1, 1, 0, 1}, {0, 1, 0, 1}},   {{-1, -1, 0, 1}, {0, 1, 0, 1}},
                                       {{1, 1, 0, 1}, {0, 1, 0, 1}},   {{-1, 1, 0, 1}, {0, 1, 0, 1}}};
    frontend::Draw d = testing::color_draw("color.vert", "count.frag", scene.buffer(v, sizeof v, 0x10000), 6, W, H);
    const uint32_t zero = 0;
    frontend::Buffer* counter = scene.buffer(&zero, 4, 0x40000);
    frontend::DescriptorBinding b;
    b.binding = 2;
    b.type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    b.elements.push_back({nullptr, nullptr, counter, 0, 4});
    d.descriptors.push_back(b);
    p.commands.push_back(d);
    stream::StreamWriter writer;
    RenderConfig config;
    config.threads = threads;
    Renderer renderer(&writer, config);
    frontend::SkipCounts skipped;
    writer.frame_begin(1, W, H);
    renderer.render_pass(p, skipped);
    writer.frame_end();
    EXPECT_EQ(skipped.total(), 0u);
    std::memcpy(shaded, counter->bytes().data(), 4);
    return writer.finish();
  };
  uint32_t serial = 0, parallel = 0;
  const std::vector<uint8_t> serial_stream = run(1, &serial);
  EXPECT_EQ(serial, W * H);
  EXPECT_EQ(run(4, &parallel), serial_stream);
  EXPECT_EQ(parallel, W * H);
}

}  // namespace
}  // namespace tessera::render
