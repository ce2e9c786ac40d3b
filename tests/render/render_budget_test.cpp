// What the renderer holds beyond a draw's own arrays, within the replay's memory budget: the
// whole render area a pass of several subpasses keeps between them, the copies of the stored
// images the parallel raster phase makes, and the texture cache's copies (blocked and decoded,
// 16 bytes a texel). An ordinary frame renders under a modest budget; the passes give back
// what they held when they end, the cache when the renderer goes; beyond the budget the pass
// stops with one line naming it. The Parameter Buffer's tile lists are held as a draw bins into
// them, and the texture cache lets go of copies a capture no longer samples. An image plane
// smaller than a pass needs (the front end sized it, within the budget) is never grown.
#include <gtest/gtest.h>

#include <cstring>
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
            "replay's memory budget of 64.0 KiB (288 B already held; --max-memory sets it)");  // 6 tile lists
  EXPECT_EQ(budget.held(), 0u);
}

// A hostile capture's target whose planes hold fewer bytes than the pass needs (re-created with
// 4 samples under its handle, its planes sized for 1; or an attachment format wider than the
// image's): the plane is neither grown (the front end holds it within the budget and gives back
// what it took) nor written; the attachment's loads and stores are a counted skip, on one thread
// or several.
TEST_F(RenderBudgetTest, AnImagePlaneSmallerThanThePassNeedsIsNeitherGrownNorStored) {
  for (uint32_t threads : {1u, 3u}) {
    SCOPED_TRACE(threads);
    frontend::Image* r8 = scene.image(VK_FORMAT_R8_UNORM, kW, kH, 1, 0x400000);
    for (frontend::ImageView* view : {scene.view(target), scene.view(r8, VK_FORMAT_R32G32B32A32_SFLOAT)}) {
      const uint32_t samples = view->image == target ? 4 : 1;
      target->samples = samples;
      const std::vector<uint8_t> before = view->image->planes[0];
      RenderConfig rc;
      rc.threads = threads;
      Renderer renderer(nullptr, rc);
      frontend::RenderPassInstance p = textured_pass(1);
      p.attachments[0].view = view;
      p.attachments[0].format = view->format;
      p.attachments[0].load_op = VK_ATTACHMENT_LOAD_OP_LOAD;
      std::get<frontend::Draw>(p.commands[0]).state.samples = samples;
      frontend::SkipCounts counts;
      renderer.render_pass(p, counts);
      EXPECT_EQ(view->image->planes[0], before);
      EXPECT_EQ(counts.reasons, (std::vector<std::pair<std::string, uint64_t>>{
                                    {"attachment: image plane smaller than the pass needs (not loaded or stored)", 1}}));
      EXPECT_EQ(renderer.frame_stats().attachment_loads, 0u);
      EXPECT_EQ(renderer.frame_stats().attachment_stores, 0u);
      EXPECT_GT(renderer.frame_stats().quads_shaded, 0u);  // the draw still ran
      target->samples = 1;
    }
  }
}

// Full-screen triangles on a 1024x1024 render area in 8x8 tiles: each joins all 16384 tile lists
// (about 28 bytes an entry with its PB write). Two render under a 16 MiB budget; a draw of 600
// (9.8 million entries) is refused as its lists grow, with one line naming it, and gives back
// what it held.
TEST_F(RenderBudgetTest, ADrawWhoseTileListsPassTheBudgetIsRefusedWhileItBins) {
  constexpr uint32_t kArea = 1024;
  const auto pass_of = [&](uint32_t triangles) {
    std::vector<testing::ColorVertex> v;
    for (uint32_t t = 0; t < triangles; ++t)
      v.insert(v.end(), {{{-1, -1, 0.5f, 1}, {1, 0, 0, 1}}, {{3, -1, 0.5f, 1}, {1, 0, 0, 1}},
                         {{-1, 3, 0.5f, 1}, {1, 0, 0, 1}}});
    frontend::RenderPassInstance p;
    p.render_area = {0, 0, kArea, kArea};
    p.subpasses.emplace_back();
    p.commands.push_back(testing::color_draw("color.vert", "color.frag",
                                             scene.buffer(v.data(), v.size() * sizeof v[0], 0x1000000), 3 * triangles,
                                             kArea, kArea));
    return p;
  };
  frontend::MemoryBudget budget(uint64_t{16} << 20);
  RenderConfig rc;
  rc.budget = &budget;
  rc.tile_width = rc.tile_height = 8;
  Renderer renderer(nullptr, rc);
  EXPECT_EQ(refusal(renderer, pass_of(2)), "");
  EXPECT_EQ(renderer.frame_stats().tile_primitives, 2u * 16384);
  EXPECT_EQ(budget.held(), 0u);
  const std::string e = refusal(renderer, pass_of(600));
  EXPECT_EQ(e.rfind("draw 0 (pass 0, 1800 vertices x 1 instances): the primitives binned for its pass needs ", 0), 0u)
      << e;
  EXPECT_NE(e.find("beyond the replay's memory budget of 16.0 MiB"), std::string::npos) << e;
  EXPECT_EQ(e.find('\n'), std::string::npos);
  EXPECT_EQ(budget.held(), 0u);
}

// A capture that re-creates the image it samples, every frame under a new handle (a streamed or
// resized texture), or under the same one with another view: the cache holds the copies the
// frames still sample, not one per image ever sampled. A copy no frame sampled since the last
// one began goes when the next frame begins; one whose image moved on goes with the pass.
TEST_F(RenderBudgetTest, TheTextureCacheLetsGoOfCopiesNoLongerSampled) {
  frontend::MemoryBudget budget(uint64_t{1} << 20);
  RenderConfig rc;
  rc.budget = &budget;
  Renderer renderer(nullptr, rc);
  for (uint32_t frame = 0; frame < 12; ++frame) {
    texture = scene.image(VK_FORMAT_R8G8B8A8_UNORM, 64, 64, 4, 0x800000 + 0x10000 * uint64_t{frame});
    EXPECT_EQ(refusal(renderer, textured_pass(1)), "") << frame;
    // This frame's copy and the last frame's, which this frame began too early to know unused.
    EXPECT_EQ(budget.held(), (frame == 0 ? 1 : 2) * kTextureBytes) << frame;
  }
  frontend::RenderPassInstance untextured = textured_pass(1);
  untextured.commands.clear();
  EXPECT_EQ(refusal(renderer, untextured), "");
  EXPECT_EQ(budget.held(), kTextureBytes);
  EXPECT_EQ(refusal(renderer, untextured), "");
  EXPECT_EQ(budget.held(), 0u);

  // One image, re-written between passes and sampled through another view each time.
  for (uint32_t frame = 0; frame < 12; ++frame) {
    texture->touch();
    frontend::RenderPassInstance p = textured_pass(1);
    auto& draw = std::get<frontend::Draw>(p.commands[0]);
    draw.descriptors[0].elements[0].view =
        scene.view(texture, frame % 2 ? VK_FORMAT_R8G8B8A8_SRGB : VK_FORMAT_R8G8B8A8_UNORM);
    p.index = frame % 3;  // three passes a frame
    EXPECT_EQ(refusal(renderer, p), "") << frame;
    EXPECT_EQ(budget.held(), kTextureBytes) << frame;
  }
}

}  // namespace
}  // namespace tessera::render
