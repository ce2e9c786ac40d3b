// Record kinds for Vulkan object state and commands, written by the capture layer
// (VK_LAYER_TESSERA_capture) and read by replay. records.h holds the session and resource kinds;
// this header holds everything replay needs to re-issue a frame: pipelines, render passes and
// dynamic rendering, descriptors, memory bindings and contents, and every recorded command.
//
// Encoding: each struct lists its fields once in TESSERA_RECORD_FIELDS, in encoding order, and is
// encoded as fields.h says, like the records of records.h. Handles are the application's handle
// values (u64), opaque ids within one capture; VK_NULL_HANDLE is 0. Enums and flags are stored as
// u32 with their Vulkan values; floats as IEEE f32.
//
// Command records (kinds 0x0400 and up) appear in a frame in the order the GPU executes them:
// a SubmitRecord, then for each command buffer a CommandBufferRecord followed by the commands
// recorded into it (secondary command buffers inline after their CmdExecuteCommandsRecord).
#pragma once

#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "tessera/capture/fields.h"
#include "tessera/capture/hash.h"

namespace tessera::capture {

enum class VkRecordKind : uint32_t {
  // Objects (written when created; global records unless created inside a captured frame).
  kSwapchain = 0x0300,
  kSampler = 0x0301,
  kImageView = 0x0302,
  kDescriptorSetLayout = 0x0303,
  kPipelineLayout = 0x0304,
  kRenderPass = 0x0305,
  kFramebuffer = 0x0306,
  kGraphicsPipeline = 0x0307,
  kComputePipeline = 0x0308,
  kDescriptorSetAlloc = 0x0309,
  kDescriptorUpdate = 0x030a,
  kMemoryAlloc = 0x030b,
  kMemoryBind = 0x030c,
  kMemoryContents = 0x030d,
  kBufferView = 0x030e,
  kFrameBoundary = 0x030f,
  kRenderTargetContents = 0x0310,
  kFormatProperties = 0x0311,
  kRenderPassContents = 0x0312,
  // Commands, in execution order within a frame.
  kSubmit = 0x0400,
  kCommandBuffer = 0x0401,
  kCmdBeginRenderPass = 0x0402,
  kCmdNextSubpass = 0x0403,
  kCmdEndRenderPass = 0x0404,
  kCmdBeginRendering = 0x0405,
  kCmdEndRendering = 0x0406,
  kCmdBindPipeline = 0x0407,
  kCmdBindDescriptorSets = 0x0408,
  kCmdPushDescriptorSet = 0x0409,
  kCmdPushConstants = 0x040a,
  kCmdBindVertexBuffers = 0x040b,
  kCmdBindIndexBuffer = 0x040c,
  kCmdDraw = 0x040d,
  kCmdDrawIndexed = 0x040e,
  kCmdDrawIndirect = 0x040f,
  kCmdDispatch = 0x0410,
  kCmdSetViewport = 0x0411,
  kCmdSetScissor = 0x0412,
  kCmdSetDynamicState = 0x0413,
  kCmdClearAttachments = 0x0414,
  kCmdClearImage = 0x0415,
  kCmdCopy = 0x0416,
  kCmdUpdateBuffer = 0x0417,
  kCmdFillBuffer = 0x0418,
  kCmdPipelineBarrier = 0x0419,
  kCmdExecuteCommands = 0x041a,
  // Added in format 1.1.
  kCmdDispatchBase = 0x041b,
  kCmdSetVertexInput = 0x041c,
};

// Name of a kind defined here ("graphics_pipeline"), or nullptr.
const char* vk_record_kind_name(uint32_t kind);

// ---- Shared pieces -------------------------------------------------------------------------

struct Rect2D {
  int32_t x = 0, y = 0;
  uint32_t width = 0, height = 0;
  TESSERA_RECORD_FIELDS(Rect2D, x, y, width, height);
};

struct Viewport {
  float x = 0, y = 0, width = 0, height = 0, min_depth = 0, max_depth = 1;
  TESSERA_RECORD_FIELDS(Viewport, x, y, width, height, min_depth, max_depth);
};

// VkClearValue as its four raw 32-bit words (color float/int/uint or depth f32 + stencil u32).
struct ClearValue {
  uint32_t words[4] = {0, 0, 0, 0};
  TESSERA_RECORD_FIELDS(ClearValue, words[0], words[1], words[2], words[3]);
};

struct SubresourceRange {
  uint32_t aspect = 0, base_mip = 0, mip_count = 0, base_layer = 0, layer_count = 0;
  TESSERA_RECORD_FIELDS(SubresourceRange, aspect, base_mip, mip_count, base_layer, layer_count);
};

// One descriptor write (vkUpdateDescriptorSets, update templates and push descriptors are all
// stored in this form). Exactly one of images / buffers / texel_views is filled, by type.
struct DescriptorImage {
  uint64_t sampler = 0, view = 0;
  uint32_t layout = 0;
  TESSERA_RECORD_FIELDS(DescriptorImage, sampler, view, layout);
};
struct DescriptorBuffer {
  uint64_t buffer = 0, offset = 0, range = 0;  // range VK_WHOLE_SIZE stays ~0
  TESSERA_RECORD_FIELDS(DescriptorBuffer, buffer, offset, range);
};
struct DescriptorWrite {
  uint64_t set = 0;  // 0 for push descriptors
  uint32_t binding = 0, array_element = 0;
  uint32_t type = 0;  // VkDescriptorType
  std::vector<DescriptorImage> images;
  std::vector<DescriptorBuffer> buffers;
  std::vector<uint64_t> texel_views;
  TESSERA_RECORD_FIELDS(DescriptorWrite, set, binding, array_element, type, images, buffers,
                    texel_views);
};
struct DescriptorCopy {
  uint64_t src_set = 0;
  uint32_t src_binding = 0, src_array_element = 0;
  uint64_t dst_set = 0;
  uint32_t dst_binding = 0, dst_array_element = 0, count = 0;
  TESSERA_RECORD_FIELDS(DescriptorCopy, src_set, src_binding, src_array_element, dst_set,
                    dst_binding, dst_array_element, count);
};

// ---- Objects -------------------------------------------------------------------------------

struct SwapchainRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kSwapchain;
  uint64_t swapchain = 0;
  uint32_t format = 0, color_space = 0, width = 0, height = 0, array_layers = 0;
  uint32_t usage = 0;  // as the application asked (the layer may add TRANSFER_SRC)
  uint32_t present_mode = 0;
  std::vector<uint64_t> images;
  TESSERA_RECORD_FIELDS(SwapchainRecord, swapchain, format, color_space, width, height,
                    array_layers, usage, present_mode, images);
};

