// What the front end cannot replay is counted with its reason; damaged input is a one-line
// error naming the file, never a crash.
#include <gtest/gtest.h>

#include "scene.h"

namespace tessera::frontend::testing {
namespace {

TEST(FrontendSkips, EveryUnreplayableThingIsCountedWithItsReason) {
  CaptureBuilder b;
  Scene s;
  s.write(b);
  // A pipeline whose shader blob is not in the file.
  auto p = s.pipeline(0x702, {});
  p.stages[0].code = cap::Hash128{1, 2};
  b.object(p);
  b.object(cap::ImageViewRecord{0x3ff, 0xdead, VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_R8_UNORM, 0, 0,
                                0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}});
  b.begin_frame(1);
  b.cmd(cap::CmdDrawRecord{3, 1, 0, 0});  // outside a pass
  b.cmd(Scene::begin_pass());
  b.cmd(cap::CmdDrawRecord{3, 1, 0, 0});  // no pipeline bound
  b.cmd(cap::CmdBindPipelineRecord{VK_PIPELINE_BIND_POINT_GRAPHICS, 0x7ff});
  b.cmd(cap::CmdDrawRecord{3, 1, 0, 0});  // unknown pipeline
  b.cmd(cap::CmdBindPipelineRecord{VK_PIPELINE_BIND_POINT_GRAPHICS, 0x702});
  b.cmd(cap::CmdDrawRecord{3, 1, 0, 0});  // shader code missing
  b.cmd(cap::CmdBindPipelineRecord{VK_PIPELINE_BIND_POINT_GRAPHICS, Scene::kPipeline});
  b.cmd(cap::CmdDrawIndexedRecord{3, 1, 0, 0, 0});  // no index buffer
  b.cmd(cap::CmdDrawRecord{3, 1, 0, 0});  // fine
  b.cmd(cap::CmdEndRenderPassRecord{});
  auto bad = Scene::begin_pass();
  bad.render_pass = 0x4ff;
  b.cmd(bad);
  b.cmd(cap::CmdDrawRecord{3, 1, 0, 0});  // in a pass that could not be rebuilt
  b.cmd(cap::CmdEndRenderPassRecord{});
  b.cmd(cap::CmdClearAttachmentsRecord{});
  b.cmd(cap::CmdDispatchRecord{0, 0, 0, Scene::kBuffer, 0});
  b.cmd(cap::CmdSetDynamicStateRecord{VK_DYNAMIC_STATE_FRAGMENT_SHADING_RATE_KHR, {1, 1}});
  b.cmd_raw(0x04f0, {});  // a command kind this build does not know
  b.submit();
  b.raw(0xffff0001u, {});  // a reserved (test) record kind
  b.end_frame();
  auto r = replay(b);
  EXPECT_EQ(r->result.draws, 1u);
  EXPECT_EQ(r->result.passes, 1u);
  const std::vector<std::pair<std::string, uint64_t>> expect = {
      {"image view: unknown image", 1},
      {"draw: outside a render pass", 1},
      {"draw: no graphics pipeline bound", 1},
      {"draw: unknown graphics pipeline", 1},
      {"draw: shader code missing", 1},
      {"draw: no index buffer bound", 1},
      {"render pass: unknown render pass", 1},
      {"draw: in a render pass that could not be rebuilt", 1},
      {"render pass: instance not replayed", 1},
      {"clear attachments: outside a replayable render pass", 1},
      {"dispatch: indirect buffer contents not captured", 1},
      {"dynamic state 1000226000: not supported", 1},
      {"command: unknown kind 1264 not supported", 1},
      {"record: unknown kind 4294901761", 1},
  };
  EXPECT_EQ(r->result.skipped.reasons, expect) << reasons(r->result);
  EXPECT_EQ(r->result.skipped.total(), 14u);
}

TEST(FrontendErrors, DamagedFrameRecordIsAOneLineErrorNamingTheFile) {
  CaptureBuilder b;
  Scene s;
  s.write(b);
  b.begin_frame(1);
  b.cmd(Scene::begin_pass());
  b.cmd_raw(cap::kind_of<cap::CmdDrawRecord>(), {std::byte{1}, std::byte{2}});  // cut short
  b.submit();
  b.end_frame();
  auto reader = b.finish();
  std::string error;
  auto replay = CaptureReplay::open(*reader, &error);
  ASSERT_NE(replay, nullptr) << error;
  RecordingRenderer renderer;
  FrameResult result;
  EXPECT_FALSE(replay->replay_frame(0, renderer, &result, &error));
  // Named by its present number, as `--frames` and the study name frames.
  EXPECT_EQ(error, b.path() + ": frame 1: cmd_draw record does not decode");
  EXPECT_EQ(error.find('\n'), std::string::npos);
  EXPECT_FALSE(replay->replay_frame(0, renderer, &result, &error));
  EXPECT_EQ(error, b.path() + ": replay stopped after an earlier error");
}

TEST(FrontendErrors, DamagedGlobalRecordFailsOpen) {
  CaptureBuilder b;
  b.raw(cap::kind_of<cap::GraphicsPipelineRecord>(), {std::byte{7}});
  b.begin_frame(1);
  b.end_frame();
  auto reader = b.finish();
  std::string error;
  EXPECT_EQ(CaptureReplay::open(*reader, &error), nullptr);
  EXPECT_EQ(error, b.path() + ": global records: graphics_pipeline record does not decode");
}

TEST(FrontendErrors, FramesReplayInOrderAndOnlyExistingOnes) {
  CaptureBuilder b;
  b.begin_frame(1);
  b.end_frame();
  b.begin_frame(2);
  b.end_frame();
  auto reader = b.finish();
  std::string error;
  auto replay = CaptureReplay::open(*reader, &error);
  ASSERT_NE(replay, nullptr) << error;
  RecordingRenderer renderer;
  FrameResult result;
  EXPECT_FALSE(replay->replay_frame(1, renderer, &result, &error));
  EXPECT_EQ(error, b.path() + ": frame 1: frames replay in order, the next is 0");
  EXPECT_FALSE(replay->replay_frame(2, renderer, &result, &error));
  EXPECT_EQ(error, b.path() + ": frame 2 does not exist (2 frames)");
  EXPECT_TRUE(replay->replay_frame(0, renderer, &result, &error)) << error;
  EXPECT_TRUE(replay->replay_frame(1, renderer, &result, &error)) << error;
  EXPECT_EQ(result.present, 2u);
}

}  // namespace
}  // namespace tessera::frontend::testing
