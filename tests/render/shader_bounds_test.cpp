// Shader work too long to replay stops the replay with frontend::ReplayLimitError naming the
// dispatch or draw and the shader (CaptureReplay::replay_frame adds the capture and the frame):
// a shader stopped by the executor's watchdog (2^24 block executions in one batch: one that
// never ends, or one too long to replay), in each stage, and a dispatch of more invocations than
// the replay runs for one command, refused before any runs. Dropping the rest of the work would
// give a wrong access stream. A long shader within the default watchdog runs to its end; the
// cases that make it fire lower it (RenderConfig::shader_block_budget) so that they take
// milliseconds, not the seconds 2^24 blocks take (minutes under the sanitizers).
#include <gtest/gtest.h>

#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "render_test_util.h"
#include "tessera/capture/hash.h"
#include "tessera/render/renderer.h"

namespace tessera::render {
namespace {

using testing::ColorVertex;

// The hash the renderer names a test shader by (that of its SPIR-V, as a capture's blob).
std::string hash_of(const frontend::ShaderStageCode& code) {
  return capture::hash128(std::as_bytes(std::span<const uint32_t>(*code.spirv))).hex();
}

// The lowered watchdog of the fixture's renderer.
constexpr uint64_t kBlockBudget = uint64_t{1} << 16;
const std::string kWatchdog =
    ": exceeded 65536 block executions in one batch (the replay's watchdog: a shader that never ends, or one "
    "too long to replay)";

RenderConfig lowered_watchdog() {
  RenderConfig config;
  config.shader_block_budget = kBlockBudget;
  return config;
}

class ShaderBoundsTest : public ::testing::Test {
 protected:
  // The message of what `f` throws; empty when it returns.
  template <typename F>
  static std::string refusal(F&& f) {
    try {
      f();
    } catch (const frontend::ReplayLimitError& e) {
      return e.what();
    }
    return {};
  }
  frontend::Dispatch dispatch(const std::string& shader, uint32_t x, uint32_t y, uint32_t z) {
    frontend::Dispatch d;
    d.index = 3;
    d.stage = testing::stage(shader);
    d.group_count[0] = x, d.group_count[1] = y, d.group_count[2] = z;
    return d;
  }

  testing::Scene scene;
  stream::StreamWriter writer;
  Renderer renderer{&writer, lowered_watchdog()};
  frontend::SkipCounts skipped;
};

// fill_buffer.comp: one invocation writing every word of its buffer, in one loop.
frontend::Dispatch fill(testing::Scene& scene, frontend::Dispatch d, size_t bytes, frontend::Buffer** data) {
  std::vector<uint8_t> zeros(bytes, 0);
  *data = scene.buffer(zeros.data(), bytes, 0x1000000);
  frontend::DescriptorBinding b;
  b.binding = 0;
  b.type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  b.elements.push_back({nullptr, nullptr, *data, 0, bytes});
  d.descriptors.push_back(b);
  return d;
}

// 1 M iterations in one invocation, a few million blocks: past the watchdog's old 2^20, a long
// shader a real capture may hold, and under the default watchdog it runs to the end.
TEST_F(ShaderBoundsTest, AComputeShaderWritingEveryWordOfA4MiBBufferRunsToItsEnd) {
  constexpr size_t kBytes = size_t{4} << 20;
  frontend::Buffer* data = nullptr;
  const frontend::Dispatch d = fill(scene, dispatch("fill_buffer.comp", 1, 1, 1), kBytes, &data);
  Renderer default_watchdog(&writer);
  EXPECT_EQ(refusal([&] { default_watchdog.dispatch(d, skipped); }), "");
  EXPECT_EQ(default_watchdog.compute_stats().dispatches, 1u);
  EXPECT_EQ(skipped.total(), 0u);
  uint32_t first = 0, last = 0;
  std::memcpy(&first, data->bytes().data() + 4, 4);
  std::memcpy(&last, data->bytes().data() + kBytes - 4, 4);
  EXPECT_EQ(first, 1u);
  EXPECT_EQ(last, kBytes / 4 - 1);
}

// 256 K iterations, several blocks each: past the fixture's 2^16 blocks, so the replay stops.
TEST_F(ShaderBoundsTest, AComputeShaderWritingEveryWordOfA1MiBBufferStopsAtTheWatchdog) {
  constexpr size_t kBytes = size_t{1} << 20;
  frontend::Buffer* data = nullptr;
  const frontend::Dispatch d = fill(scene, dispatch("fill_buffer.comp", 1, 1, 1), kBytes, &data);
  EXPECT_EQ(refusal([&] { renderer.dispatch(d, skipped); }),
            "dispatch 3 (1x1x1 workgroups): compute shader " + hash_of(d.stage) + kWatchdog);
  EXPECT_EQ(renderer.compute_stats().dispatches, 0u);
  EXPECT_EQ(skipped.total(), 0u);
  // It ran until stopped: the first words are written, the last never were.
  uint32_t first = 0, last = 0;
  std::memcpy(&first, data->bytes().data() + 4, 4);
  std::memcpy(&last, data->bytes().data() + kBytes - 4, 4);
  EXPECT_EQ(first, 1u);
  EXPECT_EQ(last, 0u);
}

TEST_F(ShaderBoundsTest, ADispatchOf65535CubedWorkgroupsIsRefusedBeforeAnyInvocationRuns) {
  EXPECT_EQ(refusal([&] { renderer.dispatch(dispatch("fill_buffer.comp", 65535, 65535, 65535), skipped); }),
            "dispatch 3 (65535x65535x65535 workgroups): more than 2^27 compute shader invocations, beyond what the "
            "replay runs for one dispatch");
  // Counts whose product would wrap 64 bits are refused all the same.
  EXPECT_NE(refusal([&] { renderer.dispatch(dispatch("fill_buffer.comp", ~0u, ~0u, ~0u), skipped); }), "");
  // 2^22 workgroups of 64 invocations: the grid is within the bound, the invocations (2^28) not.
  EXPECT_EQ(refusal([&] { renderer.dispatch(dispatch("histogram.comp", 1u << 22, 1, 1), skipped); }),
            "dispatch 3 (4194304x1x1 workgroups): more than 2^27 compute shader invocations, beyond what the replay "
            "runs for one dispatch");
  EXPECT_EQ(renderer.compute_stats().invocations, 0u);
  EXPECT_EQ(skipped.total(), 0u);
}

TEST_F(ShaderBoundsTest, AVertexShaderThatNeverEndsStopsTheDraw) {
  constexpr uint32_t kW = 8, kH = 8;
  frontend::Image* img = scene.image(VK_FORMAT_R8G8B8A8_UNORM, kW, kH, 4, 0x10000);
  auto p = testing::pass(kW, kH, scene.view(img), VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE);
  p.index = 2;
  // x = 3 grows without end in spin.vert.
  const ColorVertex v[3] = {{{-1, -1, 0.5f, 1}, {1, 0, 0, 1}}, {{3, -1, 0.5f, 1}, {1, 0, 0, 1}},
                            {{-1, 3, 0.5f, 1}, {1, 0, 0, 1}}};
  frontend::Draw d = testing::color_draw("spin.vert", "color.frag", scene.buffer(v, sizeof v, 0x20000), 3, kW, kH);
  d.index = 5;
  p.commands.push_back(d);
  EXPECT_EQ(refusal([&] { renderer.render_pass(p, skipped); }),
            "draw 5 (pass 2, 3 vertices x 1 instances): vertex shader " + hash_of(d.stages[0]) + kWatchdog);
  EXPECT_EQ(skipped.total(), 0u);
}

}  // namespace
}  // namespace tessera::render
