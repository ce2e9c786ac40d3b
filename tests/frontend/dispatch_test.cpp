// Compute dispatches: the compute bind point's pipeline, descriptor sets and push descriptors
// kept apart from the graphics ones, push constants, vkCmdDispatchIndirect read from captured
// memory, vkCmdDispatchBase, handed to the renderer in execution order; what cannot be replayed
// is counted.
#include <gtest/gtest.h>

#include "capture_builder.h"
#include "scene.h"

namespace tessera::frontend::testing {
namespace {

TEST(FrontendDispatch, ComputeBindPointStateAndIndirectDispatches) {
  CaptureBuilder b;
  Scene s;
  s.write(b);
  constexpr uint64_t kComputeSetLayout = 0x520, kComputeLayout = 0x620, kComputePipeline = 0x720,
                     kCompModule = 0x802, kGraphicsSet = 0xa10, kComputeSet = 0xa11;
  cap::DescriptorSetLayoutRecord sl;
  sl.layout = kComputeSetLayout;
  sl.bindings.push_back({0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, {}});
  b.object(sl);
  cap::PipelineLayoutRecord pl;
  pl.layout = kComputeLayout;
  pl.set_layouts = {kComputeSetLayout};
  pl.push_ranges = {{VK_SHADER_STAGE_COMPUTE_BIT, 0, 8}};
  b.object(pl);
  const cap::Hash128 comp_code = b.blob(fake_spirv(3));
  b.object(cap::ShaderModuleRecord{kCompModule, comp_code, 20});
  b.object(cap::ComputePipelineRecord{kComputePipeline, kComputeLayout, 0,
                                      {VK_SHADER_STAGE_COMPUTE_BIT, kCompModule, comp_code, "main", {}, {}}});
  b.object(cap::DescriptorSetAllocRecord{kGraphicsSet, Scene::kSetLayout});
  b.object(cap::DescriptorSetAllocRecord{kComputeSet, kComputeSetLayout});
  cap::DescriptorUpdateRecord up;
  cap::DescriptorWrite g;
  g.set = kGraphicsSet;
  g.binding = 0;
  g.type = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
  g.buffers = {{Scene::kBuffer2, 0, 64}};
  up.writes.push_back(g);
  cap::DescriptorWrite c;
  c.set = kComputeSet;
  c.binding = 0;
  c.type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  c.buffers = {{Scene::kBuffer, 256, 128}};
  up.writes.push_back(c);
  b.object(up);

  b.begin_frame(1);
  // VkDispatchIndirectCommand {5, 6, 7} at byte 512 of the host-visible memory.
  std::vector<uint32_t> words(4, 0);
  words[0] = 5, words[1] = 6, words[2] = 7;
  b.object(cap::MemoryContentsRecord{Scene::kMemory, 512, 16, b.blob(words)});
  b.cmd(cap::CmdBindPipelineRecord{VK_PIPELINE_BIND_POINT_COMPUTE, kComputePipeline});
  b.cmd(cap::CmdBindPipelineRecord{VK_PIPELINE_BIND_POINT_GRAPHICS, Scene::kPipeline});
  b.cmd(cap::CmdBindDescriptorSetsRecord{VK_PIPELINE_BIND_POINT_GRAPHICS, Scene::kLayout, 0, {kGraphicsSet}, {}});
  b.cmd(cap::CmdBindDescriptorSetsRecord{VK_PIPELINE_BIND_POINT_COMPUTE, kComputeLayout, 0, {kComputeSet}, {}});
  b.cmd(cap::CmdPushConstantsRecord{kComputeLayout, VK_SHADER_STAGE_COMPUTE_BIT, 0, {1, 2, 3, 4, 5, 6, 7, 8}});
  b.cmd(cap::CmdDispatchRecord{2, 3, 4, 0, 0});
  b.cmd(cap::CmdDispatchRecord{0, 0, 0, Scene::kBuffer, 512});
  b.cmd(cap::CmdDispatchBaseRecord{1, 2, 3, 4, 5, 6});
  b.cmd(Scene::begin_pass());
  b.cmd(cap::CmdDrawRecord{3, 1, 0, 0});
  b.cmd(cap::CmdDispatchRecord{1, 1, 1, 0, 0});  // inside a render pass: invalid, counted
  b.cmd(cap::CmdEndRenderPassRecord{});
  b.cmd(cap::CmdDispatchRecord{0, 0, 0, Scene::kBuffer, 1020});  // command beyond the buffer
  b.submit();
  b.end_frame();
  auto r = replay(b);
  ASSERT_EQ(r->renderer.dispatches.size(), 3u);
  const Dispatch& d0 = r->renderer.dispatches[0];
  EXPECT_EQ(d0.index, 0u);
  EXPECT_EQ(d0.group_count[0], 2u);
  EXPECT_EQ(d0.group_count[1], 3u);
  EXPECT_EQ(d0.group_count[2], 4u);
  EXPECT_EQ(d0.base[0], 0u);
  EXPECT_EQ(d0.stage.stage, static_cast<uint32_t>(VK_SHADER_STAGE_COMPUTE_BIT));
  EXPECT_EQ(d0.stage.hash, comp_code);
  ASSERT_NE(d0.stage.spirv, nullptr);
  EXPECT_EQ(*d0.stage.spirv, fake_spirv(3));
  EXPECT_EQ(d0.push_constants, (std::vector<uint8_t>{1, 2, 3, 4, 5, 6, 7, 8}));
  ASSERT_EQ(d0.descriptors.size(), 1u);
  EXPECT_EQ(d0.descriptors[0].type, static_cast<uint32_t>(VK_DESCRIPTOR_TYPE_STORAGE_BUFFER));
  ASSERT_EQ(d0.descriptors[0].elements.size(), 1u);
  EXPECT_EQ(d0.descriptors[0].elements[0].buffer, r->replay->find_buffer(Scene::kBuffer));
  EXPECT_EQ(d0.descriptors[0].elements[0].offset, 256u);
  EXPECT_EQ(d0.descriptors[0].elements[0].range, 128u);
  const Dispatch& d1 = r->renderer.dispatches[1];
  EXPECT_EQ(d1.index, 1u);
  EXPECT_EQ(d1.group_count[0], 5u);
  EXPECT_EQ(d1.group_count[1], 6u);
  EXPECT_EQ(d1.group_count[2], 7u);
  const Dispatch& d2 = r->renderer.dispatches[2];  // vkCmdDispatchBase
  EXPECT_EQ(d2.base[0], 1u);
  EXPECT_EQ(d2.base[1], 2u);
  EXPECT_EQ(d2.base[2], 3u);
  EXPECT_EQ(d2.group_count[0], 4u);
  EXPECT_EQ(d2.group_count[2], 6u);
  EXPECT_EQ(d2.descriptors.size(), 1u);
  EXPECT_EQ(r->result.dispatches, 3u);
  // The draw sees the graphics bind point's set, untouched by the compute binding.
  const auto draws = r->renderer.draws();
  ASSERT_EQ(draws.size(), 1u);
  ASSERT_EQ(draws[0]->descriptors.size(), 1u);
  EXPECT_EQ(draws[0]->descriptors[0].elements[0].buffer, r->replay->find_buffer(Scene::kBuffer2));
  EXPECT_EQ(skipped(r->result, "dispatch: inside a render pass (not replayed)"), 1u);
  EXPECT_EQ(skipped(r->result, "dispatch: indirect command beyond its buffer"), 1u);
  EXPECT_EQ(r->result.skipped.total(), 2u) << reasons(r->result);
}

TEST(FrontendDispatch, WithoutAComputePipelineItIsCounted) {
  CaptureBuilder b;
  Scene s;
  s.write(b);
  b.begin_frame(1);
  b.cmd(cap::CmdBindPipelineRecord{VK_PIPELINE_BIND_POINT_COMPUTE, 0x7777});
  b.cmd(cap::CmdDispatchRecord{1, 1, 1, 0, 0});
  b.submit();
  b.end_frame();
  auto r = replay(b);
  EXPECT_TRUE(r->renderer.dispatches.empty());
  EXPECT_EQ(skipped(r->result, "dispatch: unknown compute pipeline"), 1u);
  EXPECT_EQ(r->result.dispatches, 0u);
}

}  // namespace
}  // namespace tessera::frontend::testing