struct SamplerRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kSampler;
  uint64_t sampler = 0;
  uint32_t flags = 0, mag_filter = 0, min_filter = 0, mipmap_mode = 0;
  uint32_t address_u = 0, address_v = 0, address_w = 0;
  float mip_lod_bias = 0;
  uint32_t anisotropy_enable = 0;
  float max_anisotropy = 1;
  uint32_t compare_enable = 0, compare_op = 0;
  float min_lod = 0, max_lod = 0;
  uint32_t border_color = 0, unnormalized_coordinates = 0;
  // VkSamplerReductionModeCreateInfo (0 = weighted average, the default).
  uint32_t reduction_mode = 0;
  // VkSamplerCustomBorderColorCreateInfoEXT, used when border_color is a *_CUSTOM_EXT value.
  ClearValue custom_border;
  uint32_t custom_border_format = 0;
  TESSERA_RECORD_FIELDS(SamplerRecord, sampler, flags, mag_filter, min_filter, mipmap_mode,
                    address_u, address_v, address_w, mip_lod_bias, anisotropy_enable,
                    max_anisotropy, compare_enable, compare_op, min_lod, max_lod, border_color,
                    unnormalized_coordinates, reduction_mode, custom_border,
                    custom_border_format);
};

struct ImageViewRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kImageView;
  uint64_t view = 0, image = 0;
  uint32_t view_type = 0, format = 0;
  uint32_t swizzle_r = 0, swizzle_g = 0, swizzle_b = 0, swizzle_a = 0;  // VkComponentSwizzle
  SubresourceRange range;
  TESSERA_RECORD_FIELDS(ImageViewRecord, view, image, view_type, format, swizzle_r, swizzle_g,
                    swizzle_b, swizzle_a, range);
};

struct BufferViewRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kBufferView;
  uint64_t view = 0, buffer = 0;
  uint32_t format = 0;
  uint64_t offset = 0, range = 0;
  TESSERA_RECORD_FIELDS(BufferViewRecord, view, buffer, format, offset, range);
};

struct DescriptorSetLayoutRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kDescriptorSetLayout;
  struct Binding {
    uint32_t binding = 0, type = 0, count = 0, stages = 0;
    std::vector<uint64_t> immutable_samplers;
    TESSERA_RECORD_FIELDS(Binding, binding, type, count, stages, immutable_samplers);
  };
  uint64_t layout = 0;
  uint32_t flags = 0;  // VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR marks push sets
  std::vector<Binding> bindings;
  TESSERA_RECORD_FIELDS(DescriptorSetLayoutRecord, layout, flags, bindings);
};

struct PipelineLayoutRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kPipelineLayout;
  struct PushRange {
    uint32_t stages = 0, offset = 0, size = 0;
    TESSERA_RECORD_FIELDS(PushRange, stages, offset, size);
  };
  uint64_t layout = 0;
  std::vector<uint64_t> set_layouts;
  std::vector<PushRange> push_ranges;
  TESSERA_RECORD_FIELDS(PipelineLayoutRecord, layout, set_layouts, push_ranges);
};

