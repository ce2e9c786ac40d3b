// Draws too large to replay stop the replay with frontend::ReplayLimitError naming the draw and
// its pass (CaptureReplay::replay_frame adds the capture and the frame), instead of being shaded
// for hours or allocated past the memory budget; the budget is given back afterwards.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "render_test_util.h"
#include "tessera/render/renderer.h"

namespace tessera::render {
namespace {

using testing::ColorVertex;

constexpr uint32_t kW = 64, kH = 64;

class DrawBoundsTest : public ::testing::Test {
 protected:
  frontend::RenderPassInstance pass_with(uint32_t vertex_count, uint32_t instance_count) {
    frontend::Image* img = scene.image(VK_FORMAT_R8G8B8A8_UNORM, kW, kH, 4, 0x10000);
    auto p = testing::pass(kW, kH, scene.view(img), VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE);
    p.index = 2;
    frontend::Draw d = testing::color_draw("color.vert", "color.frag", vb(), vertex_count, kW, kH);
    d.index = 5;
    d.instance_count = instance_count;
    p.commands.push_back(d);
    return p;
  }
  const frontend::Buffer* vb() {
    verts_ = {{{-1, -1, 0.5f, 1}, {1, 0, 0, 1}}, {{3, -1, 0.5f, 1}, {1, 0, 0, 1}}, {{-1, 3, 0.5f, 1}, {1, 0, 0, 1}}};
    return scene.buffer(verts_.data(), verts_.size() * sizeof(ColorVertex), 0x20000);
  }
  // The message of what rendering `p` throws; empty when it renders.
  std::string refusal(Renderer& renderer, const frontend::RenderPassInstance& p) {
    frontend::SkipCounts skipped;
    try {
      renderer.render_pass(p, skipped);
    } catch (const frontend::ReplayLimitError& e) {
      return e.what();
    }
    return {};
  }

  testing::Scene scene;
  std::vector<ColorVertex> verts_;
};

TEST_F(DrawBoundsTest, BillionVertexDrawIsRefusedByTheBudgetBeforeAnyVertexIsShaded) {
  frontend::MemoryBudget budget(uint64_t{1} << 30);
  RenderConfig rc;
  rc.budget = &budget;
  Renderer renderer(nullptr, rc);
  const std::string e = refusal(renderer, pass_with(1'000'000'000, 1));
  EXPECT_EQ(e.rfind("draw 5 (pass 2, 1000000000 vertices x 1 instances): its vertex stage needs ", 0), 0u) << e;
  // Already held: the 4 tile lists of the pass's Parameter Buffer, 48 bytes each.
  EXPECT_NE(e.find(", beyond the replay's memory budget of 1.0 GiB (192 B already held; --max-memory sets it)"),
            std::string::npos)
      << e;
  EXPECT_EQ(e.find('\n'), std::string::npos);
  EXPECT_EQ(renderer.frame_stats().vertices_shaded, 0u);
  EXPECT_EQ(budget.held(), 0u);
}

TEST_F(DrawBoundsTest, BillionInstancesOfATriangleAreBeyondWhatOneDrawShades) {
  frontend::MemoryBudget budget(uint64_t{1} << 30);
  RenderConfig rc;
  rc.budget = &budget;
  Renderer renderer(nullptr, rc);
  EXPECT_EQ(refusal(renderer, pass_with(3, 1'000'000'000)),
            "draw 5 (pass 2, 3 vertices x 1000000000 instances): more than 2^26 vertex shader invocations, beyond "
            "what the replay shades for one draw");
  EXPECT_EQ(budget.held(), 0u);
}

TEST_F(DrawBoundsTest, PrimitivesBinnedForAPassCountAgainstTheBudget) {
  // Room for the vertex stage of one triangle (about 1.1 KiB, with 192 B the pass holds already)
  // but not for its binned primitive (about 1 KiB more).
  frontend::MemoryBudget budget(1500);
  RenderConfig rc;
  rc.budget = &budget;
  Renderer renderer(nullptr, rc);
  const std::string e = refusal(renderer, pass_with(3, 1));
  EXPECT_EQ(e.rfind("draw 5 (pass 2, 3 vertices x 1 instances): the primitives binned for its pass needs ", 0), 0u)
      << e;
  EXPECT_EQ(budget.held(), 0u);
}

TEST_F(DrawBoundsTest, AnOrdinaryDrawRendersWithinTheBudgetAndGivesItBack) {
  frontend::MemoryBudget budget(uint64_t{1} << 20);
  RenderConfig rc;
  rc.budget = &budget;
  Renderer renderer(nullptr, rc);
  EXPECT_EQ(refusal(renderer, pass_with(3, 1)), "");
  EXPECT_EQ(renderer.frame_stats().fragments, uint64_t{kW} * kH);
  EXPECT_EQ(budget.held(), 0u);
}

}  // namespace
}  // namespace tessera::render
