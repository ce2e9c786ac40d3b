// The vertex stage shading a draw's batches on several threads (RenderConfig::threads) gives what
// one thread gives: the same post-transform vertices (hence pixels), the same events in the same
// order (VertexFetch, VertexTexture, VertexShade per batch, in batch order), the same counts and
// skip reasons; a vertex shader that never ends stops the replay with the serial error and the
// stream up to it. The exact figures are checked on the serial result, so a difference in either
// shows.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "render_test_util.h"
#include "tessera/render/renderer.h"
#include "vertex_stage.h"

namespace tessera::render {
namespace {

using testing::TexturedVertex;

constexpr uint32_t kW = 128, kH = 128;
constexpr uint64_t kTexture = 0x7000000, kVertices = 0x20000;
// 32 full batches of 64 lanes and one of 52 (the last batch partial): above
// VertexStage::kMinParallelVertices, so the draw is shaded on several threads.
constexpr uint32_t kTriangles = 700, kCount = 3 * kTriangles;
static_assert(kCount >= VertexStage::kMinParallelVertices);

struct Result {
  std::vector<uint8_t> stream;
  RenderStats frame;
  std::vector<std::pair<std::string, uint64_t>> skipped;
  std::vector<uint8_t> color;
  std::string error;  // what the pass threw (frontend::ReplayLimitError), empty when nothing
};

// Texture coordinate of texel t of the 8x8 texture (NEAREST).
float uv(uint32_t t) { return (static_cast<float>(t) + 0.5f) / 8.0f; }

// The 64 B line of texel (x, y) of the 8x8 RGBA8 texture in the blocked layout (4x4 texels a
// line, two lines a row).
uint64_t line(uint32_t x, uint32_t y) { return kTexture + ((y / 4) * 2 + x / 4) * 64; }

// The texel vertex i reads: (t % 8, t / 8 % 8) of its triangle t = i / 3.
uint32_t texel_x(uint32_t i) { return i / 3 % 8; }
uint32_t texel_y(uint32_t i) { return i / 3 / 8 % 8; }

// Vertex i of the draw: triangle i / 3 is a small triangle at a place of its own on a 27 x 27
// grid over the render area, of one colour (its vertices read one texel).
TexturedVertex vertex(uint32_t i) {
  const uint32_t t = i / 3, corner = i % 3;
  const float x = -0.95f + 0.07f * static_cast<float>(t % 27), y = -0.95f + 0.07f * static_cast<float>(t / 27);
  return {{x + (corner == 1 ? 0.06f : 0.0f), y + (corner == 2 ? 0.06f : 0.0f), 0.5f, 1},
          {uv(texel_x(i)), uv(texel_y(i))}};
}

// Renders the draw (vertex_sampled.vert: each vertex's colour sampled from the texture) on
// `threads` threads; with `bound` false the texture is not bound (every sample returns zeros,
// counted). With `spin_at`, spin.vert shades the draw instead and vertex `spin_at` alone never
// ends (the others pass through). With `shared`, the helpers come from that budget.
Result render(uint32_t threads, bool bound = true, uint32_t spin_at = 0, ThreadBudget* shared = nullptr) {
  testing::Scene scene;
  frontend::Image* tex = scene.image(VK_FORMAT_R8G8B8A8_UNORM, 8, 8, 4, kTexture);
  for (uint32_t y = 0; y < 8; ++y)
    for (uint32_t x = 0; x < 8; ++x) {
      uint8_t* p = tex->planes[0].data() + (y * 8 + x) * 4;
      p[0] = static_cast<uint8_t>(32 * x);
      p[1] = static_cast<uint8_t>(32 * y);
      p[2] = 7;
      p[3] = 255;
    }
  frontend::Image* color = scene.image(VK_FORMAT_R8G8B8A8_UNORM, kW, kH, 4, 0x100000);
  auto pass = testing::pass(kW, kH, scene.view(color), VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE);
  std::vector<TexturedVertex> v;
  for (uint32_t i = 0; i < kCount; ++i) v.push_back(vertex(i));
  if (spin_at != 0) v[spin_at].position[0] = 1.5f;  // beyond 1: spin.vert's loop never ends
  frontend::Draw d = testing::textured_draw(scene.buffer(v.data(), v.size() * sizeof(TexturedVertex), kVertices),
                                            kCount, kW, kH);
  d.stages[0] = testing::stage(spin_at != 0 ? "spin.vert" : "vertex_sampled.vert");
  d.stages[1] = testing::stage("color.frag");
  if (bound) {
    frontend::DescriptorBinding binding;
    binding.type = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    binding.elements.push_back({scene.view(tex), scene.nearest_sampler(), nullptr, 0, 0});
    d.descriptors.push_back(binding);
  }
  pass.commands.push_back(d);

  stream::StreamWriter writer;
  RenderConfig config;
  config.threads = threads;
  config.thread_budget = shared;
  // spin.vert's loop is stopped after 2^16 blocks, not the default 2^24: milliseconds a batch.
  if (spin_at != 0) config.shader_block_budget = uint64_t{1} << 16;
  Renderer renderer(&writer, config);
  frontend::SkipCounts skipped;
  writer.frame_begin(1, kW, kH);
  std::string error;
  try {
    renderer.render_pass(pass, skipped);
  } catch (const frontend::ReplayLimitError& e) {
    error = e.what();
  }
  writer.frame_end();
  return {writer.finish(), renderer.frame_stats(), skipped.reasons, color->planes[0], error};
}

void expect_same(const Result& serial, const Result& parallel) {
  EXPECT_EQ(serial.stream, parallel.stream);
  EXPECT_EQ(serial.frame, parallel.frame);
  EXPECT_EQ(serial.skipped, parallel.skipped);
  EXPECT_EQ(serial.color, parallel.color);
  EXPECT_EQ(serial.error, parallel.error);
}

// The serial result is the exact one: per batch in order, two VertexFetch events per vertex at
// the vertex's attributes, its vertices' VertexTexture events on their texels' lines, then its
// VertexShade; every triangle's pixel has the colour of its vertices' texel.
void expect_exact(const Result& r) {
  ASSERT_EQ(r.error, "");
  ASSERT_TRUE(r.skipped.empty());
  stream::StreamReader reader(r.stream);
  stream::Event e;
  uint32_t first = 0, fetched = 0, sampled = 0;
  std::vector<uint32_t> batches;
  while (reader.next(e)) {
    if (e.kind == stream::EventKind::VertexFetch) {
      // position (16 B) then uv (8 B) of vertex fetched / 2, 24 B apart.
      const uint32_t i = fetched / 2;
      ASSERT_LT(i, kCount);
      EXPECT_EQ(e.u[0], fetched % 2 == 0 ? 16u : 8u) << fetched;
      EXPECT_EQ(e.address, kVertices + i * sizeof(TexturedVertex) + (fetched % 2) * 16) << fetched;
      ++fetched;
    } else if (e.kind == stream::EventKind::VertexTexture) {
      // The samples of the batch's vertices follow all of the batch's fetches.
      const uint32_t i = first + e.u[0];
      EXPECT_EQ(fetched, 2 * std::min(first + 64, kCount)) << i;
      EXPECT_EQ(i, first + sampled) << i;
      ASSERT_EQ(e.lines.size(), 1u);
      EXPECT_EQ(e.lines[0], line(texel_x(i), texel_y(i))) << i;
      ++sampled;
    } else if (e.kind == stream::EventKind::VertexShade) {
      EXPECT_EQ(sampled, e.u[0]);
      batches.push_back(e.u[0]);
      first += e.u[0];
      sampled = 0;
    }
  }
  ASSERT_EQ(reader.error(), "");
  std::vector<uint32_t> expected(kCount / 64, 64);
  expected.push_back(kCount % 64);
  EXPECT_EQ(batches, expected);
  EXPECT_EQ(r.frame.vertices_shaded, kCount);
  EXPECT_EQ(r.frame.vertex_fetches, 2u * kCount);
  EXPECT_EQ(r.frame.vertex_texture_samples, kCount);
  EXPECT_EQ(r.frame.vertex_texture_lines, kCount);
  EXPECT_EQ(r.frame.primitives_binned, kTriangles);
  // Each triangle (legs of 3.84 pixels) covers the pixel whose centre is 0.5 to 1.5 pixels
  // beyond its first vertex on both axes.
  for (uint32_t t = 0; t < kTriangles; ++t) {
    const uint32_t i = 3 * t;
    const TexturedVertex v = vertex(i);
    const auto px = static_cast<uint32_t>((v.position[0] + 1) * kW / 2 + 1);
    const auto py = static_cast<uint32_t>((v.position[1] + 1) * kH / 2 + 1);
    const uint8_t* p = r.color.data() + (py * kW + px) * 4;
    EXPECT_EQ(p[0], texel_x(i) * 32) << t;
    EXPECT_EQ(p[1], texel_y(i) * 32) << t;
    EXPECT_EQ(p[2], 7) << t;
  }
}

TEST(VertexParallel, SeveralThreadsGiveTheSerialVerticesEventsAndCounts) {
  const Result serial = render(1);
  expect_exact(serial);
  for (uint32_t threads : {2u, 3u, 8u}) {
    SCOPED_TRACE(threads);
    const Result parallel = render(threads);
    expect_exact(parallel);
    expect_same(serial, parallel);
  }
}

// Image requests the helpers' texture units could not serve are counted with the calling
// thread's: one per batch's request (33), whichever thread shaded the batch.
TEST(VertexParallel, UnservedRequestsOfEveryThreadAreCounted) {
  const Result serial = render(1, false);
  ASSERT_EQ(serial.skipped.size(), 1u);
  EXPECT_EQ(serial.skipped[0],
            std::make_pair(std::string("texture: vertex shader image instruction on an unbound image (zeros)"),
                           uint64_t{(kCount + 63) / 64}));
  for (uint32_t threads : {2u, 4u}) {
    SCOPED_TRACE(threads);
    expect_same(serial, render(threads, false));
  }
}

// Helpers taken from a budget another thread keeps taking and giving back (a study's models):
// they join between batches when a thread is free and leave when the other thread waits; the
// result is the serial one, and every thread taken is given back.
TEST(VertexParallel, HelpersFromASharedBudgetGiveTheSerialResult) {
  const Result serial = render(1);
  for (uint32_t threads : {2u, 4u}) {
    SCOPED_TRACE(threads);
    ThreadBudget budget(threads);
    budget.take();  // this thread's
    std::atomic<bool> done{false};
    std::thread other([&] {
      while (!done) {
        budget.take();
        std::this_thread::sleep_for(std::chrono::microseconds(100));
        budget.give();
        std::this_thread::yield();
      }
    });
    for (int run = 0; run < 3; ++run) expect_same(serial, render(threads, true, 0, &budget));
    done = true;
    other.join();
    budget.give();
    for (uint32_t t = 0; t < threads; ++t) EXPECT_TRUE(budget.try_take()) << t;
    EXPECT_FALSE(budget.try_take());
  }
}

// A vertex shader that never ends for one vertex (batch 9 of 33) stops the replay with the
// serial error, and the stream holds what the serial loop wrote before it: the batches before,
// then that batch's fetches; nothing a helper shaded after it.
TEST(VertexParallel, AVertexShaderThatNeverEndsStopsWithTheSerialOutcome) {
  constexpr uint32_t kSpin = 9 * 64 + 5;
  const Result serial = render(1, true, kSpin);
  EXPECT_EQ(serial.error.rfind("draw 0 (pass 0, " + std::to_string(kCount) + " vertices x 1 instances): vertex ", 0), 0u)
      << serial.error;
  EXPECT_EQ(serial.frame.vertices_shaded, 0u);  // the pass's counts are not added when it throws
  stream::StreamReader reader(serial.stream);
  stream::Event e;
  uint32_t shades = 0, fetches = 0;
  while (reader.next(e)) {
    shades += e.kind == stream::EventKind::VertexShade;
    fetches += e.kind == stream::EventKind::VertexFetch;
  }
  EXPECT_EQ(shades, 9u);
  EXPECT_EQ(fetches, 2u * 10 * 64);
  for (uint32_t threads : {2u, 4u}) {
    SCOPED_TRACE(threads);
    expect_same(serial, render(threads, true, kSpin));
  }
}

}  // namespace
}  // namespace tessera::render