struct AttachmentReference {
  uint32_t attachment = 0;  // VK_ATTACHMENT_UNUSED stays ~0u
  uint32_t layout = 0;
  TESSERA_RECORD_FIELDS(AttachmentReference, attachment, layout);
};

struct RenderPassRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kRenderPass;
  struct Attachment {
    uint32_t format = 0, samples = 0, load_op = 0, store_op = 0;
    uint32_t stencil_load_op = 0, stencil_store_op = 0, initial_layout = 0, final_layout = 0;
    TESSERA_RECORD_FIELDS(Attachment, format, samples, load_op, store_op, stencil_load_op,
                      stencil_store_op, initial_layout, final_layout);
  };
  struct Subpass {
    uint32_t bind_point = 0;
    std::vector<AttachmentReference> inputs, colors, resolves;
    uint32_t has_depth_stencil = 0;
    AttachmentReference depth_stencil;
    std::vector<uint32_t> preserve;
    TESSERA_RECORD_FIELDS(Subpass, bind_point, inputs, colors, resolves, has_depth_stencil,
                      depth_stencil, preserve);
  };
  struct Dependency {
    uint32_t src_subpass = 0, dst_subpass = 0, src_stages = 0, dst_stages = 0;
    uint32_t src_access = 0, dst_access = 0, flags = 0;
    TESSERA_RECORD_FIELDS(Dependency, src_subpass, dst_subpass, src_stages, dst_stages, src_access,
                      dst_access, flags);
  };
  uint64_t render_pass = 0;
  std::vector<Attachment> attachments;
  std::vector<Subpass> subpasses;
  std::vector<Dependency> dependencies;
  TESSERA_RECORD_FIELDS(RenderPassRecord, render_pass, attachments, subpasses, dependencies);
};

struct FramebufferRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kFramebuffer;
  uint64_t framebuffer = 0, render_pass = 0;
  std::vector<uint64_t> attachments;  // image views
  uint32_t width = 0, height = 0, layers = 0;
  TESSERA_RECORD_FIELDS(FramebufferRecord, framebuffer, render_pass, attachments, width, height,
                    layers);
};

struct SpecializationEntry {
  uint32_t constant_id = 0, offset = 0, size = 0;
  TESSERA_RECORD_FIELDS(SpecializationEntry, constant_id, offset, size);
};

struct ShaderStage {
  uint32_t stage = 0;  // VkShaderStageFlagBits
  uint64_t module = 0;
  Hash128 code;  // SPIR-V blob of the module (also given by its ShaderModuleRecord)
  std::string entry_point;
  std::vector<SpecializationEntry> specialization;
  std::vector<uint8_t> specialization_data;
  TESSERA_RECORD_FIELDS(ShaderStage, stage, module, code, entry_point, specialization,
                    specialization_data);
};

