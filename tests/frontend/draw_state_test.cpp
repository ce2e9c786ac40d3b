// Resolved draw state: dynamic state written into the pipeline copy, descriptors (dynamic
// offsets, immutable samplers, push descriptors, copies, texel buffers), push constants,
// vertex/index buffers, indirect draws, secondary command buffers.
#include <gtest/gtest.h>

#include "scene.h"

namespace tessera::frontend::testing {
namespace {

void draw_in_pass(CaptureBuilder& b, uint32_t n = 3) {
  b.cmd(cap::CmdDrawRecord{n, 1, 0, 0});
}

TEST(FrontendDrawState, DynamicStateIsWrittenIntoThePipelineCopy) {
  CaptureBuilder b;
  Scene s;
  const std::vector<uint32_t> dyn = {
      VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT, VK_DYNAMIC_STATE_SCISSOR,
      VK_DYNAMIC_STATE_LINE_WIDTH, VK_DYNAMIC_STATE_DEPTH_BIAS,
      VK_DYNAMIC_STATE_BLEND_CONSTANTS, VK_DYNAMIC_STATE_DEPTH_BOUNDS,
      VK_DYNAMIC_STATE_STENCIL_COMPARE_MASK, VK_DYNAMIC_STATE_STENCIL_WRITE_MASK,
      VK_DYNAMIC_STATE_STENCIL_REFERENCE, VK_DYNAMIC_STATE_CULL_MODE,
      VK_DYNAMIC_STATE_FRONT_FACE, VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY,
      VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE, VK_DYNAMIC_STATE_DEPTH_TEST_ENABLE,
      VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE, VK_DYNAMIC_STATE_DEPTH_COMPARE_OP,
      VK_DYNAMIC_STATE_DEPTH_BOUNDS_TEST_ENABLE, VK_DYNAMIC_STATE_STENCIL_TEST_ENABLE,
      VK_DYNAMIC_STATE_STENCIL_OP, VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE,
      VK_DYNAMIC_STATE_DEPTH_BIAS_ENABLE, VK_DYNAMIC_STATE_PRIMITIVE_RESTART_ENABLE,
      VK_DYNAMIC_STATE_LOGIC_OP_EXT};
  s.write(b, dyn);
  // A second pipeline with no dynamic state: the same commands must not change it.
  b.object(s.pipeline(0x701, {}));
  b.begin_frame(1);
  b.cmd(Scene::begin_pass());
  b.cmd(cap::CmdBindPipelineRecord{VK_PIPELINE_BIND_POINT_GRAPHICS, Scene::kPipeline});
  b.cmd(cap::CmdSetViewportRecord{0, 1, {{1, 2, 3, 4, 0.25f, 0.75f}, {5, 6, 7, 8, 0, 1}}});
  b.cmd(cap::CmdSetScissorRecord{0, 0, {{1, 1, 2, 2}}});
  using DS = cap::CmdSetDynamicStateRecord;
  b.cmd(DS{VK_DYNAMIC_STATE_LINE_WIDTH, {fbits(2.5f)}});
  b.cmd(DS{VK_DYNAMIC_STATE_DEPTH_BIAS, {fbits(1.0f), fbits(0.5f), fbits(2.0f)}});
  b.cmd(DS{VK_DYNAMIC_STATE_BLEND_CONSTANTS, {fbits(0.1f), fbits(0.2f), fbits(0.3f), fbits(0.4f)}});
  b.cmd(DS{VK_DYNAMIC_STATE_DEPTH_BOUNDS, {fbits(0.2f), fbits(0.8f)}});
  b.cmd(DS{VK_DYNAMIC_STATE_STENCIL_COMPARE_MASK, {VK_STENCIL_FACE_FRONT_AND_BACK, 0x0f}});
  b.cmd(DS{VK_DYNAMIC_STATE_STENCIL_WRITE_MASK, {VK_STENCIL_FACE_FRONT_BIT, 0xf0}});
  b.cmd(DS{VK_DYNAMIC_STATE_STENCIL_REFERENCE, {VK_STENCIL_FACE_BACK_BIT, 7}});
  b.cmd(DS{VK_DYNAMIC_STATE_CULL_MODE, {VK_CULL_MODE_BACK_BIT}});
  b.cmd(DS{VK_DYNAMIC_STATE_FRONT_FACE, {VK_FRONT_FACE_CLOCKWISE}});
  b.cmd(DS{VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY, {VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP}});
  b.cmd(DS{VK_DYNAMIC_STATE_DEPTH_TEST_ENABLE, {1}});
  b.cmd(DS{VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE, {1}});
  b.cmd(DS{VK_DYNAMIC_STATE_DEPTH_COMPARE_OP, {VK_COMPARE_OP_LESS_OR_EQUAL}});
  b.cmd(DS{VK_DYNAMIC_STATE_DEPTH_BOUNDS_TEST_ENABLE, {1}});
  b.cmd(DS{VK_DYNAMIC_STATE_STENCIL_TEST_ENABLE, {1}});
  b.cmd(DS{VK_DYNAMIC_STATE_STENCIL_OP,
           {VK_STENCIL_FACE_BACK_BIT, VK_STENCIL_OP_REPLACE, VK_STENCIL_OP_INCREMENT_AND_CLAMP,
            VK_STENCIL_OP_INVERT, VK_COMPARE_OP_EQUAL}});
  b.cmd(DS{VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE, {1}});
  b.cmd(DS{VK_DYNAMIC_STATE_DEPTH_BIAS_ENABLE, {1}});
  b.cmd(DS{VK_DYNAMIC_STATE_PRIMITIVE_RESTART_ENABLE, {1}});
  b.cmd(DS{VK_DYNAMIC_STATE_LOGIC_OP_EXT, {VK_LOGIC_OP_XOR}});
  // vkCmdBindVertexBuffers2 with a stride.
  b.cmd(cap::CmdBindVertexBuffersRecord{0, {Scene::kBuffer}, {32}, {64}, {24}});
  draw_in_pass(b);
  b.cmd(cap::CmdBindPipelineRecord{VK_PIPELINE_BIND_POINT_GRAPHICS, 0x701});
  draw_in_pass(b);
  b.cmd(cap::CmdEndRenderPassRecord{});
  b.submit();
  b.end_frame();
  auto r = replay(b);
  ASSERT_EQ(r->result.skipped.total(), 0u) << reasons(r->result);
  const auto draws = r->renderer.draws();
  ASSERT_EQ(draws.size(), 2u);
  const auto& st = draws[0]->state;
  ASSERT_EQ(st.viewport_count, 2u);
  EXPECT_EQ(st.viewports[0], (cap::Viewport{1, 2, 3, 4, 0.25f, 0.75f}));
  EXPECT_EQ(st.viewports[1], (cap::Viewport{5, 6, 7, 8, 0, 1}));
  ASSERT_EQ(st.scissors.size(), 1u);
  EXPECT_EQ(st.scissors[0], (cap::Rect2D{1, 1, 2, 2}));
  EXPECT_EQ(st.line_width, 2.5f);
  EXPECT_EQ(st.depth_bias_constant, 1.0f);
  EXPECT_EQ(st.depth_bias_clamp, 0.5f);
  EXPECT_EQ(st.depth_bias_slope, 2.0f);
  EXPECT_EQ(st.blend_constants[0], 0.1f);
  EXPECT_EQ(st.blend_constants[3], 0.4f);
  EXPECT_EQ(st.min_depth_bounds, 0.2f);
  EXPECT_EQ(st.max_depth_bounds, 0.8f);
  EXPECT_EQ(st.stencil_front.compare_mask, 0x0fu);
  EXPECT_EQ(st.stencil_back.compare_mask, 0x0fu);
  EXPECT_EQ(st.stencil_front.write_mask, 0xf0u);
  EXPECT_EQ(st.stencil_back.write_mask, 0u);  // front only
  EXPECT_EQ(st.stencil_front.reference, 0u);  // back only
  EXPECT_EQ(st.stencil_back.reference, 7u);
  EXPECT_EQ(st.cull_mode, uint32_t{VK_CULL_MODE_BACK_BIT});
  EXPECT_EQ(st.front_face, uint32_t{VK_FRONT_FACE_CLOCKWISE});
  EXPECT_EQ(st.topology, uint32_t{VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP});
  ASSERT_EQ(st.vertex_bindings.size(), 1u);
  EXPECT_EQ(st.vertex_bindings[0].stride, 24u);
  EXPECT_EQ(st.depth_test, 1u);
  EXPECT_EQ(st.depth_write, 1u);
  EXPECT_EQ(st.depth_compare, uint32_t{VK_COMPARE_OP_LESS_OR_EQUAL});
  EXPECT_EQ(st.depth_bounds_test, 1u);
  EXPECT_EQ(st.stencil_test, 1u);
  EXPECT_EQ(st.stencil_back.fail_op, uint32_t{VK_STENCIL_OP_REPLACE});
  EXPECT_EQ(st.stencil_back.pass_op, uint32_t{VK_STENCIL_OP_INCREMENT_AND_CLAMP});
  EXPECT_EQ(st.stencil_back.depth_fail_op, uint32_t{VK_STENCIL_OP_INVERT});
  EXPECT_EQ(st.stencil_back.compare_op, uint32_t{VK_COMPARE_OP_EQUAL});
  EXPECT_EQ(st.stencil_front.fail_op, 0u);
  EXPECT_EQ(st.rasterizer_discard, 1u);
  EXPECT_EQ(st.depth_bias_enable, 1u);
  EXPECT_EQ(st.primitive_restart, 1u);
  EXPECT_EQ(st.logic_op, uint32_t{VK_LOGIC_OP_XOR});
  // Vertex buffer: offset 32, size 64 as bound.
  ASSERT_EQ(draws[0]->vertex_buffers.size(), 1u);
  EXPECT_EQ(draws[0]->vertex_buffers[0].buffer, r->replay->find_buffer(Scene::kBuffer));
  EXPECT_EQ(draws[0]->vertex_buffers[0].offset, 32u);
  EXPECT_EQ(draws[0]->vertex_buffers[0].size, 64u);
  // Static pipeline: its own values.
  const auto& st2 = draws[1]->state;
  EXPECT_EQ(st2.line_width, 1.0f);
  EXPECT_EQ(st2.viewport_count, 1u);
  EXPECT_EQ(st2.viewports[0], (cap::Viewport{0, 0, 4, 4, 0, 1}));
  EXPECT_EQ(st2.cull_mode, uint32_t{VK_CULL_MODE_NONE});
  EXPECT_EQ(st2.vertex_bindings[0].stride, 16u);
  EXPECT_EQ(st2.topology, uint32_t{VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST});
  // Stages: vertex first, SPIR-V from the module blob.
  ASSERT_EQ(draws[0]->stages.size(), 2u);
  EXPECT_EQ(draws[0]->stages[0].stage, uint32_t{VK_SHADER_STAGE_VERTEX_BIT});
  EXPECT_EQ(*draws[0]->stages[0].spirv, fake_spirv(1));
  EXPECT_EQ(draws[0]->stages[1].stage, uint32_t{VK_SHADER_STAGE_FRAGMENT_BIT});
  EXPECT_EQ(draws[0]->stages[1].hash, s.frag_code);
  EXPECT_EQ(draws[0]->index, 0u);
  EXPECT_EQ(draws[1]->index, 1u);
}

// Capture format 1.1: colour write enable, vertex input dynamic state and the extended dynamic
// state 3 states the layer records reach the draw's copy of the pipeline; a pipeline that
// declares none of them keeps its own values.
TEST(FrontendDrawState, ColorWriteVertexInputAndExtendedDynamicState3ReachTheDraw) {
  CaptureBuilder b;
  Scene s;
  s.write(b, {VK_DYNAMIC_STATE_COLOR_WRITE_ENABLE_EXT, VK_DYNAMIC_STATE_VERTEX_INPUT_EXT,
              VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE, VK_DYNAMIC_STATE_DEPTH_CLAMP_ENABLE_EXT,
              VK_DYNAMIC_STATE_POLYGON_MODE_EXT, VK_DYNAMIC_STATE_RASTERIZATION_SAMPLES_EXT,
              VK_DYNAMIC_STATE_SAMPLE_MASK_EXT, VK_DYNAMIC_STATE_ALPHA_TO_COVERAGE_ENABLE_EXT,
              VK_DYNAMIC_STATE_ALPHA_TO_ONE_ENABLE_EXT, VK_DYNAMIC_STATE_LOGIC_OP_ENABLE_EXT,
              VK_DYNAMIC_STATE_COLOR_BLEND_ENABLE_EXT, VK_DYNAMIC_STATE_COLOR_BLEND_EQUATION_EXT,
              VK_DYNAMIC_STATE_COLOR_WRITE_MASK_EXT, VK_DYNAMIC_STATE_DEPTH_CLIP_ENABLE_EXT,
              VK_DYNAMIC_STATE_PROVOKING_VERTEX_MODE_EXT, VK_DYNAMIC_STATE_LINE_RASTERIZATION_MODE_EXT,
              VK_DYNAMIC_STATE_LINE_STIPPLE_ENABLE_EXT, VK_DYNAMIC_STATE_DEPTH_CLIP_NEGATIVE_ONE_TO_ONE_EXT});
  b.object(s.pipeline(0x701, {}));
  b.begin_frame(1);
  b.cmd(Scene::begin_pass());
  b.cmd(cap::CmdBindPipelineRecord{VK_PIPELINE_BIND_POINT_GRAPHICS, Scene::kPipeline});
  using DS = cap::CmdSetDynamicStateRecord;
  b.cmd(DS{VK_DYNAMIC_STATE_COLOR_WRITE_ENABLE_EXT, {1, 0}});
  b.cmd(DS{VK_DYNAMIC_STATE_DEPTH_CLAMP_ENABLE_EXT, {1}});
  b.cmd(DS{VK_DYNAMIC_STATE_POLYGON_MODE_EXT, {VK_POLYGON_MODE_LINE}});
  b.cmd(DS{VK_DYNAMIC_STATE_RASTERIZATION_SAMPLES_EXT, {VK_SAMPLE_COUNT_4_BIT}});
  b.cmd(DS{VK_DYNAMIC_STATE_SAMPLE_MASK_EXT, {VK_SAMPLE_COUNT_4_BIT, 0x9}});
  b.cmd(DS{VK_DYNAMIC_STATE_ALPHA_TO_COVERAGE_ENABLE_EXT, {1}});
  b.cmd(DS{VK_DYNAMIC_STATE_ALPHA_TO_ONE_ENABLE_EXT, {1}});
  b.cmd(DS{VK_DYNAMIC_STATE_LOGIC_OP_ENABLE_EXT, {1}});
  // Attachments 1 and 2 (the pipeline has one): created as the commands name them.
  b.cmd(DS{VK_DYNAMIC_STATE_COLOR_BLEND_ENABLE_EXT, {1, 1, 0}});
  b.cmd(DS{VK_DYNAMIC_STATE_COLOR_BLEND_EQUATION_EXT,
           {1, VK_BLEND_FACTOR_SRC_ALPHA, VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA, VK_BLEND_OP_ADD,
            VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_MAX}});
  b.cmd(DS{VK_DYNAMIC_STATE_COLOR_WRITE_MASK_EXT, {0, 0x3, 0x5, 0x8}});
  b.cmd(DS{VK_DYNAMIC_STATE_DEPTH_CLIP_ENABLE_EXT, {0}});
  b.cmd(DS{VK_DYNAMIC_STATE_PROVOKING_VERTEX_MODE_EXT, {VK_PROVOKING_VERTEX_MODE_LAST_VERTEX_EXT}});
  b.cmd(DS{VK_DYNAMIC_STATE_LINE_RASTERIZATION_MODE_EXT, {VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT}});
  b.cmd(DS{VK_DYNAMIC_STATE_LINE_STIPPLE_ENABLE_EXT, {1}});
  b.cmd(DS{VK_DYNAMIC_STATE_DEPTH_CLIP_NEGATIVE_ONE_TO_ONE_EXT, {1}});
  // Vertex input from vkCmdSetVertexInputEXT, then a stride from vkCmdBindVertexBuffers2 that
  // overrides its binding's.
  b.cmd(cap::CmdSetVertexInputRecord{{{0, 12, VK_VERTEX_INPUT_RATE_VERTEX, 1}, {3, 8, VK_VERTEX_INPUT_RATE_INSTANCE, 2}},
                                     {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0}, {5, 3, VK_FORMAT_R8G8B8A8_UNORM, 4}}});
  b.cmd(cap::CmdBindVertexBuffersRecord{3, {Scene::kBuffer}, {0}, {}, {20}});
  draw_in_pass(b);
  b.cmd(cap::CmdBindPipelineRecord{VK_PIPELINE_BIND_POINT_GRAPHICS, 0x701});
  draw_in_pass(b);
  b.cmd(cap::CmdEndRenderPassRecord{});
  b.submit();
  b.end_frame();
  auto r = replay(b);
  ASSERT_EQ(r->result.skipped.total(), 0u) << reasons(r->result);
  const auto draws = r->renderer.draws();
  ASSERT_EQ(draws.size(), 2u);
  const auto& st = draws[0]->state;
  EXPECT_EQ(st.color_write_enables, (std::vector<uint32_t>{1, 0}));
  EXPECT_EQ(st.depth_clamp, 1u);
  EXPECT_EQ(st.polygon_mode, uint32_t{VK_POLYGON_MODE_LINE});
  EXPECT_EQ(st.samples, uint32_t{VK_SAMPLE_COUNT_4_BIT});
  EXPECT_EQ(st.sample_mask, 0x9u);
  EXPECT_EQ(st.alpha_to_coverage, 1u);
  EXPECT_EQ(st.alpha_to_one, 1u);
  EXPECT_EQ(st.logic_op_enable, 1u);
  ASSERT_EQ(st.blend_attachments.size(), 3u);
  EXPECT_EQ(st.blend_attachments[0].write_mask, 0x3u);
  EXPECT_EQ(st.blend_attachments[1].blend_enable, 1u);
  EXPECT_EQ(st.blend_attachments[1].src_color, uint32_t{VK_BLEND_FACTOR_SRC_ALPHA});
  EXPECT_EQ(st.blend_attachments[1].dst_color, uint32_t{VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA});
  EXPECT_EQ(st.blend_attachments[1].alpha_op, uint32_t{VK_BLEND_OP_MAX});
  EXPECT_EQ(st.blend_attachments[1].write_mask, 0x5u);
  EXPECT_EQ(st.blend_attachments[2].blend_enable, 0u);
  EXPECT_EQ(st.blend_attachments[2].write_mask, 0x8u);
  EXPECT_EQ(st.depth_clip, 0u);
  EXPECT_EQ(st.provoking_vertex, uint32_t{VK_PROVOKING_VERTEX_MODE_LAST_VERTEX_EXT});
  EXPECT_EQ(st.line_mode, uint32_t{VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT});
  EXPECT_EQ(st.line_stipple_enable, 1u);
  EXPECT_EQ(st.depth_clip_negative_one_to_one, 1u);
  ASSERT_EQ(st.vertex_bindings.size(), 2u);
  EXPECT_EQ(st.vertex_bindings[1], (cap::GraphicsPipelineRecord::VertexBinding{3, 20, VK_VERTEX_INPUT_RATE_INSTANCE, 2}));
  ASSERT_EQ(st.vertex_attributes.size(), 2u);
  EXPECT_EQ(st.vertex_attributes[1], (cap::GraphicsPipelineRecord::VertexAttribute{5, 3, VK_FORMAT_R8G8B8A8_UNORM, 4}));
  // The draw's vertex buffers follow the dynamic bindings.
  ASSERT_EQ(draws[0]->vertex_buffers.size(), 2u);
  EXPECT_EQ(draws[0]->vertex_buffers[1].binding, 3u);
  EXPECT_EQ(draws[0]->vertex_buffers[1].buffer, r->replay->find_buffer(Scene::kBuffer));
  // The static pipeline keeps its own.
  const auto& st2 = draws[1]->state;
  EXPECT_TRUE(st2.color_write_enables.empty());
  EXPECT_EQ(st2.polygon_mode, uint32_t{VK_POLYGON_MODE_FILL});
  EXPECT_EQ(st2.sample_mask, ~0u);
  EXPECT_EQ(st2.vertex_bindings.size(), 1u);
  EXPECT_EQ(st2.blend_attachments.size(), 1u);
}

TEST(FrontendDrawState, MalformedExtendedDynamicState3ValuesAreCounted) {
  CaptureBuilder b;
  Scene s;
  s.write(b, {VK_DYNAMIC_STATE_COLOR_WRITE_MASK_EXT});
  b.begin_frame(1);
  b.cmd(Scene::begin_pass());
  b.cmd(cap::CmdBindPipelineRecord{VK_PIPELINE_BIND_POINT_GRAPHICS, Scene::kPipeline});
  using DS = cap::CmdSetDynamicStateRecord;
  b.cmd(DS{VK_DYNAMIC_STATE_COLOR_WRITE_MASK_EXT, {1000000, 0xf}});  // attachment out of range
  b.cmd(DS{VK_DYNAMIC_STATE_SAMPLE_MASK_EXT, {4}});                     // no mask word
  draw_in_pass(b);
  b.cmd(cap::CmdEndRenderPassRecord{});
  b.submit();
  b.end_frame();
  auto r = replay(b);
  EXPECT_EQ(skipped(r->result, "dynamic state 1000455012: attachment out of range"), 1u) << reasons(r->result);
  EXPECT_EQ(skipped(r->result, "dynamic state 1000455006: too few values"), 1u) << reasons(r->result);
  ASSERT_EQ(r->renderer.draws().size(), 1u);
  EXPECT_EQ(r->renderer.draws()[0]->state.blend_attachments.size(), 1u);
}

TEST(FrontendDrawState, ViewportWithoutCountKeepsPipelineCountAndUncapturedStateIsCounted) {
  CaptureBuilder b;
  Scene s;
  s.write(b, {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_TESSELLATION_DOMAIN_ORIGIN_EXT});
  b.begin_frame(1);
  b.cmd(Scene::begin_pass());
  b.cmd(cap::CmdBindPipelineRecord{VK_PIPELINE_BIND_POINT_GRAPHICS, Scene::kPipeline});
  b.cmd(cap::CmdSetViewportRecord{0, 0, {{0, 0, 2, 2, 0, 1}, {9, 9, 9, 9, 0, 1}}});
  draw_in_pass(b);
  b.cmd(cap::CmdEndRenderPassRecord{});
  b.submit();
  b.end_frame();
  auto r = replay(b);
  const auto draws = r->renderer.draws();
  ASSERT_EQ(draws.size(), 1u);
  EXPECT_EQ(draws[0]->state.viewport_count, 1u);
  ASSERT_EQ(draws[0]->state.viewports.size(), 1u);
  EXPECT_EQ(draws[0]->state.viewports[0], (cap::Viewport{0, 0, 2, 2, 0, 1}));
  EXPECT_EQ(skipped(r->result, "draw: dynamic state 1000455002 not captured"), 1u);
  EXPECT_EQ(r->result.skipped.total(), 1u) << reasons(r->result);
}

TEST(FrontendDrawState, DescriptorsWithDynamicOffsetsImmutableSamplersPushAndCopies) {
  CaptureBuilder b;
  Scene s;
  s.write(b);
  constexpr uint64_t kSampler = 0x900, kImmutable = 0x901, kSetLayout0 = 0x510,
                     kPushLayout = 0x511, kLayout2 = 0x610, kPipeline2 = 0x710, kSetA = 0xa00,
                     kSetB = 0xa01, kBufferView = 0xb00, kImage = 0x320, kView = 0x321;
  cap::SamplerRecord sampler;
  sampler.sampler = kSampler;
  sampler.mag_filter = VK_FILTER_LINEAR;
  b.object(sampler);
  sampler.sampler = kImmutable;
  sampler.mag_filter = VK_FILTER_NEAREST;
  b.object(sampler);
  cap::ImageRecord img;
  img.image = kImage;
  img.image_type = VK_IMAGE_TYPE_2D;
  img.format = VK_FORMAT_R8G8B8A8_SRGB;
  img.width = img.height = 2;
  img.depth = img.mip_levels = img.array_layers = img.samples = 1;
  img.usage = VK_IMAGE_USAGE_SAMPLED_BIT;
  b.object(img);
  // VK_REMAINING_* resolved against the image.
  b.object(cap::ImageViewRecord{kView, kImage, VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM,
                                0, 0, 0, 0,
                                {VK_IMAGE_ASPECT_COLOR_BIT, 0, VK_REMAINING_MIP_LEVELS, 0,
                                 VK_REMAINING_ARRAY_LAYERS}});
  b.object(cap::BufferViewRecord{kBufferView, Scene::kBuffer2, VK_FORMAT_R32_SFLOAT, 64,
                                 VK_WHOLE_SIZE});
  cap::DescriptorSetLayoutRecord sl;
  sl.layout = kSetLayout0;
  // Listed out of binding order: dynamic offsets follow binding numbers.
  sl.bindings.push_back({3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1, VK_SHADER_STAGE_FRAGMENT_BIT, {}});
  sl.bindings.push_back({0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 2, VK_SHADER_STAGE_VERTEX_BIT, {}});
  sl.bindings.push_back({1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, {kImmutable}});
  sl.bindings.push_back({2, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, {}});
  b.object(sl);
  cap::DescriptorSetLayoutRecord push;
  push.layout = kPushLayout;
  push.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
  push.bindings.push_back({0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, {}});
  push.bindings.push_back({1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, {}});
  b.object(push);
  cap::PipelineLayoutRecord pl;
  pl.layout = kLayout2;
  pl.set_layouts = {kSetLayout0, kPushLayout};
  b.object(pl);
  auto p = s.pipeline(kPipeline2, {});
  p.layout = kLayout2;
  b.object(p);
  b.object(cap::DescriptorSetAllocRecord{kSetA, kSetLayout0});
  b.object(cap::DescriptorSetAllocRecord{kSetB, kSetLayout0});
  // Into set B; then copied to set A. Buffer writes spill from binding 0 (2 elements).
  cap::DescriptorUpdateRecord up;
  cap::DescriptorWrite w;
  w.set = kSetB;
  w.binding = 0;
  w.type = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC;
  w.buffers = {{Scene::kBuffer, 0, 64}, {Scene::kBuffer, 128, VK_WHOLE_SIZE}};
  up.writes.push_back(w);
  up.copies.push_back({kSetB, 0, 0, kSetA, 0, 0, 2});
  b.object(up);
  cap::DescriptorUpdateRecord up2;
  cap::DescriptorWrite w1;
  w1.set = kSetA;
  w1.binding = 1;
  w1.type = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
  w1.images = {{kSampler, kView, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL}};  // sampler ignored
  up2.writes.push_back(w1);
  cap::DescriptorWrite w2;
  w2.set = kSetA;
  w2.binding = 2;
  w2.type = VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
  w2.texel_views = {kBufferView};
  up2.writes.push_back(w2);
  cap::DescriptorWrite w3;
  w3.set = kSetA;
  w3.binding = 3;
  w3.type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
  w3.buffers = {{Scene::kBuffer2, 16, 32}};
  up2.writes.push_back(w3);
  b.object(up2);

  b.begin_frame(1);
  b.cmd(Scene::begin_pass());
  b.cmd(cap::CmdBindPipelineRecord{VK_PIPELINE_BIND_POINT_GRAPHICS, kPipeline2});
  // Offsets: binding 0 elements 0, 1, then binding 3.
  b.cmd(cap::CmdBindDescriptorSetsRecord{VK_PIPELINE_BIND_POINT_GRAPHICS, kLayout2, 0, {kSetA},
                                         {256, 512, 64}});
  cap::CmdPushDescriptorSetRecord pd;
  pd.bind_point = VK_PIPELINE_BIND_POINT_GRAPHICS;
  pd.layout = kLayout2;
  pd.set = 1;
  cap::DescriptorWrite pw;
  pw.binding = 0;
  pw.type = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
  pw.images = {{kSampler, kView, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL}};
  pd.writes.push_back(pw);
  b.cmd(pd);
  draw_in_pass(b);
  // A second push replaces binding 1 only; binding 0 keeps its earlier write.
  pd.writes.clear();
  cap::DescriptorWrite pw2;
  pw2.binding = 1;
  pw2.type = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
  pw2.buffers = {{Scene::kBuffer2, 8, 24}};
  pd.writes.push_back(pw2);
  b.cmd(pd);
  draw_in_pass(b);
  b.cmd(cap::CmdEndRenderPassRecord{});
  b.submit();
  b.end_frame();
  auto r = replay(b);
  ASSERT_EQ(r->result.skipped.total(), 0u) << reasons(r->result);
  const auto draws = r->renderer.draws();
  ASSERT_EQ(draws.size(), 2u);
  const auto* buf = r->replay->find_buffer(Scene::kBuffer);
  const auto* buf2 = r->replay->find_buffer(Scene::kBuffer2);
  const auto* view = r->replay->find_view(kView);
  ASSERT_NE(view, nullptr);
  EXPECT_EQ(view->range.mip_count, 1u);
  EXPECT_EQ(view->range.layer_count, 1u);
  const auto& d = draws[0]->descriptors;
  ASSERT_EQ(d.size(), 6u);  // set 0: bindings 0-3; set 1: bindings 0-1
  EXPECT_EQ(d[0].set, 0u);
  EXPECT_EQ(d[0].binding, 0u);
  ASSERT_EQ(d[0].elements.size(), 2u);
  EXPECT_EQ(d[0].elements[0].buffer, buf);
  EXPECT_EQ(d[0].elements[0].offset, 256u);
  EXPECT_EQ(d[0].elements[0].range, 64u);
  EXPECT_EQ(d[0].elements[1].offset, 128u + 512u);
  EXPECT_EQ(d[0].elements[1].range, 1024u - 640u);  // WHOLE_SIZE, clamped after the offset
  EXPECT_EQ(d[1].binding, 1u);
  EXPECT_EQ(d[1].elements[0].view, view);
  ASSERT_NE(d[1].elements[0].sampler, nullptr);
  EXPECT_EQ(d[1].elements[0].sampler->sampler, kImmutable);
  EXPECT_EQ(d[2].type, uint32_t{VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER});
  EXPECT_EQ(d[2].elements[0].buffer, buf2);
  EXPECT_EQ(d[2].elements[0].offset, 64u);
  EXPECT_EQ(d[2].elements[0].range, 512u - 64u);
  EXPECT_EQ(d[2].elements[0].format, uint32_t{VK_FORMAT_R32_SFLOAT});
  EXPECT_EQ(d[3].binding, 3u);
  EXPECT_EQ(d[3].elements[0].buffer, buf2);
  EXPECT_EQ(d[3].elements[0].offset, 16u + 64u);
  EXPECT_EQ(d[3].elements[0].range, 32u);
  EXPECT_EQ(d[4].set, 1u);
  EXPECT_EQ(d[4].elements[0].view, view);
  EXPECT_EQ(d[4].elements[0].sampler->sampler, kSampler);
  EXPECT_EQ(d[5].elements[0].buffer, nullptr);  // not pushed yet
  const auto& d2 = draws[1]->descriptors;
  ASSERT_EQ(d2.size(), 6u);
  EXPECT_EQ(d2[4].elements[0].view, view);
  EXPECT_EQ(d2[5].elements[0].buffer, buf2);
  EXPECT_EQ(d2[5].elements[0].offset, 8u);
  EXPECT_EQ(d2[5].elements[0].range, 24u);
}

TEST(FrontendDrawState, PushConstantsIndexAndVertexBuffersAndAddresses) {
  CaptureBuilder b;
  Scene s;
  s.write(b);
  b.begin_frame(1);
  b.cmd(Scene::begin_pass());
  b.cmd(cap::CmdBindPipelineRecord{VK_PIPELINE_BIND_POINT_GRAPHICS, Scene::kPipeline});
  b.cmd(cap::CmdPushConstantsRecord{Scene::kLayout, VK_SHADER_STAGE_VERTEX_BIT, 4, {1, 2, 3, 4}});
  b.cmd(cap::CmdPushConstantsRecord{Scene::kLayout, VK_SHADER_STAGE_FRAGMENT_BIT, 16, {9, 9}});
  b.cmd(cap::CmdBindVertexBuffersRecord{0, {Scene::kBuffer}, {100}, {}, {}});
  b.cmd(cap::CmdBindIndexBufferRecord{Scene::kBuffer2, 12, VK_INDEX_TYPE_UINT16});
  b.cmd(cap::CmdDrawIndexedRecord{6, 2, 3, -1, 5});
  b.cmd(cap::CmdEndRenderPassRecord{});
  b.submit();
  b.end_frame();
  auto r = replay(b);
  ASSERT_EQ(r->result.skipped.total(), 0u) << reasons(r->result);
  const auto draws = r->renderer.draws();
  ASSERT_EQ(draws.size(), 1u);
  const Draw& d = *draws[0];
  std::vector<uint8_t> pc(32, 0);
  pc[4] = 1, pc[5] = 2, pc[6] = 3, pc[7] = 4, pc[16] = 9, pc[17] = 9;
  EXPECT_EQ(d.push_constants, pc);
  EXPECT_TRUE(d.indexed);
  EXPECT_EQ(d.vertex_count, 6u);
  EXPECT_EQ(d.instance_count, 2u);
  EXPECT_EQ(d.first_vertex, 3u);
  EXPECT_EQ(d.vertex_offset, -1);
  EXPECT_EQ(d.first_instance, 5u);
  const Buffer* b2 = r->replay->find_buffer(Scene::kBuffer2);
  EXPECT_EQ(d.index_buffer, b2);
  EXPECT_EQ(d.index_offset, 12u);
  EXPECT_EQ(d.index_type, uint32_t{VK_INDEX_TYPE_UINT16});
  ASSERT_EQ(d.vertex_buffers.size(), 1u);
  EXPECT_EQ(d.vertex_buffers[0].offset, 100u);
  EXPECT_EQ(d.vertex_buffers[0].size, 1024u - 100u);
  // Address map: buffers at their memory's base plus bind offset, memory from 0x100'0000'0000.
  const Buffer* b1 = r->replay->find_buffer(Scene::kBuffer);
  EXPECT_EQ(b1->address, 0x100'0000'0000ull);
  EXPECT_EQ(b2->address, 0x100'0000'0000ull + 1024);
  EXPECT_EQ(b2->bytes().size(), 512u);
  const Image* target = r->replay->find_image(Scene::kTarget);
  EXPECT_EQ(target->address, 0x1'0000'0000ull);
  EXPECT_EQ(target->address % 4096, 0u);
}

TEST(FrontendDrawState, IndirectDrawsAreResolvedFromCapturedMemory) {
  CaptureBuilder b;
  Scene s;
  s.write(b);
  constexpr uint64_t kDeviceMemory = 0x101, kDeviceBuffer = 0x202;
  b.object(cap::MemoryAllocRecord{kDeviceMemory, 256, 1, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT});
  b.object(cap::BufferRecord{kDeviceBuffer, 256, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, {}});
  b.object(cap::MemoryBindRecord{kDeviceBuffer, 0, kDeviceMemory, 0});
  b.begin_frame(1);
  // Host-visible memory as captured at frame start: two VkDrawIndirectCommand at 0 (stride 32)
  // and a VkDrawIndexedIndirectCommand at 64, the count (1) at 100.
  std::vector<uint32_t> words(32, 0);
  words[0] = 3, words[1] = 1, words[2] = 0, words[3] = 0;
  words[8] = 6, words[9] = 2, words[10] = 3, words[11] = 1;
  words[16] = 12, words[17] = 1, words[18] = 4, words[19] = static_cast<uint32_t>(-2), words[20] = 7;
  words[25] = 1;
  b.object(cap::MemoryContentsRecord{Scene::kMemory, 0, 128, b.blob(words)});
  b.cmd(Scene::begin_pass());
  b.cmd(cap::CmdBindPipelineRecord{VK_PIPELINE_BIND_POINT_GRAPHICS, Scene::kPipeline});
  b.cmd(cap::CmdBindIndexBufferRecord{Scene::kBuffer2, 0, VK_INDEX_TYPE_UINT32});
  b.cmd(cap::CmdDrawIndirectRecord{0, Scene::kBuffer, 0, 2, 32, 0, 0});
  b.cmd(cap::CmdDrawIndirectRecord{1, Scene::kBuffer, 64, 4, 20, Scene::kBuffer, 100});
  // Device-local memory never captured: not replayable.
  b.cmd(cap::CmdDrawIndirectRecord{0, kDeviceBuffer, 0, 3, 16, 0, 0});
  b.cmd(cap::CmdEndRenderPassRecord{});
  b.submit();
  b.end_frame();
  auto r = replay(b);
  const auto draws = r->renderer.draws();
  ASSERT_EQ(draws.size(), 3u);
  EXPECT_FALSE(draws[0]->indexed);
  EXPECT_EQ(draws[0]->vertex_count, 3u);
  EXPECT_EQ(draws[1]->vertex_count, 6u);
  EXPECT_EQ(draws[1]->instance_count, 2u);
  EXPECT_EQ(draws[1]->first_vertex, 3u);
  EXPECT_EQ(draws[1]->first_instance, 1u);
  EXPECT_TRUE(draws[2]->indexed);
  EXPECT_EQ(draws[2]->vertex_count, 12u);
  EXPECT_EQ(draws[2]->first_vertex, 4u);
  EXPECT_EQ(draws[2]->vertex_offset, -2);
  EXPECT_EQ(draws[2]->first_instance, 7u);
  EXPECT_EQ(r->result.draws, 3u);
  EXPECT_EQ(skipped(r->result, "draw: indirect buffer contents not captured"), 3u);
  EXPECT_EQ(r->result.skipped.total(), 3u) << reasons(r->result);
}

TEST(FrontendDrawState, SecondaryCommandBuffersStartFromFreshState) {
  // Records in the layer's execution order: the secondary's records inline after the
  // primary's vkCmdExecuteCommands, then the primary's remaining records.
  Scene s;
  CaptureBuilder c;
  s.write(c);
  c.object(s.pipeline(0x701, {VK_DYNAMIC_STATE_LINE_WIDTH}));
  c.begin_frame(1);
  c.object(cap::SubmitRecord{0x9, {0xc0}});
  c.object(cap::CommandBufferRecord{0xc0, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 5});
  c.object(Scene::begin_pass());
  c.object(cap::CmdBindPipelineRecord{VK_PIPELINE_BIND_POINT_GRAPHICS, Scene::kPipeline});
  c.object(cap::CmdExecuteCommandsRecord{{0xd0}});
  c.object(cap::CommandBufferRecord{0xd0, VK_COMMAND_BUFFER_LEVEL_SECONDARY, 3});
  c.object(cap::CmdBindPipelineRecord{VK_PIPELINE_BIND_POINT_GRAPHICS, 0x701});
  c.object(cap::CmdSetDynamicStateRecord{VK_DYNAMIC_STATE_LINE_WIDTH, {fbits(3.0f)}});
  c.object(cap::CmdDrawRecord{6, 1, 0, 0});
  c.object(cap::CmdDrawRecord{9, 1, 0, 0});
  c.object(cap::CmdEndRenderPassRecord{});
  c.end_frame();
  auto r = std::make_unique<Replayed>();
  r->reader = c.finish();
  std::string error;
  r->replay = CaptureReplay::open(*r->reader, &error);
  ASSERT_NE(r->replay, nullptr) << error;
  ASSERT_TRUE(r->replay->replay_frame(0, r->renderer, &r->result, &error)) << error;
  ASSERT_EQ(r->result.skipped.total(), 0u) << reasons(r->result);
  const auto draws = r->renderer.draws();
  ASSERT_EQ(draws.size(), 2u);
  EXPECT_EQ(draws[0]->state.pipeline, 0x701u);
  EXPECT_EQ(draws[0]->state.line_width, 3.0f);
  EXPECT_EQ(draws[0]->vertex_count, 6u);
  EXPECT_EQ(draws[1]->state.pipeline, Scene::kPipeline);  // the primary's binding
  EXPECT_EQ(draws[1]->vertex_count, 9u);
  EXPECT_EQ(r->result.passes, 1u);
}

}  // namespace
}  // namespace tessera::frontend::testing
