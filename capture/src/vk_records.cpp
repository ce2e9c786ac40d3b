#include "tessera/capture/vk_records.h"

namespace tessera::capture {

const char* vk_record_kind_name(uint32_t kind) {
  switch (static_cast<VkRecordKind>(kind)) {
    case VkRecordKind::kSwapchain: return "swapchain";
    case VkRecordKind::kSampler: return "sampler";
    case VkRecordKind::kImageView: return "image_view";
    case VkRecordKind::kDescriptorSetLayout: return "descriptor_set_layout";
    case VkRecordKind::kPipelineLayout: return "pipeline_layout";
    case VkRecordKind::kRenderPass: return "render_pass";
    case VkRecordKind::kFramebuffer: return "framebuffer";
    case VkRecordKind::kGraphicsPipeline: return "graphics_pipeline";
    case VkRecordKind::kComputePipeline: return "compute_pipeline";
    case VkRecordKind::kDescriptorSetAlloc: return "descriptor_set_alloc";
    case VkRecordKind::kDescriptorUpdate: return "descriptor_update";
    case VkRecordKind::kMemoryAlloc: return "memory_alloc";
    case VkRecordKind::kMemoryBind: return "memory_bind";
    case VkRecordKind::kMemoryContents: return "memory_contents";
    case VkRecordKind::kBufferView: return "buffer_view";
    case VkRecordKind::kFrameBoundary: return "frame_boundary";
    case VkRecordKind::kRenderTargetContents: return "render_target_contents";
    case VkRecordKind::kFormatProperties: return "format_properties";
    case VkRecordKind::kRenderPassContents: return "render_pass_contents";
    case VkRecordKind::kSubmit: return "submit";
    case VkRecordKind::kCommandBuffer: return "command_buffer";
    case VkRecordKind::kCmdBeginRenderPass: return "cmd_begin_render_pass";
    case VkRecordKind::kCmdNextSubpass: return "cmd_next_subpass";
    case VkRecordKind::kCmdEndRenderPass: return "cmd_end_render_pass";
    case VkRecordKind::kCmdBeginRendering: return "cmd_begin_rendering";
    case VkRecordKind::kCmdEndRendering: return "cmd_end_rendering";
    case VkRecordKind::kCmdBindPipeline: return "cmd_bind_pipeline";
    case VkRecordKind::kCmdBindDescriptorSets: return "cmd_bind_descriptor_sets";
    case VkRecordKind::kCmdPushDescriptorSet: return "cmd_push_descriptor_set";
    case VkRecordKind::kCmdPushConstants: return "cmd_push_constants";
    case VkRecordKind::kCmdBindVertexBuffers: return "cmd_bind_vertex_buffers";
    case VkRecordKind::kCmdBindIndexBuffer: return "cmd_bind_index_buffer";
    case VkRecordKind::kCmdDraw: return "cmd_draw";
    case VkRecordKind::kCmdDrawIndexed: return "cmd_draw_indexed";
    case VkRecordKind::kCmdDrawIndirect: return "cmd_draw_indirect";
    case VkRecordKind::kCmdDispatch: return "cmd_dispatch";
    case VkRecordKind::kCmdSetViewport: return "cmd_set_viewport";
    case VkRecordKind::kCmdSetScissor: return "cmd_set_scissor";
    case VkRecordKind::kCmdSetDynamicState: return "cmd_set_dynamic_state";
    case VkRecordKind::kCmdClearAttachments: return "cmd_clear_attachments";
    case VkRecordKind::kCmdClearImage: return "cmd_clear_image";
    case VkRecordKind::kCmdCopy: return "cmd_copy";
    case VkRecordKind::kCmdUpdateBuffer: return "cmd_update_buffer";
    case VkRecordKind::kCmdFillBuffer: return "cmd_fill_buffer";
    case VkRecordKind::kCmdPipelineBarrier: return "cmd_pipeline_barrier";
    case VkRecordKind::kCmdExecuteCommands: return "cmd_execute_commands";
    case VkRecordKind::kCmdDispatchBase: return "cmd_dispatch_base";
    case VkRecordKind::kCmdSetVertexInput: return "cmd_set_vertex_input";
  }
  return nullptr;
}

}  // namespace tessera::capture