struct GraphicsPipelineRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kGraphicsPipeline;
  struct VertexBinding {
    uint32_t binding = 0, stride = 0, input_rate = 0, divisor = 1;
    TESSERA_RECORD_FIELDS(VertexBinding, binding, stride, input_rate, divisor);
  };
  struct VertexAttribute {
    uint32_t location = 0, binding = 0, format = 0, offset = 0;
    TESSERA_RECORD_FIELDS(VertexAttribute, location, binding, format, offset);
  };
  struct StencilOpState {
    uint32_t fail_op = 0, pass_op = 0, depth_fail_op = 0, compare_op = 0;
    uint32_t compare_mask = 0, write_mask = 0, reference = 0;
    TESSERA_RECORD_FIELDS(StencilOpState, fail_op, pass_op, depth_fail_op, compare_op,
                      compare_mask, write_mask, reference);
  };
  struct BlendAttachment {
    uint32_t blend_enable = 0;
    uint32_t src_color = 0, dst_color = 0, color_op = 0;
    uint32_t src_alpha = 0, dst_alpha = 0, alpha_op = 0;
    uint32_t write_mask = 0xf;
    TESSERA_RECORD_FIELDS(BlendAttachment, blend_enable, src_color, dst_color, color_op, src_alpha,
                      dst_alpha, alpha_op, write_mask);
  };
  uint64_t pipeline = 0, layout = 0, render_pass = 0;
  uint32_t subpass = 0, flags = 0;
  std::vector<ShaderStage> stages;
  // Vertex input and input assembly.
  std::vector<VertexBinding> vertex_bindings;
  std::vector<VertexAttribute> vertex_attributes;
  uint32_t topology = 0, primitive_restart = 0, patch_control_points = 0;
  // Viewport state (contents ignored for the parts that are dynamic).
  uint32_t viewport_count = 0, scissor_count = 0;
  std::vector<Viewport> viewports;
  std::vector<Rect2D> scissors;
  // Rasterization.
  uint32_t depth_clamp = 0, rasterizer_discard = 0, polygon_mode = 0, cull_mode = 0;
  uint32_t front_face = 0, depth_bias_enable = 0;
  float depth_bias_constant = 0, depth_bias_clamp = 0, depth_bias_slope = 0, line_width = 1;
  // Multisampling.
  uint32_t samples = 1, sample_shading = 0;
  float min_sample_shading = 0;
  uint32_t sample_mask = ~0u, alpha_to_coverage = 0, alpha_to_one = 0;
  // Depth and stencil.
  uint32_t depth_test = 0, depth_write = 0, depth_compare = 0, depth_bounds_test = 0;
  uint32_t stencil_test = 0;
  StencilOpState stencil_front, stencil_back;
  float min_depth_bounds = 0, max_depth_bounds = 1;
  // Color blend.
  uint32_t logic_op_enable = 0, logic_op = 0;
  std::vector<BlendAttachment> blend_attachments;
  float blend_constants[4] = {0, 0, 0, 0};
  std::vector<uint32_t> dynamic_states;  // VkDynamicState
  // Dynamic rendering (VkPipelineRenderingCreateInfo), used when render_pass is 0.
  uint32_t view_mask = 0;
  std::vector<uint32_t> color_formats;
  uint32_t depth_format = 0, stencil_format = 0;
  // VK_EXT_depth_clip_enable: 1/0 when given, 2 when absent (clipping = !depth_clamp).
  uint32_t depth_clip = 2;
  // VK_EXT_line_rasterization (VkLineRasterizationModeEXT, 0 = default) and stipple.
  uint32_t line_mode = 0, line_stipple_enable = 0, line_stipple_factor = 0;
  uint32_t line_stipple_pattern = 0;
  // VK_EXT_provoking_vertex: 0 first vertex (Vulkan default), 1 last vertex (OpenGL).
  uint32_t provoking_vertex = 0;
  // ---- Appended in format 1.1 (absent from 1.0 files: the defaults below) ----
  // VkPipelineColorWriteCreateInfoEXT::pColorWriteEnables per attachment (VK_EXT_color_write_enable);
  // empty when not given (every attachment enabled).
  std::vector<uint32_t> color_write_enables;
  // VkPipelineViewportDepthClipControlCreateInfoEXT::negativeOneToOne (VK_EXT_depth_clip_control):
  // 1 when the clip volume's depth range is -w <= z <= w.
  uint32_t depth_clip_negative_one_to_one = 0;
  static constexpr size_t kFieldsSince1_0 = 58;
  TESSERA_RECORD_FIELDS(GraphicsPipelineRecord, pipeline, layout, render_pass, subpass, flags, stages,
                    vertex_bindings, vertex_attributes, topology, primitive_restart,
                    patch_control_points, viewport_count, scissor_count, viewports, scissors,
                    depth_clamp, rasterizer_discard, polygon_mode, cull_mode, front_face,
                    depth_bias_enable, depth_bias_constant, depth_bias_clamp, depth_bias_slope,
                    line_width, samples, sample_shading, min_sample_shading, sample_mask,
                    alpha_to_coverage, alpha_to_one, depth_test, depth_write, depth_compare,
                    depth_bounds_test, stencil_test, stencil_front, stencil_back,
                    min_depth_bounds, max_depth_bounds, logic_op_enable, logic_op,
                    blend_attachments, blend_constants[0], blend_constants[1],
                    blend_constants[2], blend_constants[3], dynamic_states, view_mask,
                    color_formats, depth_format, stencil_format, depth_clip, line_mode,
                    line_stipple_enable, line_stipple_factor, line_stipple_pattern,
                    provoking_vertex, color_write_enables, depth_clip_negative_one_to_one);
};

struct ComputePipelineRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kComputePipeline;
  uint64_t pipeline = 0, layout = 0;
  uint32_t flags = 0;
  ShaderStage stage;
  TESSERA_RECORD_FIELDS(ComputePipelineRecord, pipeline, layout, flags, stage);
};

struct DescriptorSetAllocRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kDescriptorSetAlloc;
  uint64_t set = 0, layout = 0;
  TESSERA_RECORD_FIELDS(DescriptorSetAllocRecord, set, layout);
};

// vkUpdateDescriptorSets, or vkUpdateDescriptorSetWithTemplate expanded through its template.
struct DescriptorUpdateRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kDescriptorUpdate;
  std::vector<DescriptorWrite> writes;
  std::vector<DescriptorCopy> copies;
  TESSERA_RECORD_FIELDS(DescriptorUpdateRecord, writes, copies);
};

