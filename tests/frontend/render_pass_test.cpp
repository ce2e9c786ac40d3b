// Render pass instances: attachments with load/store ops and clear values, subpasses with
// resolves, NextSubpass and ClearAttachments in order, imageless framebuffers, and dynamic
// rendering presented as one subpass.
#include <gtest/gtest.h>

#include "scene.h"

namespace tessera::frontend::testing {
namespace {

constexpr uint64_t kMsaa = 0x330, kMsaaView = 0x331, kDepth = 0x340, kDepthView = 0x341;

void image(CaptureBuilder& b, uint64_t handle, uint32_t format, uint32_t samples,
           uint64_t view, uint32_t aspect) {
  cap::ImageRecord img;
  img.image = handle;
  img.image_type = VK_IMAGE_TYPE_2D;
  img.format = format;
  img.width = img.height = 4;
  img.depth = img.mip_levels = img.array_layers = 1;
  img.samples = samples;
  b.object(img);
  b.object(cap::ImageViewRecord{view, handle, VK_IMAGE_VIEW_TYPE_2D, format, 0, 0, 0, 0,
                                {aspect, 0, 1, 0, 1}});
}

TEST(FrontendRenderPass, SubpassesResolvesOpsAndCommandsInOrder) {
  CaptureBuilder b;
  Scene s;
  s.write(b);
  image(b, kMsaa, VK_FORMAT_R8G8B8A8_UNORM, 4, kMsaaView, VK_IMAGE_ASPECT_COLOR_BIT);
  image(b, kDepth, VK_FORMAT_D24_UNORM_S8_UINT, 4, kDepthView,
        VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT);
  cap::RenderPassRecord rp;
  rp.render_pass = 0x420;
  rp.attachments.push_back({VK_FORMAT_R8G8B8A8_UNORM, 4, VK_ATTACHMENT_LOAD_OP_CLEAR,
                            VK_ATTACHMENT_STORE_OP_DONT_CARE, VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                            VK_ATTACHMENT_STORE_OP_DONT_CARE, 0, 0});
  rp.attachments.push_back({VK_FORMAT_D24_UNORM_S8_UINT, 4, VK_ATTACHMENT_LOAD_OP_CLEAR,
                            VK_ATTACHMENT_STORE_OP_STORE, VK_ATTACHMENT_LOAD_OP_LOAD,
                            VK_ATTACHMENT_STORE_OP_DONT_CARE, 0, 0});
  rp.attachments.push_back({VK_FORMAT_R8G8B8A8_UNORM, 1, VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                            VK_ATTACHMENT_STORE_OP_STORE, VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                            VK_ATTACHMENT_STORE_OP_DONT_CARE, 0, 0});
  cap::RenderPassRecord::Subpass s0;
  s0.colors = {{0, 0}, {VK_ATTACHMENT_UNUSED, 0}};
  s0.resolves = {{2, 0}, {VK_ATTACHMENT_UNUSED, 0}};
  s0.has_depth_stencil = 1;
  s0.depth_stencil = {1, 0};
  cap::RenderPassRecord::Subpass s1;
  s1.colors = {{2, 0}};
  s1.inputs = {{0, 0}};
  rp.subpasses = {s0, s1};
  b.object(rp);
  b.object(cap::FramebufferRecord{0x430, 0x420, {kMsaaView, kDepthView, Scene::kTargetView}, 4, 4, 2});
  b.begin_frame(1);
  cap::CmdBeginRenderPassRecord begin;
  begin.render_pass = 0x420;
  begin.framebuffer = 0x430;
  begin.render_area = {1, 0, 3, 4};
  cap::ClearValue c0, c1;
  c0.words[0] = fbits(1.0f);
  c1.words[0] = fbits(0.5f);
  c1.words[1] = 3;
  begin.clear_values = {c0, c1};
  b.cmd(begin);
  b.cmd(cap::CmdBindPipelineRecord{VK_PIPELINE_BIND_POINT_GRAPHICS, Scene::kPipeline});
  b.cmd(cap::CmdDrawRecord{3, 1, 0, 0});
  cap::CmdClearAttachmentsRecord clear;
  clear.attachments.push_back({VK_IMAGE_ASPECT_COLOR_BIT, 0, c0});
  clear.rects.push_back({{0, 0, 2, 2}, 0, 1});
  b.cmd(clear);
  b.cmd(cap::CmdNextSubpassRecord{0});
  b.cmd(cap::CmdDrawRecord{6, 1, 0, 0});
  b.cmd(cap::CmdEndRenderPassRecord{});
  b.submit();
  b.end_frame();
  auto r = replay(b);
  ASSERT_EQ(r->result.skipped.total(), 0u) << reasons(r->result);
  ASSERT_EQ(r->renderer.passes.size(), 1u);
  const auto& p = r->renderer.passes[0];
  EXPECT_EQ(p.index, 0u);
  EXPECT_EQ(p.render_area, (cap::Rect2D{1, 0, 3, 4}));
  EXPECT_EQ(p.layers, 2u);
  ASSERT_EQ(p.attachments.size(), 3u);
  EXPECT_EQ(p.attachments[0].view, r->replay->find_view(kMsaaView));
  EXPECT_EQ(p.attachments[0].load_op, uint32_t{VK_ATTACHMENT_LOAD_OP_CLEAR});
  EXPECT_EQ(p.attachments[0].store_op, uint32_t{VK_ATTACHMENT_STORE_OP_DONT_CARE});
  EXPECT_EQ(p.attachments[0].clear, c0);
  EXPECT_EQ(p.attachments[0].resolve, r->replay->find_view(Scene::kTargetView));
  EXPECT_EQ(p.attachments[0].resolve_mode, uint32_t{VK_RESOLVE_MODE_AVERAGE_BIT});  // render pass resolves average
  EXPECT_EQ(p.attachments[1].format, uint32_t{VK_FORMAT_D24_UNORM_S8_UINT});
  EXPECT_EQ(p.attachments[1].store_op, uint32_t{VK_ATTACHMENT_STORE_OP_STORE});
  EXPECT_EQ(p.attachments[1].stencil_load_op, uint32_t{VK_ATTACHMENT_LOAD_OP_LOAD});
  EXPECT_EQ(p.attachments[1].stencil_store_op, uint32_t{VK_ATTACHMENT_STORE_OP_DONT_CARE});
  EXPECT_EQ(p.attachments[1].clear, c1);
  EXPECT_EQ(p.attachments[2].clear, cap::ClearValue{});  // no clear value given
  EXPECT_EQ(p.attachments[2].resolve, nullptr);
  ASSERT_EQ(p.subpasses.size(), 2u);
  EXPECT_EQ(p.subpasses[0].colors, (std::vector<uint32_t>{0, Subpass::kUnused}));
  EXPECT_EQ(p.subpasses[0].depth_stencil, 1u);
  EXPECT_EQ(p.subpasses[1].colors, (std::vector<uint32_t>{2}));
  EXPECT_EQ(p.subpasses[1].inputs, (std::vector<uint32_t>{0}));
  EXPECT_EQ(p.subpasses[1].depth_stencil, Subpass::kUnused);
  ASSERT_EQ(p.commands.size(), 4u);
  EXPECT_EQ(std::get<Draw>(p.commands[0]).vertex_count, 3u);
  EXPECT_EQ(std::get<ClearAttachments>(p.commands[1]).record, clear);
  EXPECT_TRUE(std::holds_alternative<NextSubpass>(p.commands[2]));
  EXPECT_EQ(std::get<Draw>(p.commands[3]).vertex_count, 6u);
  EXPECT_EQ(std::get<Draw>(p.commands[3]).index, 1u);
}

TEST(FrontendRenderPass, ImagelessFramebufferTakesViewsFromTheBeginInfo) {
  CaptureBuilder b;
  Scene s;
  s.write(b);
  constexpr uint64_t kOther = 0x350, kOtherView = 0x351;
  image(b, kOther, VK_FORMAT_R8G8B8A8_UNORM, 1, kOtherView, VK_IMAGE_ASPECT_COLOR_BIT);
  b.object(cap::FramebufferRecord{0x440, Scene::kRenderPass, {}, 4, 4, 1});
  b.begin_frame(1);
  auto begin = Scene::begin_pass();
  begin.framebuffer = 0x440;
  begin.attachments = {kOtherView};
  b.cmd(begin);
  b.cmd(cap::CmdEndRenderPassRecord{});
  b.submit();
  b.end_frame();
  auto r = replay(b);
  ASSERT_EQ(r->result.skipped.total(), 0u) << reasons(r->result);
  ASSERT_EQ(r->renderer.passes.size(), 1u);
  EXPECT_EQ(r->renderer.passes[0].attachments[0].view, r->replay->find_view(kOtherView));
}

// The capture layer numbers every instance a frame ends (RenderPassContentsRecord::pass); an
// instance the replay cannot rebuild takes its number too, so the next one is numbered as the
// layer numbered it, while `passes` and `index` count what reached the renderer.
TEST(FrontendRenderPass, AnInstanceNotReplayedKeepsItsNumber) {
  CaptureBuilder b;
  Scene s;
  s.write(b);
  b.begin_frame(1);
  auto unknown = Scene::begin_pass();
  unknown.render_pass = 0x4ff;  // no such render pass
  b.cmd(unknown);
  b.cmd(cap::CmdEndRenderPassRecord{});
  b.cmd(Scene::begin_pass());
  b.cmd(cap::CmdEndRenderPassRecord{});
  b.cmd(cap::CmdEndRenderPassRecord{});  // an end without a begin: numbered by the layer too
  b.cmd(Scene::begin_pass());
  b.cmd(cap::CmdEndRenderPassRecord{});
  b.submit();
  b.end_frame();
  auto r = replay(b);
  EXPECT_EQ(r->result.passes, 2u);
  EXPECT_EQ(r->result.instances, 4u);
  EXPECT_EQ(r->result.not_replayed, (std::vector<uint32_t>{0, 2}));
  ASSERT_EQ(r->renderer.passes.size(), 2u);
  EXPECT_EQ(r->renderer.passes[0].index, 0u);
  EXPECT_EQ(r->renderer.passes[0].instance, 1u);
  EXPECT_EQ(r->renderer.passes[1].index, 1u);
  EXPECT_EQ(r->renderer.passes[1].instance, 3u);
}

TEST(FrontendRenderPass, DynamicRenderingIsOneSubpassColoursThenDepthStencil) {
  CaptureBuilder b;
  Scene s;
  s.write(b);
  image(b, kDepth, VK_FORMAT_D24_UNORM_S8_UINT, 1, kDepthView,
        VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT);
  image(b, kMsaa, VK_FORMAT_R8G8B8A8_UNORM, 4, kMsaaView, VK_IMAGE_ASPECT_COLOR_BIT);
  b.begin_frame(1);
  cap::CmdBeginRenderingRecord br;
  br.render_area = {0, 0, 4, 4};
  br.layer_count = 1;
  cap::RenderingAttachment c0;
  c0.view = kMsaaView;
  c0.load_op = VK_ATTACHMENT_LOAD_OP_CLEAR;
  c0.store_op = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  c0.resolve_mode = VK_RESOLVE_MODE_AVERAGE_BIT;
  c0.resolve_view = Scene::kTargetView;
  c0.clear.words[1] = fbits(0.5f);
  cap::RenderingAttachment c1;  // a hole: VK_NULL_HANDLE view
  br.colors = {c0, c1};
  br.has_depth = br.has_stencil = 1;
  br.depth.view = br.stencil.view = kDepthView;
  br.depth.load_op = VK_ATTACHMENT_LOAD_OP_CLEAR;
  br.depth.store_op = VK_ATTACHMENT_STORE_OP_STORE;
  br.depth.clear.words[0] = fbits(1.0f);
  br.stencil.load_op = VK_ATTACHMENT_LOAD_OP_LOAD;
  br.stencil.store_op = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  br.stencil.clear.words[1] = 9;
  // Depth and stencil resolve with their own modes (VkRenderingAttachmentInfo::resolveMode).
  br.depth.resolve_mode = VK_RESOLVE_MODE_MAX_BIT;
  br.depth.resolve_view = br.stencil.resolve_view = Scene::kTargetView;
  br.stencil.resolve_mode = VK_RESOLVE_MODE_SAMPLE_ZERO_BIT;
  b.cmd(br);
  br.depth.resolve_mode = br.stencil.resolve_mode = 0;
  br.depth.resolve_view = br.stencil.resolve_view = 0;
  b.cmd(cap::CmdBindPipelineRecord{VK_PIPELINE_BIND_POINT_GRAPHICS, Scene::kPipeline});
  b.cmd(cap::CmdDrawRecord{3, 1, 0, 0});
  b.cmd(cap::CmdEndRenderingRecord{});
  // Depth only: the stencil aspect is left as it is (LOAD / STORE).
  br.colors.clear();
  br.has_stencil = 0;
  b.cmd(br);
  b.cmd(cap::CmdEndRenderingRecord{});
  b.submit();
  b.end_frame();
  auto r = replay(b);
  ASSERT_EQ(r->result.skipped.total(), 0u) << reasons(r->result);
  EXPECT_EQ(r->result.passes, 2u);
  ASSERT_EQ(r->renderer.passes.size(), 2u);
  const auto& p = r->renderer.passes[0];
  ASSERT_EQ(p.attachments.size(), 3u);
  ASSERT_EQ(p.subpasses.size(), 1u);
  EXPECT_EQ(p.subpasses[0].colors, (std::vector<uint32_t>{0, Subpass::kUnused}));
  EXPECT_EQ(p.subpasses[0].depth_stencil, 2u);
  EXPECT_EQ(p.attachments[0].view, r->replay->find_view(kMsaaView));
  EXPECT_EQ(p.attachments[0].format, uint32_t{VK_FORMAT_R8G8B8A8_UNORM});
  EXPECT_EQ(p.attachments[0].load_op, uint32_t{VK_ATTACHMENT_LOAD_OP_CLEAR});
  EXPECT_EQ(p.attachments[0].store_op, uint32_t{VK_ATTACHMENT_STORE_OP_DONT_CARE});
  EXPECT_EQ(p.attachments[0].clear, c0.clear);
  EXPECT_EQ(p.attachments[0].resolve, r->replay->find_view(Scene::kTargetView));
  EXPECT_EQ(p.attachments[1].view, nullptr);
  const auto& ds = p.attachments[2];
  EXPECT_EQ(ds.view, r->replay->find_view(kDepthView));
  EXPECT_EQ(ds.format, uint32_t{VK_FORMAT_D24_UNORM_S8_UINT});
  EXPECT_EQ(ds.load_op, uint32_t{VK_ATTACHMENT_LOAD_OP_CLEAR});
  EXPECT_EQ(ds.store_op, uint32_t{VK_ATTACHMENT_STORE_OP_STORE});
  EXPECT_EQ(ds.stencil_load_op, uint32_t{VK_ATTACHMENT_LOAD_OP_LOAD});
  EXPECT_EQ(ds.stencil_store_op, uint32_t{VK_ATTACHMENT_STORE_OP_DONT_CARE});
  EXPECT_EQ(ds.clear.words[0], fbits(1.0f));
  EXPECT_EQ(ds.clear.words[1], 9u);
  EXPECT_EQ(ds.resolve, r->replay->find_view(Scene::kTargetView));
  EXPECT_EQ(ds.resolve_mode, uint32_t{VK_RESOLVE_MODE_MAX_BIT});
  EXPECT_EQ(ds.stencil_resolve_mode, uint32_t{VK_RESOLVE_MODE_SAMPLE_ZERO_BIT});
  EXPECT_EQ(p.attachments[0].resolve_mode, uint32_t{VK_RESOLVE_MODE_AVERAGE_BIT});
  ASSERT_EQ(p.commands.size(), 1u);
  const auto& q = r->renderer.passes[1];
  EXPECT_EQ(q.index, 1u);
  ASSERT_EQ(q.attachments.size(), 1u);
  EXPECT_EQ(q.subpasses[0].depth_stencil, 0u);
  EXPECT_EQ(q.attachments[0].stencil_load_op, uint32_t{VK_ATTACHMENT_LOAD_OP_LOAD});
  EXPECT_EQ(q.attachments[0].stencil_store_op, uint32_t{VK_ATTACHMENT_STORE_OP_STORE});
  EXPECT_EQ(q.attachments[0].resolve, nullptr);
}

// The captured device's rasterization limits (device_info, format 1.1) reach every pass; a
// capture without them gets Vulkan's required minimums.
TEST(FrontendRenderPass, PassesCarryTheCapturedDevicesRasterizationLimits) {
  for (bool with_limits : {false, true}) {
    CaptureBuilder b;
    Scene s;
    cap::DeviceInfoRecord dev;
    dev.device_name = "test";
    if (with_limits) {
      dev.has_limits = 1;
      dev.limits = {{0.5f, 255.0f}, 0.125f, {1.0f, 64.0f}, 0.0078125f, 1, 1, 0x5,
                    VK_POINT_CLIPPING_BEHAVIOR_USER_CLIP_PLANES_ONLY};
    }
    b.object(dev);
    s.write(b);
    b.begin_frame(1);
    b.cmd(Scene::begin_pass());
    b.cmd(cap::CmdEndRenderPassRecord{});
    b.submit();
    b.end_frame();
    auto r = replay(b);
    ASSERT_EQ(r->renderer.passes.size(), 1u);
    const RasterLimits& l = r->renderer.passes[0].limits;
    EXPECT_EQ(l.point_size_range[0], with_limits ? 0.5f : 1.0f);
    EXPECT_EQ(l.point_size_range[1], with_limits ? 255.0f : 63.0f);
    EXPECT_EQ(l.line_width_range[1], with_limits ? 64.0f : 7.0f);
    EXPECT_EQ(l.strict_lines, with_limits);
    EXPECT_EQ(l.points_clip_to_view_volume, !with_limits);
  }
}

}  // namespace
}  // namespace tessera::frontend::testing
