// A minimal set of objects most front-end tests draw with: host-visible memory with two
// buffers, a 4x4 RGBA8 colour target with a render pass and framebuffer, a pipeline layout with
// one descriptor set layout and push constants, and a pipeline whose dynamic states each test
// chooses.
#pragma once

#include "capture_builder.h"

namespace tessera::frontend::testing {

struct Scene {
  static constexpr uint64_t kMemory = 0x100, kBuffer = 0x200, kBuffer2 = 0x201;
  static constexpr uint64_t kTarget = 0x300, kTargetView = 0x310;
  static constexpr uint64_t kRenderPass = 0x400, kFramebuffer = 0x410;
  static constexpr uint64_t kSetLayout = 0x500, kLayout = 0x600, kPipeline = 0x700;
  static constexpr uint64_t kVertModule = 0x800, kFragModule = 0x801;
  static constexpr uint64_t kMemoryBytes = 4096;

  cap::Hash128 vert_code, frag_code;

  // Writes the objects (as global records when called before begin_frame).
  void write(CaptureBuilder& b, std::vector<uint32_t> dynamic_states = {}) {
    b.object(cap::MemoryAllocRecord{kMemory, kMemoryBytes, 0,
                                    VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                        VK_MEMORY_PROPERTY_HOST_COHERENT_BIT});
    b.object(cap::BufferRecord{kBuffer, 1024, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, {}});
    b.object(cap::BufferRecord{kBuffer2, 512, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, {}});
    b.object(cap::MemoryBindRecord{kBuffer, 0, kMemory, 0});
    b.object(cap::MemoryBindRecord{kBuffer2, 0, kMemory, 1024});
    cap::ImageRecord img;
    img.image = kTarget;
    img.image_type = VK_IMAGE_TYPE_2D;
    img.format = VK_FORMAT_R8G8B8A8_UNORM;
    img.width = img.height = 4;
    img.depth = img.mip_levels = img.array_layers = img.samples = 1;
    img.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    b.object(img);
    b.object(cap::ImageViewRecord{kTargetView, kTarget, VK_IMAGE_VIEW_TYPE_2D,
                                  VK_FORMAT_R8G8B8A8_UNORM, 0, 0, 0, 0,
                                  {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}});
    cap::RenderPassRecord rp;
    rp.render_pass = kRenderPass;
    rp.attachments.push_back({VK_FORMAT_R8G8B8A8_UNORM, 1, VK_ATTACHMENT_LOAD_OP_CLEAR,
                              VK_ATTACHMENT_STORE_OP_STORE, VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                              VK_ATTACHMENT_STORE_OP_DONT_CARE, 0,
                              VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL});
    cap::RenderPassRecord::Subpass sp;
    sp.colors.push_back({0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL});
    rp.subpasses.push_back(sp);
    b.object(rp);
    b.object(cap::FramebufferRecord{kFramebuffer, kRenderPass, {kTargetView}, 4, 4, 1});
    cap::DescriptorSetLayoutRecord sl;
    sl.layout = kSetLayout;
    sl.bindings.push_back({0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_VERTEX_BIT, {}});
    b.object(sl);
    cap::PipelineLayoutRecord pl;
    pl.layout = kLayout;
    pl.set_layouts = {kSetLayout};
    pl.push_ranges = {{VK_SHADER_STAGE_VERTEX_BIT, 0, 16}, {VK_SHADER_STAGE_FRAGMENT_BIT, 16, 16}};
    b.object(pl);
    vert_code = b.blob(fake_spirv(1));
    frag_code = b.blob(fake_spirv(2));
    b.object(cap::ShaderModuleRecord{kVertModule, vert_code, 20});
    b.object(cap::ShaderModuleRecord{kFragModule, frag_code, 20});
    b.object(pipeline(kPipeline, std::move(dynamic_states)));
  }

  cap::GraphicsPipelineRecord pipeline(uint64_t handle, std::vector<uint32_t> dynamic_states) {
    cap::GraphicsPipelineRecord p;
    p.pipeline = handle;
    p.layout = kLayout;
    p.render_pass = kRenderPass;
    // Fragment listed first: the front end hands stages in pipeline order, vertex first.
    p.stages.push_back({VK_SHADER_STAGE_FRAGMENT_BIT, kFragModule, frag_code, "main", {}, {}});
    p.stages.push_back({VK_SHADER_STAGE_VERTEX_BIT, kVertModule, vert_code, "main", {}, {}});
    p.vertex_bindings.push_back({0, 16, VK_VERTEX_INPUT_RATE_VERTEX, 1});
    p.vertex_attributes.push_back({0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0});
    p.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    p.viewport_count = p.scissor_count = 1;
    p.viewports = {{0, 0, 4, 4, 0, 1}};
    p.scissors = {{0, 0, 4, 4}};
    p.cull_mode = VK_CULL_MODE_NONE;
    p.blend_attachments.push_back({});
    p.dynamic_states = std::move(dynamic_states);
    return p;
  }

  static cap::CmdBeginRenderPassRecord begin_pass() {
    cap::CmdBeginRenderPassRecord r;
    r.render_pass = kRenderPass;
    r.framebuffer = kFramebuffer;
    r.render_area = {0, 0, 4, 4};
    cap::ClearValue c;
    c.words[0] = fbits(0.25f);
    c.words[3] = fbits(1.0f);
    r.clear_values = {c};
    return r;
  }
};

}  // namespace tessera::frontend::testing