struct MemoryAllocRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kMemoryAlloc;
  uint64_t memory = 0, size = 0;
  uint32_t type_index = 0, property_flags = 0;  // VkMemoryPropertyFlags of that type
  TESSERA_RECORD_FIELDS(MemoryAllocRecord, memory, size, type_index, property_flags);
};

struct MemoryBindRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kMemoryBind;
  uint64_t resource = 0;
  uint32_t is_image = 0;
  uint64_t memory = 0, offset = 0;
  TESSERA_RECORD_FIELDS(MemoryBindRecord, resource, is_image, memory, offset);
};

// Bytes of a memory object read by mapping: at the start of the first captured frame, and at
// each submit of a captured frame for memory the application has mapped (what the host wrote).
struct MemoryContentsRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kMemoryContents;
  uint64_t memory = 0, offset = 0, size = 0;
  Hash128 contents;
  TESSERA_RECORD_FIELDS(MemoryContentsRecord, memory, offset, size, contents);
};

// Marks where a captured frame's stream starts (begin = 1: resources above are as at frame
// start) and ends (at the present).
struct FrameBoundaryRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kFrameBoundary;
  uint32_t present = 0, begin = 0;
  TESSERA_RECORD_FIELDS(FrameBoundaryRecord, present, begin);
};

// Contents of a colour render target as the frame ends (read at its present, after the
// frame's work finished), so replay can be checked pass by pass. Subresources are tightly
// packed in the blob, mips of one layer consecutive, in the order listed (as ImageRecord).
struct RenderTargetContentsRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kRenderTargetContents;
  struct Subresource {
    uint32_t mip = 0, layer = 0;
    uint64_t offset = 0, size = 0;
    uint32_t aspect = 0;  // VkImageAspectFlagBits, as in ImageRecord::Subresource
    TESSERA_RECORD_FIELDS(Subresource, mip, layer, offset, size, aspect);
  };
  uint32_t present = 0;
  uint64_t image = 0;
  uint32_t format = 0, width = 0, height = 0, depth = 0, mip_levels = 0, array_layers = 0;
  uint32_t layout = 0;  // VkImageLayout the image was in
  std::vector<Subresource> subresources;
  Hash128 contents;
  TESSERA_RECORD_FIELDS(RenderTargetContentsRecord, present, image, format, width, height, depth,
                    mip_levels, array_layers, layout, subresources, contents);
};

// One attachment of one render pass instance as the captured device left it at the instance's
// end (vkCmdEndRenderPass / vkCmdEndRendering), written only when the capture reads passes back
// (`tessera capture --readback passes`), so a replay can be compared pass by pass.
// `pass` counts the frame's render pass instances in execution order from 0, both kinds, every
// instance the frame ends, as replay numbers them whether or not it can replay one
// (RenderPassInstance::instance, FrameResult::instances). `attachment` is the render pass's
// attachment index; for dynamic rendering, colour attachment i is i and the depth/stencil
// attachment is colorAttachmentCount. A multisampled attachment is read through its resolve
// attachment, if it has one (`resolved` = 1), and is otherwise not read. One record per aspect
// (VK_IMAGE_ASPECT_COLOR/DEPTH/STENCIL_BIT): the mip level and array layer the attachment's view
// rendered, width x height texels tightly packed as vkCmdCopyImageToBuffer writes them with
// bufferRowLength 0, in blob `contents`: in the image's format (spec "Copying Data Between Buffers
// and Images"; a depth/stencil aspect in its copy format), where `format` is the view's.
struct RenderPassContentsRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kRenderPassContents;
  uint32_t present = 0, pass = 0, attachment = 0, resolved = 0;
  uint64_t image = 0;
  uint32_t format = 0, width = 0, height = 0, mip = 0, layer = 0;
  uint32_t aspect = 0;  // VkImageAspectFlagBits
  uint32_t layout = 0;  // VkImageLayout the attachment ended the instance in
  Hash128 contents;
  TESSERA_RECORD_FIELDS(RenderPassContentsRecord, present, pass, attachment, resolved, image, format,
                        width, height, mip, layer, aspect, layout, contents);
};

// vkGetPhysicalDeviceFormatProperties of every core format the device supports in any way
// (written with DeviceInfoRecord): what replay needs to match the captured device's choices.
struct FormatPropertiesRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kFormatProperties;
  struct Format {
    uint32_t format = 0;  // VkFormat
    uint32_t linear_tiling = 0, optimal_tiling = 0, buffer = 0;  // VkFormatFeatureFlags
    TESSERA_RECORD_FIELDS(Format, format, linear_tiling, optimal_tiling, buffer);
  };
  std::vector<Format> formats;
  TESSERA_RECORD_FIELDS(FormatPropertiesRecord, formats);
};

// ---- Commands ------------------------------------------------------------------------------

