// What the renderer holds beyond a draw's own arrays, within the replay's memory budget: the
// whole render area a pass of several subpasses keeps between them, the copies of the stored
// images the parallel raster phase makes, and the texture cache's copies (blocked and decoded,
// 16 bytes a texel). An ordinary frame renders under a modest budget; the passes give back
// what they held when they end, the cache when the renderer goes; beyond the budget the pass
// stops with one line naming it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "render_test_util.h"
#include "tessera/render/renderer.h"

namespace tessera::render {
namespace {

using testing::TexturedVertex;

constexpr uint32_t kW = 96, kH = 64;  // 3 x 2 tiles of 32

class RenderBudgetTest : public ::testing::Test {
 protected:
  // A pass over the kW x kH target drawing a textured quad (a 64x64 texture) in each of
  // `subpasses` subpasses.
  frontend::RenderPassInstance textured_pass(uint32_t subpasses) {
    auto p = testing::pass(kW, kH, scene.view(target), VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE);
    for (uint32_t s = 0; s < subpasses; ++s) {
      if (s > 0) {
        p.subpasses.push_back(p.subpasses[0]);
        p.commands.push_back(frontend::NextSubpass{});
      }
      frontend::Draw d = testing::textured_draw(quad, 6, kW, kH);
      frontend::DescriptorBinding b;
      b.type = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
      b.elements.push_back({scene.view(texture), scene.nearest_sampler(), nullptr, 0, 0});
      d.descriptors.push_back(b);
      p.commands.push_back(d);
    }
    return p;
  }
  std::string refusal(Renderer& renderer, const frontend::RenderPassInstance& p) {
    try {
      renderer.render_pass(p, skipped);
    } catch (const frontend::ReplayLimitError& e) {
      return e.what();
    }
    return {};
  }

  void SetUp() override {
    target = scene.image(VK_FORMAT_R8G8B8A8_UNORM, kW, kH, 4, 0x100000);
    texture = scene.image(VK_FORMAT_R8G8B8A8_UNORM, 64, 64, 4, 0x200000);
    for (size_t i = 0; i < texture->planes[0].size(); ++i) texture->planes[0][i] = static_cast<uint8_t>(i * 13);
    const TexturedVertex v[6] = {{{-1, -1, 0.5f, 1}, {0, 0}}, {{1, -1, 0.5f, 1}, {1, 0}}, {{1, 1, 0.5f, 1}, {1, 1}},
                                 {{-1, -1, 0.5f, 1}, {0, 0}}, {{1, 1, 0.5f, 1}, {1, 1}},  {{-1, 1, 0.5f, 1}, {0, 1}}};
    quad = scene.buffer(v, sizeof v, 0x300000);
  }

  testing::Scene scene;
  frontend::Image* target = nullptr;
  frontend::Image* texture = nullptr;
  const frontend::Buffer* quad = nullptr;
  frontend::SkipCounts skipped;
};

// The texture's copy: 64x64 RGBA8 blocked (16 KiB) and decoded (16 bytes a texel, 64 KiB).
constexpr uint64_t kTextureBytes = 64 * 64 * 4 + 64 * 64 * 16;

TEST_F(RenderBudgetTest, AnOrdinaryFrameRendersUnderAModestBudgetAndGivesBackWhatItHeld) {
  frontend::MemoryBudget budget(uint64_t{1} << 20);
  {
    RenderConfig rc;
    rc.budget = &budget;
    rc.threads = 3;  // one-subpass passes take the parallel raster phase, which copies the target
    Renderer renderer(nullptr, rc);
    // A frame: a pass of two subpasses (keeping 96x64 RGBA floats, 96 KiB, between them), then
    // one of one subpass on three threads, both sampling the texture.
    for (int frame = 0; frame < 3; ++frame) {
      EXPECT_EQ(refusal(renderer, textured_pass(2)), "");
      EXPECT_EQ(refusal(renderer, textured_pass(1)), "");
      EXPECT_EQ(skipped.total(), 0u) << skipped.reasons[0].first;
      // After each frame only the texture cache's copy is held: the passes gave back theirs.
      EXPECT_EQ(budget.held(), kTextureBytes) << frame;
    }
    EXPECT_GT(renderer.frame_stats().texture_samples, 0u);
    EXPECT_EQ(renderer.frame_stats().tiles, 3u * (2 + 1) * 6);
  }
  EXPECT_EQ(budget.held(), 0u);
}

TEST_F(RenderBudgetTest, KeepingTheRenderAreaBetweenSubpassesIsHeldWithinTheBudget) {
  // Not room for 96 KiB of kept colour, taken when the pass starts, before any draw.
  frontend::MemoryBudget budget(64 * 1024);
  RenderConfig rc;
  rc.budget = &budget;
  Renderer renderer(nullptr, rc);
  EXPECT_EQ(refusal(renderer, textured_pass(2)),
            "pass 0 (2 subpasses, 96x64): keeping its attachments between subpasses needs 96.0 KiB, beyond the "
            "replay's memory budget of 64.0 KiB (0 B already held; --max-memory sets it)");
  EXPECT_EQ(budget.held(), 0u);
}

TEST_F(RenderBudgetTest, TheParallelRasterPhasesCopyOfTheStoredImagesIsHeldWithinTheBudget) {
  // Room for the texture and the draw, not for a copy of the 24 KiB target.
  frontend::MemoryBudget budget(kTextureBytes + 16 * 1024);
  RenderConfig rc;
  rc.budget = &budget;
  rc.threads = 2;
  Renderer renderer(nullptr, rc);
  const std::string e = refusal(renderer, textured_pass(1));
  EXPECT_EQ(e.rfind("pass 0: copying the images its tiles store (for the 2 threads of its raster phase) needs 24.0 KiB, "
                    "beyond the replay's memory budget of 96.0 KiB (",
                    0),
            0u)
      << e;
  // The cache keeps its copy until the renderer goes; the pass gave back the rest.
  EXPECT_EQ(budget.held(), kTextureBytes);
}

TEST_F(RenderBudgetTest, ATextureCopyBeyondTheBudgetIsRefused) {
  frontend::MemoryBudget budget(64 * 1024);
  RenderConfig rc;
  rc.budget = &budget;
  Renderer renderer(nullptr, rc);
  EXPECT_EQ(refusal(renderer, textured_pass(1)),
            "image 0x3002 (a view of 64x64x1, 1 mips, 1 layers): its texture copy needs 80.0 KiB, beyond the "
            "replay's memory budget of 64.0 KiB (0 B already held; --max-memory sets it)");
  EXPECT_EQ(budget.held(), 0u);
}

}  // namespace
}  // namespace tessera::render