struct SubmitRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kSubmit;
  uint64_t queue = 0;
  std::vector<uint64_t> command_buffers;
  TESSERA_RECORD_FIELDS(SubmitRecord, queue, command_buffers);
};

struct CommandBufferRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kCommandBuffer;
  uint64_t command_buffer = 0;
  uint32_t level = 0;  // VkCommandBufferLevel
  uint64_t command_count = 0;  // records that follow for this command buffer
  TESSERA_RECORD_FIELDS(CommandBufferRecord, command_buffer, level, command_count);
};

struct CmdBeginRenderPassRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kCmdBeginRenderPass;
  uint64_t render_pass = 0, framebuffer = 0;
  Rect2D render_area;
  std::vector<ClearValue> clear_values;
  std::vector<uint64_t> attachments;  // imageless framebuffers: the views, else empty
  uint32_t contents = 0;
  TESSERA_RECORD_FIELDS(CmdBeginRenderPassRecord, render_pass, framebuffer, render_area,
                    clear_values, attachments, contents);
};

struct CmdNextSubpassRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kCmdNextSubpass;
  uint32_t contents = 0;
  TESSERA_RECORD_FIELDS(CmdNextSubpassRecord, contents);
};

struct CmdEndRenderPassRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kCmdEndRenderPass;
  uint32_t reserved = 0;
  TESSERA_RECORD_FIELDS(CmdEndRenderPassRecord, reserved);
};

struct RenderingAttachment {
  uint64_t view = 0;
  uint32_t layout = 0, resolve_mode = 0;
  uint64_t resolve_view = 0;
  uint32_t resolve_layout = 0, load_op = 0, store_op = 0;
  ClearValue clear;
  TESSERA_RECORD_FIELDS(RenderingAttachment, view, layout, resolve_mode, resolve_view,
                    resolve_layout, load_op, store_op, clear);
};

struct CmdBeginRenderingRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kCmdBeginRendering;
  uint32_t flags = 0;
  Rect2D render_area;
  uint32_t layer_count = 0, view_mask = 0;
  std::vector<RenderingAttachment> colors;
  uint32_t has_depth = 0, has_stencil = 0;
  RenderingAttachment depth, stencil;
  TESSERA_RECORD_FIELDS(CmdBeginRenderingRecord, flags, render_area, layer_count, view_mask, colors,
                    has_depth, has_stencil, depth, stencil);
};

struct CmdEndRenderingRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kCmdEndRendering;
  uint32_t reserved = 0;
  TESSERA_RECORD_FIELDS(CmdEndRenderingRecord, reserved);
};

struct CmdBindPipelineRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kCmdBindPipeline;
  uint32_t bind_point = 0;
  uint64_t pipeline = 0;
  TESSERA_RECORD_FIELDS(CmdBindPipelineRecord, bind_point, pipeline);
};

struct CmdBindDescriptorSetsRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kCmdBindDescriptorSets;
  uint32_t bind_point = 0;
  uint64_t layout = 0;
  uint32_t first_set = 0;
  std::vector<uint64_t> sets;
  std::vector<uint32_t> dynamic_offsets;
  TESSERA_RECORD_FIELDS(CmdBindDescriptorSetsRecord, bind_point, layout, first_set, sets,
                    dynamic_offsets);
};

// vkCmdPushDescriptorSetKHR, or vkCmdPushDescriptorSetWithTemplateKHR expanded.
struct CmdPushDescriptorSetRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kCmdPushDescriptorSet;
  uint32_t bind_point = 0;
  uint64_t layout = 0;
  uint32_t set = 0;
  std::vector<DescriptorWrite> writes;
  TESSERA_RECORD_FIELDS(CmdPushDescriptorSetRecord, bind_point, layout, set, writes);
};

struct CmdPushConstantsRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kCmdPushConstants;
  uint64_t layout = 0;
  uint32_t stages = 0, offset = 0;
  std::vector<uint8_t> data;
  TESSERA_RECORD_FIELDS(CmdPushConstantsRecord, layout, stages, offset, data);
};

// vkCmdBindVertexBuffers and vkCmdBindVertexBuffers2 (sizes and strides empty when not given).
struct CmdBindVertexBuffersRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kCmdBindVertexBuffers;
  uint32_t first_binding = 0;
  std::vector<uint64_t> buffers, offsets, sizes, strides;
  TESSERA_RECORD_FIELDS(CmdBindVertexBuffersRecord, first_binding, buffers, offsets, sizes,
                    strides);
};

struct CmdBindIndexBufferRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kCmdBindIndexBuffer;
  uint64_t buffer = 0, offset = 0;
  uint32_t index_type = 0;
  TESSERA_RECORD_FIELDS(CmdBindIndexBufferRecord, buffer, offset, index_type);
};

struct CmdDrawRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kCmdDraw;
  uint32_t vertex_count = 0, instance_count = 0, first_vertex = 0, first_instance = 0;
  TESSERA_RECORD_FIELDS(CmdDrawRecord, vertex_count, instance_count, first_vertex, first_instance);
};

struct CmdDrawIndexedRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kCmdDrawIndexed;
  uint32_t index_count = 0, instance_count = 0, first_index = 0;
  int32_t vertex_offset = 0;
  uint32_t first_instance = 0;
  TESSERA_RECORD_FIELDS(CmdDrawIndexedRecord, index_count, instance_count, first_index,
                    vertex_offset, first_instance);
};

// vkCmdDraw[Indexed]Indirect[Count]. The indirect buffer's contents are those of its memory
// (MemoryContentsRecord); count_buffer is 0 for the non-count variants.
struct CmdDrawIndirectRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kCmdDrawIndirect;
  uint32_t indexed = 0;
  uint64_t buffer = 0, offset = 0;
  uint32_t draw_count = 0, stride = 0;
  uint64_t count_buffer = 0, count_offset = 0;
  TESSERA_RECORD_FIELDS(CmdDrawIndirectRecord, indexed, buffer, offset, draw_count, stride,
                    count_buffer, count_offset);
};

struct CmdDispatchRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kCmdDispatch;
  uint32_t x = 0, y = 0, z = 0;
  uint64_t indirect_buffer = 0, indirect_offset = 0;  // vkCmdDispatchIndirect when buffer != 0
  TESSERA_RECORD_FIELDS(CmdDispatchRecord, x, y, z, indirect_buffer, indirect_offset);
};

// vkCmdDispatchBase (core 1.1): workgroups base .. base + count - 1 in each dimension.
struct CmdDispatchBaseRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kCmdDispatchBase;
  uint32_t base_x = 0, base_y = 0, base_z = 0;
  uint32_t x = 0, y = 0, z = 0;
  TESSERA_RECORD_FIELDS(CmdDispatchBaseRecord, base_x, base_y, base_z, x, y, z);
};

// vkCmdSetViewport, and vkCmdSetViewportWithCount when with_count is 1.
struct CmdSetViewportRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kCmdSetViewport;
  uint32_t first = 0, with_count = 0;
  std::vector<Viewport> viewports;
  TESSERA_RECORD_FIELDS(CmdSetViewportRecord, first, with_count, viewports);
};

struct CmdSetScissorRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kCmdSetScissor;
  uint32_t first = 0, with_count = 0;
  std::vector<Rect2D> scissors;
  TESSERA_RECORD_FIELDS(CmdSetScissorRecord, first, with_count, scissors);
};

// Every other vkCmdSet* of core Vulkan, extended dynamic state 1, 2 and 3, line stipple and
// colour write enable: the VkDynamicState it sets and its arguments in order as 32-bit words
// (floats bit-cast, VkBool32 as 0/1, arrays as their elements). E.g.
// VK_DYNAMIC_STATE_STENCIL_REFERENCE: {faceMask, reference}; BLEND_CONSTANTS: four floats.
// Arrays (format 1.1, schema/capture-format.md section 6.1 lists every state):
//   COLOR_WRITE_ENABLE_EXT: {enable of attachment 0, 1, ...}
//   SAMPLE_MASK_EXT: {samples, mask word 0, ...}
//   COLOR_BLEND_ENABLE_EXT, COLOR_WRITE_MASK_EXT: {firstAttachment, value, value, ...}
//   COLOR_BLEND_EQUATION_EXT: {firstAttachment, then per attachment srcColor, dstColor, colorOp,
//     srcAlpha, dstAlpha, alphaOp}
struct CmdSetDynamicStateRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kCmdSetDynamicState;
  uint32_t state = 0;
  std::vector<uint32_t> words;
  TESSERA_RECORD_FIELDS(CmdSetDynamicStateRecord, state, words);
};

// vkCmdSetVertexInputEXT (VK_EXT_vertex_input_dynamic_state, format 1.1): the vertex bindings
// (divisors included) and attributes that replace the pipeline's vertex input state.
struct CmdSetVertexInputRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kCmdSetVertexInput;
  std::vector<GraphicsPipelineRecord::VertexBinding> bindings;
  std::vector<GraphicsPipelineRecord::VertexAttribute> attributes;
  TESSERA_RECORD_FIELDS(CmdSetVertexInputRecord, bindings, attributes);
};

struct CmdClearAttachmentsRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kCmdClearAttachments;
  struct Attachment {
    uint32_t aspect = 0, color_attachment = 0;
    ClearValue value;
    TESSERA_RECORD_FIELDS(Attachment, aspect, color_attachment, value);
  };
  struct Rect {
    Rect2D rect;
    uint32_t base_layer = 0, layer_count = 0;
    TESSERA_RECORD_FIELDS(Rect, rect, base_layer, layer_count);
  };
  std::vector<Attachment> attachments;
  std::vector<Rect> rects;
  TESSERA_RECORD_FIELDS(CmdClearAttachmentsRecord, attachments, rects);
};

// vkCmdClearColorImage (depth_stencil 0) and vkCmdClearDepthStencilImage (1).
struct CmdClearImageRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kCmdClearImage;
  uint64_t image = 0;
  uint32_t layout = 0, depth_stencil = 0;
  ClearValue value;
  std::vector<SubresourceRange> ranges;
  TESSERA_RECORD_FIELDS(CmdClearImageRecord, image, layout, depth_stencil, value, ranges);
};

// Copies, blits and resolves between buffers and images (vkCmdCopyBuffer, CopyImage,
// CopyBufferToImage, CopyImageToBuffer, BlitImage, ResolveImage and their *2 forms). Offsets and
// extents of one region as 3-D boxes; buffer regions use buffer_offset / row_length / height.
struct CopyRegion {
  uint64_t src_offset_bytes = 0, dst_offset_bytes = 0, size_bytes = 0;  // buffer to buffer
  uint32_t buffer_row_length = 0, buffer_image_height = 0;
  uint32_t src_aspect = 0, src_mip = 0, src_base_layer = 0, src_layer_count = 0;
  uint32_t dst_aspect = 0, dst_mip = 0, dst_base_layer = 0, dst_layer_count = 0;
  int32_t src_x0 = 0, src_y0 = 0, src_z0 = 0, src_x1 = 0, src_y1 = 0, src_z1 = 0;
  int32_t dst_x0 = 0, dst_y0 = 0, dst_z0 = 0, dst_x1 = 0, dst_y1 = 0, dst_z1 = 0;
  TESSERA_RECORD_FIELDS(CopyRegion, src_offset_bytes, dst_offset_bytes, size_bytes,
                    buffer_row_length, buffer_image_height, src_aspect, src_mip, src_base_layer,
                    src_layer_count, dst_aspect, dst_mip, dst_base_layer, dst_layer_count,
                    src_x0, src_y0, src_z0, src_x1, src_y1, src_z1, dst_x0, dst_y0, dst_z0,
                    dst_x1, dst_y1, dst_z1);
};

struct CmdCopyRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kCmdCopy;
  enum Op : uint32_t {
    kBufferToBuffer = 0,
    kImageToImage = 1,
    kBufferToImage = 2,
    kImageToBuffer = 3,
    kBlit = 4,
    kResolve = 5
  };
  uint32_t op = 0;
  uint64_t src = 0, dst = 0;
  uint32_t src_layout = 0, dst_layout = 0;
  uint32_t filter = 0;  // blits
  std::vector<CopyRegion> regions;
  TESSERA_RECORD_FIELDS(CmdCopyRecord, op, src, dst, src_layout, dst_layout, filter, regions);
};

struct CmdUpdateBufferRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kCmdUpdateBuffer;
  uint64_t buffer = 0, offset = 0;
  std::vector<uint8_t> data;
  TESSERA_RECORD_FIELDS(CmdUpdateBufferRecord, buffer, offset, data);
};

struct CmdFillBufferRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kCmdFillBuffer;
  uint64_t buffer = 0, offset = 0, size = 0;
  uint32_t value = 0;
  TESSERA_RECORD_FIELDS(CmdFillBufferRecord, buffer, offset, size, value);
};

// Image layout transitions of vkCmdPipelineBarrier[2]: what replay needs to order passes and
// track layouts (memory barriers have no effect on a functional replay).
struct CmdPipelineBarrierRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kCmdPipelineBarrier;
  struct ImageBarrier {
    uint64_t image = 0;
    uint32_t old_layout = 0, new_layout = 0;
    SubresourceRange range;
    TESSERA_RECORD_FIELDS(ImageBarrier, image, old_layout, new_layout, range);
  };
  uint64_t src_stages = 0, dst_stages = 0;
  std::vector<ImageBarrier> images;
  TESSERA_RECORD_FIELDS(CmdPipelineBarrierRecord, src_stages, dst_stages, images);
};

struct CmdExecuteCommandsRecord {
  static constexpr VkRecordKind kKind = VkRecordKind::kCmdExecuteCommands;
  std::vector<uint64_t> command_buffers;
  TESSERA_RECORD_FIELDS(CmdExecuteCommandsRecord, command_buffers);
};

template <typename R>
concept VkRecord = FieldRecord<R> && std::is_same_v<std::remove_cv_t<decltype(R::kKind)>, VkRecordKind>;

// Kind number of a record struct, for CaptureWriter::write_record.
template <VkRecord R>
constexpr uint32_t kind_of() {
  return static_cast<uint32_t>(R::kKind);
}

}  // namespace tessera::capture
