// Command buffers: every command the replay needs is appended to its command buffer's stream
// when recorded (command buffers are often recorded once, long before the captured frame, as
// vkcube does), and the streams are written to the file when submitted in a captured frame.
#include <bit>
#include <cstring>
#include <memory>
#include <type_traits>

#include "descriptors.h"
#include "layer_state.h"
#include "vk_ext_frame_boundary.h"

namespace tessera::layer {

CommandBufferState* recording_state(DeviceData* d, VkCommandBuffer cb) {
  Session* s = Session::get();
  if (s == nullptr || !s->recording()) return nullptr;
  std::shared_lock lock(d->cb_mutex);
  auto it = d->command_buffers.find(cb);
  return it == d->command_buffers.end() ? nullptr : it->second.get();
}

namespace {

uint32_t word(float f) { return std::bit_cast<uint32_t>(f); }

cap::Rect2D rect_of(const VkRect2D& r) {
  return {r.offset.x, r.offset.y, r.extent.width, r.extent.height};
}

cap::ClearValue clear_of(const VkClearValue& v) {
  cap::ClearValue c;
  std::memcpy(c.words, &v, sizeof c.words);
  return c;
}

cap::SubresourceRange range_of(const VkImageSubresourceRange& r) {
  return {r.aspectMask, r.baseMipLevel, r.levelCount, r.baseArrayLayer, r.layerCount};
}

// Records `rec` into cb's stream when the layer is recording it.
template <typename R>
void record(VkCommandBuffer cb, DeviceData* d, const R& rec) {
  if (CommandBufferState* s = recording_state(d, cb)) {
    append_command(s, rec);
    // The draws a submission carries (trigger by content, CaptureConfig::arm_draws).
    if constexpr (std::is_same_v<R, cap::CmdDrawRecord> || std::is_same_v<R, cap::CmdDrawIndexedRecord> ||
                  std::is_same_v<R, cap::CmdDrawIndirectRecord>) {
      ++s->draws;
    }
  }
}

}  // namespace

// ---- Pools and command buffers ---------------------------------------------------------------

VKAPI_ATTR VkResult VKAPI_CALL AllocateCommandBuffers(VkDevice device,
                                                      const VkCommandBufferAllocateInfo* info,
                                                      VkCommandBuffer* cbs) {
  DeviceData* d = device_of(device);
  const VkResult r = down(d->vk.AllocateCommandBuffers(device, info, cbs));
  if (r == VK_SUCCESS) {
    std::unique_lock lock(d->cb_mutex);
    for (uint32_t i = 0; i < info->commandBufferCount; ++i) {
      auto st = std::make_unique<CommandBufferState>();
      st->pool = info->commandPool;
      st->level = static_cast<uint32_t>(info->level);
      d->command_buffers[cbs[i]] = std::move(st);
    }
  }
  return r;
}

VKAPI_ATTR void VKAPI_CALL FreeCommandBuffers(VkDevice device, VkCommandPool pool, uint32_t n,
                                              const VkCommandBuffer* cbs) {
  DeviceData* d = device_of(device);
  {
    std::unique_lock lock(d->cb_mutex);
    for (uint32_t i = 0; i < n; ++i) d->command_buffers.erase(cbs[i]);
  }
  d->vk.FreeCommandBuffers(device, pool, n, cbs);
}

VKAPI_ATTR void VKAPI_CALL DestroyCommandPool(VkDevice device, VkCommandPool pool,
                                              const VkAllocationCallbacks* alloc) {
  DeviceData* d = device_of(device);
  {
    std::unique_lock lock(d->cb_mutex);
    std::erase_if(d->command_buffers, [pool](const auto& kv) { return kv.second->pool == pool; });
  }
  d->vk.DestroyCommandPool(device, pool, alloc);
}

VKAPI_ATTR VkResult VKAPI_CALL ResetCommandPool(VkDevice device, VkCommandPool pool,
                                                VkCommandPoolResetFlags flags) {
  DeviceData* d = device_of(device);
  {
    std::unique_lock lock(d->cb_mutex);
    for (auto& [cb, st] : d->command_buffers) {
      if (st->pool == pool) st->reset();
    }
  }
  return down(d->vk.ResetCommandPool(device, pool, flags));
}

namespace {

// Forgets a command buffer's recording. Its render pass readback buffers go too, even once the
// capture is done: the command buffer is not pending (VUID-vkBeginCommandBuffer-commandBuffer-00049,
// VUID-vkResetCommandBuffer-commandBuffer-00045), so its copies have run.
void reset_recording(DeviceData* d, VkCommandBuffer cb) {
  if (Session::get() == nullptr) return;
  std::shared_lock lock(d->cb_mutex);
  auto it = d->command_buffers.find(cb);
  if (it != d->command_buffers.end()) it->second->reset();
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL BeginCommandBuffer(VkCommandBuffer cb,
                                                  const VkCommandBufferBeginInfo* info) {
  DeviceData* d = device_of(cb);
  // Beginning resets the command buffer implicitly (Vulkan spec, vkBeginCommandBuffer).
  reset_recording(d, cb);
  if ((info->flags & VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT) != 0) {
    guarded("vkBeginCommandBuffer", [&] {
      if (CommandBufferState* st = recording_state(d, cb)) st->simultaneous = true;
    });
  }
  return down(d->vk.BeginCommandBuffer(cb, info));
}

VKAPI_ATTR VkResult VKAPI_CALL ResetCommandBuffer(VkCommandBuffer cb,
                                                  VkCommandBufferResetFlags flags) {
  DeviceData* d = device_of(cb);
  reset_recording(d, cb);
  return down(d->vk.ResetCommandBuffer(cb, flags));
}

// ---- Render passes ---------------------------------------------------------------------------

namespace {

cap::CmdBeginRenderPassRecord begin_render_pass(const VkRenderPassBeginInfo* b,
                                                VkSubpassContents contents) {
  cap::CmdBeginRenderPassRecord rec;
  rec.render_pass = id(b->renderPass);
  rec.framebuffer = id(b->framebuffer);
  rec.render_area = rect_of(b->renderArea);
  for (uint32_t i = 0; i < b->clearValueCount && b->pClearValues != nullptr; ++i) {
    rec.clear_values.push_back(clear_of(b->pClearValues[i]));
  }
  for (auto* s = static_cast<const VkBaseInStructure*>(b->pNext); s != nullptr; s = s->pNext) {
    if (s->sType == VK_STRUCTURE_TYPE_RENDER_PASS_ATTACHMENT_BEGIN_INFO) {
      const auto* a = reinterpret_cast<const VkRenderPassAttachmentBeginInfo*>(s);
      for (uint32_t i = 0; i < a->attachmentCount; ++i) rec.attachments.push_back(id(a->pAttachments[i]));
    }
  }
  rec.contents = static_cast<uint32_t>(contents);
  return rec;
}

}  // namespace

VKAPI_ATTR void VKAPI_CALL CmdBeginRenderPass(VkCommandBuffer cb, const VkRenderPassBeginInfo* b,
                                              VkSubpassContents contents) {
  DeviceData* d = device_of(cb);
  d->vk.CmdBeginRenderPass(cb, b, contents);
  record(cb, d, begin_render_pass(b, contents));
  begin_pass_readback(d, cb, b);
}

VKAPI_ATTR void VKAPI_CALL CmdBeginRenderPass2(VkCommandBuffer cb, const VkRenderPassBeginInfo* b,
                                               const VkSubpassBeginInfo* sb) {
  DeviceData* d = device_of(cb);
  d->vk.CmdBeginRenderPass2(cb, b, sb);
  record(cb, d, begin_render_pass(b, sb->contents));
  begin_pass_readback(d, cb, b);
}

VKAPI_ATTR void VKAPI_CALL CmdNextSubpass(VkCommandBuffer cb, VkSubpassContents contents) {
  DeviceData* d = device_of(cb);
  d->vk.CmdNextSubpass(cb, contents);
  record(cb, d, cap::CmdNextSubpassRecord{static_cast<uint32_t>(contents)});
}

VKAPI_ATTR void VKAPI_CALL CmdNextSubpass2(VkCommandBuffer cb, const VkSubpassBeginInfo* b,
                                           const VkSubpassEndInfo* e) {
  DeviceData* d = device_of(cb);
  d->vk.CmdNextSubpass2(cb, b, e);
  record(cb, d, cap::CmdNextSubpassRecord{static_cast<uint32_t>(b->contents)});
}

VKAPI_ATTR void VKAPI_CALL CmdEndRenderPass(VkCommandBuffer cb) {
  DeviceData* d = device_of(cb);
  d->vk.CmdEndRenderPass(cb);
  record(cb, d, cap::CmdEndRenderPassRecord{});
  end_pass_readback(d, cb);
}

VKAPI_ATTR void VKAPI_CALL CmdEndRenderPass2(VkCommandBuffer cb, const VkSubpassEndInfo* e) {
  DeviceData* d = device_of(cb);
  d->vk.CmdEndRenderPass2(cb, e);
  record(cb, d, cap::CmdEndRenderPassRecord{});
  end_pass_readback(d, cb);
}

namespace {

cap::RenderingAttachment rendering_attachment(const VkRenderingAttachmentInfo& a) {
  return {id(a.imageView),
          static_cast<uint32_t>(a.imageLayout),
          static_cast<uint32_t>(a.resolveMode),
          id(a.resolveImageView),
          static_cast<uint32_t>(a.resolveImageLayout),
          static_cast<uint32_t>(a.loadOp),
          static_cast<uint32_t>(a.storeOp),
          clear_of(a.clearValue)};
}

}  // namespace

VKAPI_ATTR void VKAPI_CALL CmdBeginRendering(VkCommandBuffer cb, const VkRenderingInfo* info) {
  DeviceData* d = device_of(cb);
  d->vk.CmdBeginRendering(cb, info);
  CommandBufferState* s = recording_state(d, cb);
  if (s == nullptr) return;
  cap::CmdBeginRenderingRecord rec;
  rec.flags = info->flags;
  rec.render_area = rect_of(info->renderArea);
  rec.layer_count = info->layerCount;
  rec.view_mask = info->viewMask;
  for (uint32_t i = 0; i < info->colorAttachmentCount; ++i) {
    rec.colors.push_back(rendering_attachment(info->pColorAttachments[i]));
  }
  if (info->pDepthAttachment != nullptr) {
    rec.has_depth = 1;
    rec.depth = rendering_attachment(*info->pDepthAttachment);
  }
  if (info->pStencilAttachment != nullptr) {
    rec.has_stencil = 1;
    rec.stencil = rendering_attachment(*info->pStencilAttachment);
  }
  append_command(s, rec);
  s->rendering_flags = info->flags;
  begin_pass_readback(d, cb, info);
}

VKAPI_ATTR void VKAPI_CALL CmdEndRendering(VkCommandBuffer cb) {
  DeviceData* d = device_of(cb);
  d->vk.CmdEndRendering(cb);
  record(cb, d, cap::CmdEndRenderingRecord{});
  if (CommandBufferState* s = recording_state(d, cb)) {
    end_pass_readback(d, cb, (s->rendering_flags & VK_RENDERING_SUSPENDING_BIT) != 0);
  }
}

// ---- Binding state ---------------------------------------------------------------------------

VKAPI_ATTR void VKAPI_CALL CmdBindPipeline(VkCommandBuffer cb, VkPipelineBindPoint bp,
                                           VkPipeline p) {
  DeviceData* d = device_of(cb);
  d->vk.CmdBindPipeline(cb, bp, p);
  record(cb, d, cap::CmdBindPipelineRecord{static_cast<uint32_t>(bp), id(p)});
}

VKAPI_ATTR void VKAPI_CALL CmdBindDescriptorSets(VkCommandBuffer cb, VkPipelineBindPoint bp,
                                                 VkPipelineLayout layout, uint32_t first,
                                                 uint32_t n, const VkDescriptorSet* sets,
                                                 uint32_t ndyn, const uint32_t* dyn) {
  DeviceData* d = device_of(cb);
  d->vk.CmdBindDescriptorSets(cb, bp, layout, first, n, sets, ndyn, dyn);
  CommandBufferState* s = recording_state(d, cb);
  if (s == nullptr) return;
  cap::CmdBindDescriptorSetsRecord rec{static_cast<uint32_t>(bp), id(layout), first, {}, {}};
  for (uint32_t i = 0; i < n; ++i) rec.sets.push_back(id(sets[i]));
  if (dyn != nullptr) rec.dynamic_offsets.assign(dyn, dyn + ndyn);
  append_command(s, rec);
}

VKAPI_ATTR void VKAPI_CALL CmdPushDescriptorSetKHR(VkCommandBuffer cb, VkPipelineBindPoint bp,
                                                   VkPipelineLayout layout, uint32_t set,
                                                   uint32_t n,
                                                   const VkWriteDescriptorSet* writes) {
  DeviceData* d = device_of(cb);
  d->vk.CmdPushDescriptorSetKHR(cb, bp, layout, set, n, writes);
  CommandBufferState* s = recording_state(d, cb);
  if (s == nullptr) return;
  cap::CmdPushDescriptorSetRecord rec{static_cast<uint32_t>(bp), id(layout), set, {}};
  for (uint32_t i = 0; i < n; ++i) rec.writes.push_back(convert_write(writes[i]));
  append_command(s, rec);
}

VKAPI_ATTR void VKAPI_CALL CmdPushDescriptorSetWithTemplateKHR(VkCommandBuffer cb,
                                                               VkDescriptorUpdateTemplate tpl,
                                                               VkPipelineLayout layout,
                                                               uint32_t set, const void* data) {
  DeviceData* d = device_of(cb);
  d->vk.CmdPushDescriptorSetWithTemplateKHR(cb, tpl, layout, set, data);
  CommandBufferState* s = recording_state(d, cb);
  if (s == nullptr) return;
  cap::CmdPushDescriptorSetRecord rec{0, id(layout), set, {}};
  {
    std::lock_guard lock(d->mutex);
    auto it = d->templates.find(tpl);
    if (it == d->templates.end()) return;
    rec.writes = expand_template(it->second.entries, 0, data);
  }
  append_command(s, rec);
}

VKAPI_ATTR void VKAPI_CALL CmdPushConstants(VkCommandBuffer cb, VkPipelineLayout layout,
                                            VkShaderStageFlags stages, uint32_t offset,
                                            uint32_t size, const void* values) {
  DeviceData* d = device_of(cb);
  d->vk.CmdPushConstants(cb, layout, stages, offset, size, values);
  CommandBufferState* s = recording_state(d, cb);
  if (s == nullptr) return;
  const auto* p = static_cast<const uint8_t*>(values);
  append_command(s, cap::CmdPushConstantsRecord{id(layout), stages, offset, {p, p + size}});
}

VKAPI_ATTR void VKAPI_CALL CmdBindVertexBuffers(VkCommandBuffer cb, uint32_t first, uint32_t n,
                                                const VkBuffer* buffers,
                                                const VkDeviceSize* offsets) {
  DeviceData* d = device_of(cb);
  d->vk.CmdBindVertexBuffers(cb, first, n, buffers, offsets);
  CommandBufferState* s = recording_state(d, cb);
  if (s == nullptr) return;
  cap::CmdBindVertexBuffersRecord rec;
  rec.first_binding = first;
  for (uint32_t i = 0; i < n; ++i) {
    rec.buffers.push_back(id(buffers[i]));
    rec.offsets.push_back(offsets[i]);
  }
  append_command(s, rec);
}

VKAPI_ATTR void VKAPI_CALL CmdBindVertexBuffers2(VkCommandBuffer cb, uint32_t first, uint32_t n,
                                                 const VkBuffer* buffers,
                                                 const VkDeviceSize* offsets,
                                                 const VkDeviceSize* sizes,
                                                 const VkDeviceSize* strides) {
  DeviceData* d = device_of(cb);
  d->vk.CmdBindVertexBuffers2(cb, first, n, buffers, offsets, sizes, strides);
  CommandBufferState* s = recording_state(d, cb);
  if (s == nullptr) return;
  cap::CmdBindVertexBuffersRecord rec;
  rec.first_binding = first;
  for (uint32_t i = 0; i < n; ++i) {
    rec.buffers.push_back(id(buffers[i]));
    rec.offsets.push_back(offsets[i]);
    if (sizes != nullptr) rec.sizes.push_back(sizes[i]);
    if (strides != nullptr) rec.strides.push_back(strides[i]);
  }
  append_command(s, rec);
}

VKAPI_ATTR void VKAPI_CALL CmdBindIndexBuffer(VkCommandBuffer cb, VkBuffer buffer,
                                              VkDeviceSize offset, VkIndexType type) {
  DeviceData* d = device_of(cb);
  d->vk.CmdBindIndexBuffer(cb, buffer, offset, type);
  record(cb, d, cap::CmdBindIndexBufferRecord{id(buffer), offset, static_cast<uint32_t>(type)});
}

// ---- Draws and dispatches --------------------------------------------------------------------

VKAPI_ATTR void VKAPI_CALL CmdDraw(VkCommandBuffer cb, uint32_t vc, uint32_t ic, uint32_t fv,
                                   uint32_t fi) {
  DeviceData* d = device_of(cb);
  d->vk.CmdDraw(cb, vc, ic, fv, fi);
  record(cb, d, cap::CmdDrawRecord{vc, ic, fv, fi});
}

VKAPI_ATTR void VKAPI_CALL CmdDrawIndexed(VkCommandBuffer cb, uint32_t ic, uint32_t inst,
                                          uint32_t fi, int32_t vo, uint32_t finst) {
  DeviceData* d = device_of(cb);
  d->vk.CmdDrawIndexed(cb, ic, inst, fi, vo, finst);
  record(cb, d, cap::CmdDrawIndexedRecord{ic, inst, fi, vo, finst});
}

VKAPI_ATTR void VKAPI_CALL CmdDrawIndirect(VkCommandBuffer cb, VkBuffer b, VkDeviceSize off,
                                           uint32_t count, uint32_t stride) {
  DeviceData* d = device_of(cb);
  d->vk.CmdDrawIndirect(cb, b, off, count, stride);
  record(cb, d, cap::CmdDrawIndirectRecord{0, id(b), off, count, stride, 0, 0});
}

VKAPI_ATTR void VKAPI_CALL CmdDrawIndexedIndirect(VkCommandBuffer cb, VkBuffer b,
                                                  VkDeviceSize off, uint32_t count,
                                                  uint32_t stride) {
  DeviceData* d = device_of(cb);
  d->vk.CmdDrawIndexedIndirect(cb, b, off, count, stride);
  record(cb, d, cap::CmdDrawIndirectRecord{1, id(b), off, count, stride, 0, 0});
}

VKAPI_ATTR void VKAPI_CALL CmdDrawIndirectCount(VkCommandBuffer cb, VkBuffer b, VkDeviceSize off,
                                                VkBuffer cbuf, VkDeviceSize coff,
                                                uint32_t max_count, uint32_t stride) {
  DeviceData* d = device_of(cb);
  d->vk.CmdDrawIndirectCount(cb, b, off, cbuf, coff, max_count, stride);
  record(cb, d, cap::CmdDrawIndirectRecord{0, id(b), off, max_count, stride, id(cbuf), coff});
}

VKAPI_ATTR void VKAPI_CALL CmdDrawIndexedIndirectCount(VkCommandBuffer cb, VkBuffer b,
                                                       VkDeviceSize off, VkBuffer cbuf,
                                                       VkDeviceSize coff, uint32_t max_count,
                                                       uint32_t stride) {
  DeviceData* d = device_of(cb);
  d->vk.CmdDrawIndexedIndirectCount(cb, b, off, cbuf, coff, max_count, stride);
  record(cb, d, cap::CmdDrawIndirectRecord{1, id(b), off, max_count, stride, id(cbuf), coff});
}

VKAPI_ATTR void VKAPI_CALL CmdDispatch(VkCommandBuffer cb, uint32_t x, uint32_t y, uint32_t z) {
  DeviceData* d = device_of(cb);
  d->vk.CmdDispatch(cb, x, y, z);
  record(cb, d, cap::CmdDispatchRecord{x, y, z, 0, 0});
}

VKAPI_ATTR void VKAPI_CALL CmdDispatchIndirect(VkCommandBuffer cb, VkBuffer b,
                                               VkDeviceSize off) {
  DeviceData* d = device_of(cb);
  d->vk.CmdDispatchIndirect(cb, b, off);
  record(cb, d, cap::CmdDispatchRecord{0, 0, 0, id(b), off});
}

VKAPI_ATTR void VKAPI_CALL CmdDispatchBase(VkCommandBuffer cb, uint32_t bx, uint32_t by, uint32_t bz,
                                           uint32_t x, uint32_t y, uint32_t z) {
  DeviceData* d = device_of(cb);
  d->vk.CmdDispatchBase(cb, bx, by, bz, x, y, z);
  record(cb, d, cap::CmdDispatchBaseRecord{bx, by, bz, x, y, z});
}

// ---- Dynamic state ---------------------------------------------------------------------------

VKAPI_ATTR void VKAPI_CALL CmdSetViewport(VkCommandBuffer cb, uint32_t first, uint32_t n,
                                          const VkViewport* vps) {
  DeviceData* d = device_of(cb);
  d->vk.CmdSetViewport(cb, first, n, vps);
  CommandBufferState* s = recording_state(d, cb);
  if (s == nullptr) return;
  cap::CmdSetViewportRecord rec{first, 0, {}};
  for (uint32_t i = 0; i < n; ++i) {
    rec.viewports.push_back({vps[i].x, vps[i].y, vps[i].width, vps[i].height, vps[i].minDepth,
                             vps[i].maxDepth});
  }
  append_command(s, rec);
}

VKAPI_ATTR void VKAPI_CALL CmdSetViewportWithCount(VkCommandBuffer cb, uint32_t n,
                                                   const VkViewport* vps) {
  DeviceData* d = device_of(cb);
  d->vk.CmdSetViewportWithCount(cb, n, vps);
  CommandBufferState* s = recording_state(d, cb);
  if (s == nullptr) return;
  cap::CmdSetViewportRecord rec{0, 1, {}};
  for (uint32_t i = 0; i < n; ++i) {
    rec.viewports.push_back({vps[i].x, vps[i].y, vps[i].width, vps[i].height, vps[i].minDepth,
                             vps[i].maxDepth});
  }
  append_command(s, rec);
}

VKAPI_ATTR void VKAPI_CALL CmdSetScissor(VkCommandBuffer cb, uint32_t first, uint32_t n,
                                         const VkRect2D* rects) {
  DeviceData* d = device_of(cb);
  d->vk.CmdSetScissor(cb, first, n, rects);
  CommandBufferState* s = recording_state(d, cb);
  if (s == nullptr) return;
  cap::CmdSetScissorRecord rec{first, 0, {}};
  for (uint32_t i = 0; i < n; ++i) rec.scissors.push_back(rect_of(rects[i]));
  append_command(s, rec);
}

VKAPI_ATTR void VKAPI_CALL CmdSetScissorWithCount(VkCommandBuffer cb, uint32_t n,
                                                  const VkRect2D* rects) {
  DeviceData* d = device_of(cb);
  d->vk.CmdSetScissorWithCount(cb, n, rects);
  CommandBufferState* s = recording_state(d, cb);
  if (s == nullptr) return;
  cap::CmdSetScissorRecord rec{0, 1, {}};
  for (uint32_t i = 0; i < n; ++i) rec.scissors.push_back(rect_of(rects[i]));
  append_command(s, rec);
}

namespace {

void set_state(VkCommandBuffer cb, DeviceData* d, VkDynamicState state,
               std::vector<uint32_t> words) {
  record(cb, d, cap::CmdSetDynamicStateRecord{static_cast<uint32_t>(state), std::move(words)});
}

}  // namespace

VKAPI_ATTR void VKAPI_CALL CmdSetLineWidth(VkCommandBuffer cb, float w) {
  DeviceData* d = device_of(cb);
  d->vk.CmdSetLineWidth(cb, w);
  set_state(cb, d, VK_DYNAMIC_STATE_LINE_WIDTH, {word(w)});
}

VKAPI_ATTR void VKAPI_CALL CmdSetDepthBias(VkCommandBuffer cb, float c, float clamp, float s) {
  DeviceData* d = device_of(cb);
  d->vk.CmdSetDepthBias(cb, c, clamp, s);
  set_state(cb, d, VK_DYNAMIC_STATE_DEPTH_BIAS, {word(c), word(clamp), word(s)});
}

VKAPI_ATTR void VKAPI_CALL CmdSetBlendConstants(VkCommandBuffer cb, const float c[4]) {
  DeviceData* d = device_of(cb);
  d->vk.CmdSetBlendConstants(cb, c);
  set_state(cb, d, VK_DYNAMIC_STATE_BLEND_CONSTANTS, {word(c[0]), word(c[1]), word(c[2]), word(c[3])});
}

VKAPI_ATTR void VKAPI_CALL CmdSetDepthBounds(VkCommandBuffer cb, float lo, float hi) {
  DeviceData* d = device_of(cb);
  d->vk.CmdSetDepthBounds(cb, lo, hi);
  set_state(cb, d, VK_DYNAMIC_STATE_DEPTH_BOUNDS, {word(lo), word(hi)});
}

VKAPI_ATTR void VKAPI_CALL CmdSetStencilCompareMask(VkCommandBuffer cb, VkStencilFaceFlags f,
                                                    uint32_t v) {
  DeviceData* d = device_of(cb);
  d->vk.CmdSetStencilCompareMask(cb, f, v);
  set_state(cb, d, VK_DYNAMIC_STATE_STENCIL_COMPARE_MASK, {f, v});
}

VKAPI_ATTR void VKAPI_CALL CmdSetStencilWriteMask(VkCommandBuffer cb, VkStencilFaceFlags f,
                                                  uint32_t v) {
  DeviceData* d = device_of(cb);
  d->vk.CmdSetStencilWriteMask(cb, f, v);
  set_state(cb, d, VK_DYNAMIC_STATE_STENCIL_WRITE_MASK, {f, v});
}

VKAPI_ATTR void VKAPI_CALL CmdSetStencilReference(VkCommandBuffer cb, VkStencilFaceFlags f,
                                                  uint32_t v) {
  DeviceData* d = device_of(cb);
  d->vk.CmdSetStencilReference(cb, f, v);
  set_state(cb, d, VK_DYNAMIC_STATE_STENCIL_REFERENCE, {f, v});
}

namespace {

// Dynamic state setters taking one 32-bit value (extended dynamic state 1, 2 and 3): recorded
// as that value, alike for every state.
template <typename Arg>
void set_one(VkCommandBuffer cb, Arg v,
             void (VKAPI_PTR* DeviceDispatch::*next)(VkCommandBuffer, Arg), VkDynamicState state) {
  DeviceData* d = device_of(cb);
  (d->vk.*next)(cb, v);
  set_state(cb, d, state, {static_cast<uint32_t>(v)});
}

}  // namespace

#define TESSERA_SET_ONE(fn, Arg, state)                      \
  VKAPI_ATTR void VKAPI_CALL fn(VkCommandBuffer cb, Arg v) { \
    set_one(cb, v, &DeviceDispatch::fn, state);              \
  }
TESSERA_SET_ONE(CmdSetCullMode, VkCullModeFlags, VK_DYNAMIC_STATE_CULL_MODE)
TESSERA_SET_ONE(CmdSetFrontFace, VkFrontFace, VK_DYNAMIC_STATE_FRONT_FACE)
TESSERA_SET_ONE(CmdSetPrimitiveTopology, VkPrimitiveTopology, VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY)
TESSERA_SET_ONE(CmdSetDepthTestEnable, VkBool32, VK_DYNAMIC_STATE_DEPTH_TEST_ENABLE)
TESSERA_SET_ONE(CmdSetDepthWriteEnable, VkBool32, VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE)
TESSERA_SET_ONE(CmdSetDepthCompareOp, VkCompareOp, VK_DYNAMIC_STATE_DEPTH_COMPARE_OP)
TESSERA_SET_ONE(CmdSetDepthBoundsTestEnable, VkBool32, VK_DYNAMIC_STATE_DEPTH_BOUNDS_TEST_ENABLE)
TESSERA_SET_ONE(CmdSetStencilTestEnable, VkBool32, VK_DYNAMIC_STATE_STENCIL_TEST_ENABLE)
TESSERA_SET_ONE(CmdSetRasterizerDiscardEnable, VkBool32, VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE)
TESSERA_SET_ONE(CmdSetDepthBiasEnable, VkBool32, VK_DYNAMIC_STATE_DEPTH_BIAS_ENABLE)
TESSERA_SET_ONE(CmdSetPrimitiveRestartEnable, VkBool32, VK_DYNAMIC_STATE_PRIMITIVE_RESTART_ENABLE)
TESSERA_SET_ONE(CmdSetLogicOpEXT, VkLogicOp, VK_DYNAMIC_STATE_LOGIC_OP_EXT)
TESSERA_SET_ONE(CmdSetPatchControlPointsEXT, uint32_t, VK_DYNAMIC_STATE_PATCH_CONTROL_POINTS_EXT)
// Extended dynamic state 3 (the states extension_allowlist.cpp leaves visible).
TESSERA_SET_ONE(CmdSetDepthClampEnableEXT, VkBool32, VK_DYNAMIC_STATE_DEPTH_CLAMP_ENABLE_EXT)
TESSERA_SET_ONE(CmdSetPolygonModeEXT, VkPolygonMode, VK_DYNAMIC_STATE_POLYGON_MODE_EXT)
TESSERA_SET_ONE(CmdSetRasterizationSamplesEXT, VkSampleCountFlagBits,
                VK_DYNAMIC_STATE_RASTERIZATION_SAMPLES_EXT)
TESSERA_SET_ONE(CmdSetAlphaToCoverageEnableEXT, VkBool32,
                VK_DYNAMIC_STATE_ALPHA_TO_COVERAGE_ENABLE_EXT)
TESSERA_SET_ONE(CmdSetAlphaToOneEnableEXT, VkBool32, VK_DYNAMIC_STATE_ALPHA_TO_ONE_ENABLE_EXT)
TESSERA_SET_ONE(CmdSetLogicOpEnableEXT, VkBool32, VK_DYNAMIC_STATE_LOGIC_OP_ENABLE_EXT)
TESSERA_SET_ONE(CmdSetDepthClipEnableEXT, VkBool32, VK_DYNAMIC_STATE_DEPTH_CLIP_ENABLE_EXT)
TESSERA_SET_ONE(CmdSetProvokingVertexModeEXT, VkProvokingVertexModeEXT,
                VK_DYNAMIC_STATE_PROVOKING_VERTEX_MODE_EXT)
TESSERA_SET_ONE(CmdSetLineRasterizationModeEXT, VkLineRasterizationModeEXT,
                VK_DYNAMIC_STATE_LINE_RASTERIZATION_MODE_EXT)
TESSERA_SET_ONE(CmdSetLineStippleEnableEXT, VkBool32, VK_DYNAMIC_STATE_LINE_STIPPLE_ENABLE_EXT)
TESSERA_SET_ONE(CmdSetDepthClipNegativeOneToOneEXT, VkBool32,
                VK_DYNAMIC_STATE_DEPTH_CLIP_NEGATIVE_ONE_TO_ONE_EXT)
#undef TESSERA_SET_ONE

VKAPI_ATTR void VKAPI_CALL CmdSetStencilOp(VkCommandBuffer cb, VkStencilFaceFlags f,
                                           VkStencilOp fail, VkStencilOp pass,
                                           VkStencilOp depth_fail, VkCompareOp cmp) {
  DeviceData* d = device_of(cb);
  d->vk.CmdSetStencilOp(cb, f, fail, pass, depth_fail, cmp);
  set_state(cb, d, VK_DYNAMIC_STATE_STENCIL_OP,
            {f, static_cast<uint32_t>(fail), static_cast<uint32_t>(pass),
             static_cast<uint32_t>(depth_fail), static_cast<uint32_t>(cmp)});
}

// Colour write enable (VK_EXT_color_write_enable) and the array setters of extended dynamic
// state 3: the words are laid out as CmdSetDynamicStateRecord documents.
VKAPI_ATTR void VKAPI_CALL CmdSetColorWriteEnableEXT(VkCommandBuffer cb, uint32_t n,
                                                     const VkBool32* enables) {
  DeviceData* d = device_of(cb);
  d->vk.CmdSetColorWriteEnableEXT(cb, n, enables);
  set_state(cb, d, VK_DYNAMIC_STATE_COLOR_WRITE_ENABLE_EXT, {enables, enables + n});
}

VKAPI_ATTR void VKAPI_CALL CmdSetSampleMaskEXT(VkCommandBuffer cb, VkSampleCountFlagBits samples,
                                               const VkSampleMask* mask) {
  DeviceData* d = device_of(cb);
  d->vk.CmdSetSampleMaskEXT(cb, samples, mask);
  // ceil(rasterizationSamples / 32) words (vkCmdSetSampleMaskEXT).
  std::vector<uint32_t> words = {static_cast<uint32_t>(samples)};
  for (uint32_t i = 0; i < (static_cast<uint32_t>(samples) + 31) / 32; ++i) words.push_back(mask[i]);
  set_state(cb, d, VK_DYNAMIC_STATE_SAMPLE_MASK_EXT, std::move(words));
}

VKAPI_ATTR void VKAPI_CALL CmdSetColorBlendEnableEXT(VkCommandBuffer cb, uint32_t first,
                                                     uint32_t n, const VkBool32* enables) {
  DeviceData* d = device_of(cb);
  d->vk.CmdSetColorBlendEnableEXT(cb, first, n, enables);
  std::vector<uint32_t> words = {first};
  words.insert(words.end(), enables, enables + n);
  set_state(cb, d, VK_DYNAMIC_STATE_COLOR_BLEND_ENABLE_EXT, std::move(words));
}

VKAPI_ATTR void VKAPI_CALL CmdSetColorWriteMaskEXT(VkCommandBuffer cb, uint32_t first, uint32_t n,
                                                   const VkColorComponentFlags* masks) {
  DeviceData* d = device_of(cb);
  d->vk.CmdSetColorWriteMaskEXT(cb, first, n, masks);
  std::vector<uint32_t> words = {first};
  words.insert(words.end(), masks, masks + n);
  set_state(cb, d, VK_DYNAMIC_STATE_COLOR_WRITE_MASK_EXT, std::move(words));
}

VKAPI_ATTR void VKAPI_CALL CmdSetColorBlendEquationEXT(VkCommandBuffer cb, uint32_t first,
                                                       uint32_t n,
                                                       const VkColorBlendEquationEXT* eq) {
  DeviceData* d = device_of(cb);
  d->vk.CmdSetColorBlendEquationEXT(cb, first, n, eq);
  std::vector<uint32_t> words = {first};
  for (uint32_t i = 0; i < n; ++i) {
    words.insert(words.end(), {static_cast<uint32_t>(eq[i].srcColorBlendFactor),
                               static_cast<uint32_t>(eq[i].dstColorBlendFactor),
                               static_cast<uint32_t>(eq[i].colorBlendOp),
                               static_cast<uint32_t>(eq[i].srcAlphaBlendFactor),
                               static_cast<uint32_t>(eq[i].dstAlphaBlendFactor),
                               static_cast<uint32_t>(eq[i].alphaBlendOp)});
  }
  set_state(cb, d, VK_DYNAMIC_STATE_COLOR_BLEND_EQUATION_EXT, std::move(words));
}

// VK_EXT_vertex_input_dynamic_state: bindings (with their divisors) and attributes replace the
// pipeline's vertex input state for the draws that follow.
VKAPI_ATTR void VKAPI_CALL CmdSetVertexInputEXT(VkCommandBuffer cb, uint32_t nb,
                                                const VkVertexInputBindingDescription2EXT* b,
                                                uint32_t na,
                                                const VkVertexInputAttributeDescription2EXT* a) {
  DeviceData* d = device_of(cb);
  d->vk.CmdSetVertexInputEXT(cb, nb, b, na, a);
  CommandBufferState* s = recording_state(d, cb);
  if (s == nullptr) return;
  cap::CmdSetVertexInputRecord rec;
  for (uint32_t i = 0; i < nb; ++i) {
    rec.bindings.push_back({b[i].binding, b[i].stride, static_cast<uint32_t>(b[i].inputRate),
                            b[i].divisor});
  }
  for (uint32_t i = 0; i < na; ++i) {
    rec.attributes.push_back({a[i].location, a[i].binding, static_cast<uint32_t>(a[i].format),
                              a[i].offset});
  }
  append_command(s, rec);
}

// ---- Clears, copies, barriers ----------------------------------------------------------------

VKAPI_ATTR void VKAPI_CALL CmdClearAttachments(VkCommandBuffer cb, uint32_t na,
                                               const VkClearAttachment* atts, uint32_t nr,
                                               const VkClearRect* rects) {
  DeviceData* d = device_of(cb);
  d->vk.CmdClearAttachments(cb, na, atts, nr, rects);
  CommandBufferState* s = recording_state(d, cb);
  if (s == nullptr) return;
  cap::CmdClearAttachmentsRecord rec;
  for (uint32_t i = 0; i < na; ++i) {
    rec.attachments.push_back({atts[i].aspectMask, atts[i].colorAttachment, clear_of(atts[i].clearValue)});
  }
  for (uint32_t i = 0; i < nr; ++i) {
    rec.rects.push_back({rect_of(rects[i].rect), rects[i].baseArrayLayer, rects[i].layerCount});
  }
  append_command(s, rec);
}

VKAPI_ATTR void VKAPI_CALL CmdClearColorImage(VkCommandBuffer cb, VkImage image,
                                              VkImageLayout layout, const VkClearColorValue* c,
                                              uint32_t n, const VkImageSubresourceRange* ranges) {
  DeviceData* d = device_of(cb);
  d->vk.CmdClearColorImage(cb, image, layout, c, n, ranges);
  CommandBufferState* s = recording_state(d, cb);
  if (s == nullptr) return;
  cap::CmdClearImageRecord rec{id(image), static_cast<uint32_t>(layout), 0, {}, {}};
  std::memcpy(rec.value.words, c, sizeof rec.value.words);
  for (uint32_t i = 0; i < n; ++i) rec.ranges.push_back(range_of(ranges[i]));
  append_command(s, rec);
}

VKAPI_ATTR void VKAPI_CALL CmdClearDepthStencilImage(VkCommandBuffer cb, VkImage image,
                                                     VkImageLayout layout,
                                                     const VkClearDepthStencilValue* v,
                                                     uint32_t n,
                                                     const VkImageSubresourceRange* ranges) {
  DeviceData* d = device_of(cb);
  d->vk.CmdClearDepthStencilImage(cb, image, layout, v, n, ranges);
  CommandBufferState* s = recording_state(d, cb);
  if (s == nullptr) return;
  cap::CmdClearImageRecord rec{id(image), static_cast<uint32_t>(layout), 1, {}, {}};
  rec.value.words[0] = word(v->depth);
  rec.value.words[1] = v->stencil;
  for (uint32_t i = 0; i < n; ++i) rec.ranges.push_back(range_of(ranges[i]));
  append_command(s, rec);
}

namespace {

void set_layers(const VkImageSubresourceLayers& l, uint32_t& aspect, uint32_t& mip,
                uint32_t& base, uint32_t& count) {
  aspect = l.aspectMask;
  mip = l.mipLevel;
  base = l.baseArrayLayer;
  count = l.layerCount;
}

cap::CopyRegion image_region(const VkImageSubresourceLayers& src, VkOffset3D so,
                             const VkImageSubresourceLayers& dst, VkOffset3D dof, VkExtent3D e) {
  cap::CopyRegion r;
  set_layers(src, r.src_aspect, r.src_mip, r.src_base_layer, r.src_layer_count);
  set_layers(dst, r.dst_aspect, r.dst_mip, r.dst_base_layer, r.dst_layer_count);
  r.src_x0 = so.x;
  r.src_y0 = so.y;
  r.src_z0 = so.z;
  r.src_x1 = so.x + static_cast<int32_t>(e.width);
  r.src_y1 = so.y + static_cast<int32_t>(e.height);
  r.src_z1 = so.z + static_cast<int32_t>(e.depth);
  r.dst_x0 = dof.x;
  r.dst_y0 = dof.y;
  r.dst_z0 = dof.z;
  r.dst_x1 = dof.x + static_cast<int32_t>(e.width);
  r.dst_y1 = dof.y + static_cast<int32_t>(e.height);
  r.dst_z1 = dof.z + static_cast<int32_t>(e.depth);
  return r;
}

cap::CopyRegion blit_region(const VkImageSubresourceLayers& src, const VkOffset3D so[2],
                            const VkImageSubresourceLayers& dst, const VkOffset3D dof[2]) {
  cap::CopyRegion r;
  set_layers(src, r.src_aspect, r.src_mip, r.src_base_layer, r.src_layer_count);
  set_layers(dst, r.dst_aspect, r.dst_mip, r.dst_base_layer, r.dst_layer_count);
  r.src_x0 = so[0].x;
  r.src_y0 = so[0].y;
  r.src_z0 = so[0].z;
  r.src_x1 = so[1].x;
  r.src_y1 = so[1].y;
  r.src_z1 = so[1].z;
  r.dst_x0 = dof[0].x;
  r.dst_y0 = dof[0].y;
  r.dst_z0 = dof[0].z;
  r.dst_x1 = dof[1].x;
  r.dst_y1 = dof[1].y;
  r.dst_z1 = dof[1].z;
  return r;
}

// Buffer <-> image: the buffer side is described by offset / row length / image height.
cap::CopyRegion buffer_image_region(const VkBufferImageCopy& c, bool to_image) {
  cap::CopyRegion r;
  const VkOffset3D o = c.imageOffset;
  const VkExtent3D e = c.imageExtent;
  if (to_image) {
    r.src_offset_bytes = c.bufferOffset;
    set_layers(c.imageSubresource, r.dst_aspect, r.dst_mip, r.dst_base_layer, r.dst_layer_count);
    r.dst_x0 = o.x;
    r.dst_y0 = o.y;
    r.dst_z0 = o.z;
    r.dst_x1 = o.x + static_cast<int32_t>(e.width);
    r.dst_y1 = o.y + static_cast<int32_t>(e.height);
    r.dst_z1 = o.z + static_cast<int32_t>(e.depth);
  } else {
    r.dst_offset_bytes = c.bufferOffset;
    set_layers(c.imageSubresource, r.src_aspect, r.src_mip, r.src_base_layer, r.src_layer_count);
    r.src_x0 = o.x;
    r.src_y0 = o.y;
    r.src_z0 = o.z;
    r.src_x1 = o.x + static_cast<int32_t>(e.width);
    r.src_y1 = o.y + static_cast<int32_t>(e.height);
    r.src_z1 = o.z + static_cast<int32_t>(e.depth);
  }
  r.buffer_row_length = c.bufferRowLength;
  r.buffer_image_height = c.bufferImageHeight;
  return r;
}

}  // namespace

VKAPI_ATTR void VKAPI_CALL CmdCopyBuffer(VkCommandBuffer cb, VkBuffer src, VkBuffer dst,
                                         uint32_t n, const VkBufferCopy* regions) {
  DeviceData* d = device_of(cb);
  d->vk.CmdCopyBuffer(cb, src, dst, n, regions);
  CommandBufferState* s = recording_state(d, cb);
  if (s == nullptr) return;
  cap::CmdCopyRecord rec{cap::CmdCopyRecord::kBufferToBuffer, id(src), id(dst), 0, 0, 0, {}};
  for (uint32_t i = 0; i < n; ++i) {
    cap::CopyRegion r;
    r.src_offset_bytes = regions[i].srcOffset;
    r.dst_offset_bytes = regions[i].dstOffset;
    r.size_bytes = regions[i].size;
    rec.regions.push_back(r);
  }
  append_command(s, rec);
}

VKAPI_ATTR void VKAPI_CALL CmdCopyImage(VkCommandBuffer cb, VkImage src, VkImageLayout sl,
                                        VkImage dst, VkImageLayout dl, uint32_t n,
                                        const VkImageCopy* regions) {
  DeviceData* d = device_of(cb);
  d->vk.CmdCopyImage(cb, src, sl, dst, dl, n, regions);
  CommandBufferState* s = recording_state(d, cb);
  if (s == nullptr) return;
  cap::CmdCopyRecord rec{cap::CmdCopyRecord::kImageToImage, id(src), id(dst),
                         static_cast<uint32_t>(sl), static_cast<uint32_t>(dl), 0, {}};
  for (uint32_t i = 0; i < n; ++i) {
    const auto& c = regions[i];
    rec.regions.push_back(image_region(c.srcSubresource, c.srcOffset, c.dstSubresource,
                                       c.dstOffset, c.extent));
  }
  append_command(s, rec);
}

VKAPI_ATTR void VKAPI_CALL CmdCopyBufferToImage(VkCommandBuffer cb, VkBuffer src, VkImage dst,
                                                VkImageLayout dl, uint32_t n,
                                                const VkBufferImageCopy* regions) {
  DeviceData* d = device_of(cb);
  d->vk.CmdCopyBufferToImage(cb, src, dst, dl, n, regions);
  CommandBufferState* s = recording_state(d, cb);
  if (s == nullptr) return;
  cap::CmdCopyRecord rec{cap::CmdCopyRecord::kBufferToImage, id(src), id(dst), 0,
                         static_cast<uint32_t>(dl), 0, {}};
  for (uint32_t i = 0; i < n; ++i) rec.regions.push_back(buffer_image_region(regions[i], true));
  append_command(s, rec);
}

VKAPI_ATTR void VKAPI_CALL CmdCopyImageToBuffer(VkCommandBuffer cb, VkImage src,
                                                VkImageLayout sl, VkBuffer dst, uint32_t n,
                                                const VkBufferImageCopy* regions) {
  DeviceData* d = device_of(cb);
  d->vk.CmdCopyImageToBuffer(cb, src, sl, dst, n, regions);
  CommandBufferState* s = recording_state(d, cb);
  if (s == nullptr) return;
  cap::CmdCopyRecord rec{cap::CmdCopyRecord::kImageToBuffer, id(src), id(dst),
                         static_cast<uint32_t>(sl), 0, 0, {}};
  for (uint32_t i = 0; i < n; ++i) rec.regions.push_back(buffer_image_region(regions[i], false));
  append_command(s, rec);
}

VKAPI_ATTR void VKAPI_CALL CmdBlitImage(VkCommandBuffer cb, VkImage src, VkImageLayout sl,
                                        VkImage dst, VkImageLayout dl, uint32_t n,
                                        const VkImageBlit* regions, VkFilter filter) {
  DeviceData* d = device_of(cb);
  d->vk.CmdBlitImage(cb, src, sl, dst, dl, n, regions, filter);
  CommandBufferState* s = recording_state(d, cb);
  if (s == nullptr) return;
  cap::CmdCopyRecord rec{cap::CmdCopyRecord::kBlit, id(src), id(dst), static_cast<uint32_t>(sl),
                         static_cast<uint32_t>(dl), static_cast<uint32_t>(filter), {}};
  for (uint32_t i = 0; i < n; ++i) {
    const auto& b = regions[i];
    rec.regions.push_back(blit_region(b.srcSubresource, b.srcOffsets, b.dstSubresource,
                                      b.dstOffsets));
  }
  append_command(s, rec);
}

VKAPI_ATTR void VKAPI_CALL CmdResolveImage(VkCommandBuffer cb, VkImage src, VkImageLayout sl,
                                           VkImage dst, VkImageLayout dl, uint32_t n,
                                           const VkImageResolve* regions) {
  DeviceData* d = device_of(cb);
  d->vk.CmdResolveImage(cb, src, sl, dst, dl, n, regions);
  CommandBufferState* s = recording_state(d, cb);
  if (s == nullptr) return;
  cap::CmdCopyRecord rec{cap::CmdCopyRecord::kResolve, id(src), id(dst),
                         static_cast<uint32_t>(sl), static_cast<uint32_t>(dl), 0, {}};
  for (uint32_t i = 0; i < n; ++i) {
    const auto& c = regions[i];
    rec.regions.push_back(image_region(c.srcSubresource, c.srcOffset, c.dstSubresource,
                                       c.dstOffset, c.extent));
  }
  append_command(s, rec);
}

// The *2 forms (core in Vulkan 1.3): same records as the originals.
VKAPI_ATTR void VKAPI_CALL CmdCopyBuffer2(VkCommandBuffer cb, const VkCopyBufferInfo2* info) {
  DeviceData* d = device_of(cb);
  d->vk.CmdCopyBuffer2(cb, info);
  CommandBufferState* s = recording_state(d, cb);
  if (s == nullptr) return;
  cap::CmdCopyRecord rec{cap::CmdCopyRecord::kBufferToBuffer, id(info->srcBuffer),
                         id(info->dstBuffer), 0, 0, 0, {}};
  for (uint32_t i = 0; i < info->regionCount; ++i) {
    cap::CopyRegion r;
    r.src_offset_bytes = info->pRegions[i].srcOffset;
    r.dst_offset_bytes = info->pRegions[i].dstOffset;
    r.size_bytes = info->pRegions[i].size;
    rec.regions.push_back(r);
  }
  append_command(s, rec);
}

VKAPI_ATTR void VKAPI_CALL CmdCopyImage2(VkCommandBuffer cb, const VkCopyImageInfo2* info) {
  DeviceData* d = device_of(cb);
  d->vk.CmdCopyImage2(cb, info);
  CommandBufferState* s = recording_state(d, cb);
  if (s == nullptr) return;
  cap::CmdCopyRecord rec{cap::CmdCopyRecord::kImageToImage, id(info->srcImage), id(info->dstImage),
                         static_cast<uint32_t>(info->srcImageLayout),
                         static_cast<uint32_t>(info->dstImageLayout), 0, {}};
  for (uint32_t i = 0; i < info->regionCount; ++i) {
    const auto& c = info->pRegions[i];
    rec.regions.push_back(image_region(c.srcSubresource, c.srcOffset, c.dstSubresource,
                                       c.dstOffset, c.extent));
  }
  append_command(s, rec);
}

namespace {

VkBufferImageCopy region_v1(const VkBufferImageCopy2& c) {
  return {c.bufferOffset, c.bufferRowLength, c.bufferImageHeight, c.imageSubresource,
          c.imageOffset, c.imageExtent};
}

}  // namespace

VKAPI_ATTR void VKAPI_CALL CmdCopyBufferToImage2(VkCommandBuffer cb,
                                                 const VkCopyBufferToImageInfo2* info) {
  DeviceData* d = device_of(cb);
  d->vk.CmdCopyBufferToImage2(cb, info);
  CommandBufferState* s = recording_state(d, cb);
  if (s == nullptr) return;
  cap::CmdCopyRecord rec{cap::CmdCopyRecord::kBufferToImage, id(info->srcBuffer),
                         id(info->dstImage), 0, static_cast<uint32_t>(info->dstImageLayout), 0,
                         {}};
  for (uint32_t i = 0; i < info->regionCount; ++i) {
    rec.regions.push_back(buffer_image_region(region_v1(info->pRegions[i]), true));
  }
  append_command(s, rec);
}

VKAPI_ATTR void VKAPI_CALL CmdCopyImageToBuffer2(VkCommandBuffer cb,
                                                 const VkCopyImageToBufferInfo2* info) {
  DeviceData* d = device_of(cb);
  d->vk.CmdCopyImageToBuffer2(cb, info);
  CommandBufferState* s = recording_state(d, cb);
  if (s == nullptr) return;
  cap::CmdCopyRecord rec{cap::CmdCopyRecord::kImageToBuffer, id(info->srcImage),
                         id(info->dstBuffer), static_cast<uint32_t>(info->srcImageLayout), 0, 0,
                         {}};
  for (uint32_t i = 0; i < info->regionCount; ++i) {
    rec.regions.push_back(buffer_image_region(region_v1(info->pRegions[i]), false));
  }
  append_command(s, rec);
}

VKAPI_ATTR void VKAPI_CALL CmdBlitImage2(VkCommandBuffer cb, const VkBlitImageInfo2* info) {
  DeviceData* d = device_of(cb);
  d->vk.CmdBlitImage2(cb, info);
  CommandBufferState* s = recording_state(d, cb);
  if (s == nullptr) return;
  cap::CmdCopyRecord rec{cap::CmdCopyRecord::kBlit, id(info->srcImage), id(info->dstImage),
                         static_cast<uint32_t>(info->srcImageLayout),
                         static_cast<uint32_t>(info->dstImageLayout),
                         static_cast<uint32_t>(info->filter), {}};
  for (uint32_t i = 0; i < info->regionCount; ++i) {
    const auto& b = info->pRegions[i];
    rec.regions.push_back(blit_region(b.srcSubresource, b.srcOffsets, b.dstSubresource,
                                      b.dstOffsets));
  }
  append_command(s, rec);
}

VKAPI_ATTR void VKAPI_CALL CmdResolveImage2(VkCommandBuffer cb, const VkResolveImageInfo2* info) {
  DeviceData* d = device_of(cb);
  d->vk.CmdResolveImage2(cb, info);
  CommandBufferState* s = recording_state(d, cb);
  if (s == nullptr) return;
  cap::CmdCopyRecord rec{cap::CmdCopyRecord::kResolve, id(info->srcImage), id(info->dstImage),
                         static_cast<uint32_t>(info->srcImageLayout),
                         static_cast<uint32_t>(info->dstImageLayout), 0, {}};
  for (uint32_t i = 0; i < info->regionCount; ++i) {
    const auto& c = info->pRegions[i];
    rec.regions.push_back(image_region(c.srcSubresource, c.srcOffset, c.dstSubresource,
                                       c.dstOffset, c.extent));
  }
  append_command(s, rec);
}

VKAPI_ATTR void VKAPI_CALL CmdSetLineStippleEXT(VkCommandBuffer cb, uint32_t factor,
                                                uint16_t pattern) {
  DeviceData* d = device_of(cb);
  d->vk.CmdSetLineStippleEXT(cb, factor, pattern);
  set_state(cb, d, VK_DYNAMIC_STATE_LINE_STIPPLE_EXT, {factor, pattern});
}

namespace {

// VK_EXT_transform_feedback is shown because Zink offers OpenGL 3.0 and later only with it (GL
// 3.0 requires transform feedback; without it every GL game under capture gets a 2.1 context).
// What transform feedback writes, and draws whose vertex count it produced, are not recorded:
// an application that uses them gets a warning in the file instead of a silently wrong replay.
void warn_transform_feedback(const char* what) {
  Session* s = Session::get();
  if (s != nullptr && s->recording())
    s->warn_once(std::string("transform-feedback:") + what,
                 std::string(what) + ": transform feedback is not recorded; replay differs where "
                 "later draws read what it wrote");
}

}  // namespace

VKAPI_ATTR void VKAPI_CALL CmdBeginTransformFeedbackEXT(VkCommandBuffer cb, uint32_t first,
                                                        uint32_t count, const VkBuffer* buffers,
                                                        const VkDeviceSize* offsets) {
  device_of(cb)->vk.CmdBeginTransformFeedbackEXT(cb, first, count, buffers, offsets);
  warn_transform_feedback("vkCmdBeginTransformFeedbackEXT");
}

VKAPI_ATTR void VKAPI_CALL CmdDrawIndirectByteCountEXT(VkCommandBuffer cb, uint32_t instances,
                                                       uint32_t first_instance, VkBuffer counter,
                                                       VkDeviceSize counter_offset,
                                                       uint32_t counter_vertex_offset,
                                                       uint32_t vertex_stride) {
  device_of(cb)->vk.CmdDrawIndirectByteCountEXT(cb, instances, first_instance, counter,
                                                counter_offset, counter_vertex_offset,
                                                vertex_stride);
  warn_transform_feedback("vkCmdDrawIndirectByteCountEXT (draw not recorded)");
}

VKAPI_ATTR void VKAPI_CALL CmdUpdateBuffer(VkCommandBuffer cb, VkBuffer b, VkDeviceSize off,
                                           VkDeviceSize size, const void* data) {
  DeviceData* d = device_of(cb);
  d->vk.CmdUpdateBuffer(cb, b, off, size, data);
  CommandBufferState* s = recording_state(d, cb);
  if (s == nullptr) return;
  const auto* p = static_cast<const uint8_t*>(data);
  append_command(s, cap::CmdUpdateBufferRecord{id(b), off, {p, p + size}});
}

VKAPI_ATTR void VKAPI_CALL CmdFillBuffer(VkCommandBuffer cb, VkBuffer b, VkDeviceSize off,
                                         VkDeviceSize size, uint32_t value) {
  DeviceData* d = device_of(cb);
  d->vk.CmdFillBuffer(cb, b, off, size, value);
  record(cb, d, cap::CmdFillBufferRecord{id(b), off, size, value});
}

VKAPI_ATTR void VKAPI_CALL CmdPipelineBarrier(
    VkCommandBuffer cb, VkPipelineStageFlags src, VkPipelineStageFlags dst,
    VkDependencyFlags flags, uint32_t nm, const VkMemoryBarrier* mb, uint32_t nb,
    const VkBufferMemoryBarrier* bb, uint32_t ni, const VkImageMemoryBarrier* ib) {
  DeviceData* d = device_of(cb);
  d->vk.CmdPipelineBarrier(cb, src, dst, flags, nm, mb, nb, bb, ni, ib);
  CommandBufferState* s = recording_state(d, cb);
  if (s == nullptr) return;
  cap::CmdPipelineBarrierRecord rec{src, dst, {}};
  for (uint32_t i = 0; i < ni; ++i) {
    rec.images.push_back({id(ib[i].image), static_cast<uint32_t>(ib[i].oldLayout),
                          static_cast<uint32_t>(ib[i].newLayout), range_of(ib[i].subresourceRange)});
  }
  append_command(s, rec);
}

VKAPI_ATTR void VKAPI_CALL CmdPipelineBarrier2(VkCommandBuffer cb, const VkDependencyInfo* info) {
  DeviceData* d = device_of(cb);
  d->vk.CmdPipelineBarrier2(cb, info);
  CommandBufferState* s = recording_state(d, cb);
  if (s == nullptr) return;
  cap::CmdPipelineBarrierRecord rec;
  for (uint32_t i = 0; i < info->imageMemoryBarrierCount; ++i) {
    const auto& b = info->pImageMemoryBarriers[i];
    rec.src_stages |= b.srcStageMask;
    rec.dst_stages |= b.dstStageMask;
    rec.images.push_back({id(b.image), static_cast<uint32_t>(b.oldLayout),
                          static_cast<uint32_t>(b.newLayout), range_of(b.subresourceRange)});
  }
  append_command(s, rec);
}

VKAPI_ATTR void VKAPI_CALL CmdExecuteCommands(VkCommandBuffer cb, uint32_t n,
                                              const VkCommandBuffer* cbs) {
  DeviceData* d = device_of(cb);
  d->vk.CmdExecuteCommands(cb, n, cbs);
  CommandBufferState* s = recording_state(d, cb);
  if (s == nullptr) return;
  cap::CmdExecuteCommandsRecord rec;
  for (uint32_t i = 0; i < n; ++i) rec.command_buffers.push_back(id(cbs[i]));
  append_command(s, rec);
}

// ---- Submission ------------------------------------------------------------------------------

namespace {

void write_stream(DeviceData* d, Session* s, VkCommandBuffer cb, int depth) {
  std::shared_lock lock(d->cb_mutex);
  auto it = d->command_buffers.find(cb);
  if (it == d->command_buffers.end()) return;
  const CommandBufferState& st = *it->second;
  s->write(cap::CommandBufferRecord{id(cb), st.level, st.count});
  const std::byte* p = st.stream.data();
  const std::byte* end = p + st.stream.size();
  while (p + 8 <= end) {
    uint32_t kind, size;
    std::memcpy(&kind, p, 4);
    std::memcpy(&size, p + 4, 4);
    const std::span<const std::byte> body(p + 8, size);
    s->write_raw(kind, body);
    p += 8 + size;
    // Secondary command buffers execute here: their commands follow inline.
    if (kind == static_cast<uint32_t>(cap::VkRecordKind::kCmdExecuteCommands) && depth == 0) {
      if (auto rec = cap::decode_record<cap::CmdExecuteCommandsRecord>(body)) {
        std::vector<VkCommandBuffer> secondaries;
        for (uint64_t h : rec->command_buffers) {
          secondaries.push_back(reinterpret_cast<VkCommandBuffer>(static_cast<uintptr_t>(h)));
        }
        lock.unlock();
        for (VkCommandBuffer sc : secondaries) write_stream(d, s, sc, depth + 1);
        lock.lock();
      }
    }
  }
}

// Things to do before a submit of a captured frame reaches the driver.
// Returns the submission's render pass instances (note_submitted_passes).
SubmittedPasses before_submit(DeviceData* d, Session* s, VkQueue queue,
                     const std::vector<VkCommandBuffer>& cbs) {
  if (s->take_initial_snapshot()) {
    // Resource contents as they are when the first captured frame starts executing: wait for
    // earlier work on this queue so host-visible memory holds its final values.
    d->vk.QueueWaitIdle(queue);
    snapshot_memory(d, s, true);
    read_back_images(d, s, queue);
  } else {
    snapshot_memory(d, s, false);
  }
  // The Submit record and the instances' numbers in one critical section: another thread's
  // submission can come neither between them nor change their order.
  std::lock_guard lock(d->submit_mutex);
  write_submission(d, s, queue, cbs);
  return note_submitted_passes(d, cbs);
}

// The draws recorded in primary command buffers `cbs` (those of secondaries they execute are not
// counted: enough for a trigger that tells gameplay from a title card).
uint64_t draws_of(DeviceData* d, const std::vector<VkCommandBuffer>& cbs) {
  std::shared_lock lock(d->cb_mutex);
  uint64_t n = 0;
  for (VkCommandBuffer cb : cbs) {
    if (auto it = d->command_buffers.find(cb); it != d->command_buffers.end()) n += it->second->draws;
  }
  return n;
}

// At submit and marker boundaries the layer waits for the frame's work inside the application's
// queue call. A submission may wait on a timeline semaphore the application signals only after
// the call returns (vkSignalSemaphore): waiting for ever would hang it, so the wait is bounded.
constexpr uint64_t kBoundaryWaitNs = 10'000'000'000;

// True once every batch submitted to `queue` so far has completed, within `timeout_ns`: an empty
// submission's fence signals when all earlier work on the queue has (vkQueueSubmit with
// submitCount 0).
bool queue_idle_within(DeviceData* d, VkQueue queue, uint64_t timeout_ns) {
  VkFenceCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
  VkFence fence = VK_NULL_HANDLE;
  if (d->vk.CreateFence(d->device, &info, nullptr, &fence) != VK_SUCCESS) return false;
  if (d->vk.QueueSubmit(queue, 0, nullptr, fence) != VK_SUCCESS) {
    d->vk.DestroyFence(d->device, fence, nullptr);
    return false;
  }
  if (d->vk.WaitForFences(d->device, 1, &fence, VK_TRUE, timeout_ns) == VK_SUCCESS) {
    d->vk.DestroyFence(d->device, fence, nullptr);
    return true;
  }
  // Still pending: it may not be destroyed (VUID-vkDestroyFence-fence-01120); vkDestroyDevice
  // destroys it (release_pass_readbacks).
  std::lock_guard lock(d->pass_mutex);
  d->pending_fences.push_back(fence);
  return false;
}

// A frame that ends on `queue` without a present (FrameBoundary::kSubmit, kMarker): its render
// targets are read back once the queue's work is done, standing for the presented image a
// headless application never has.
void end_frame_on_queue(DeviceData* d, Session* s, VkQueue queue, const char* hook) {
  guarded(hook, [&] {
    if (!s->recording()) return;
    if (s->in_captured_frame()) {
      const uint32_t frame = s->current_frame();
      bool idle = false;
      guarded(hook, [&] {
        idle = queue_idle_within(d, queue, kBoundaryWaitNs);
        if (idle) {
          read_back_images(d, s, queue, true, frame);
        } else {
          s->warn_once("boundary-wait-" + std::to_string(frame),
                       "frame " + std::to_string(frame) + ": the queue did not finish its work within " +
                           std::to_string(kBoundaryWaitNs / 1000000000) +
                           " s (a wait on a semaphore signalled later?): its render targets are not read back");
        }
      });
      // On its own: the frame's render pass state is reset even where the above threw.
      guarded(hook, [&] { write_pass_contents(d, s, frame, idle); });
    }
    s->end_present();
  });
}

// Frames delimited by submissions: the call that carried command buffers ends the frame.
void end_submitted_frame(DeviceData* d, Session* s, VkQueue queue, uint32_t command_buffers) {
  if (s == nullptr || s->boundary() != FrameBoundary::kSubmit || command_buffers == 0) return;
  end_frame_on_queue(d, s, queue, "vkQueueSubmit");
}

// Frames delimited by markers: a call whose submissions carry a VkFrameBoundaryEXT flagging the
// frame's end (VK_FRAME_BOUNDARY_FRAME_END_BIT_EXT) ends the frame once it went down, as the
// debug label does. One call ends one frame, however many of its submissions carry the flag.
template <class SubmitInfo>
bool marks_frame_end(const Session* s, uint32_t n, const SubmitInfo* submits) {
  if (s == nullptr || s->boundary() != FrameBoundary::kMarker) return false;
  for (uint32_t i = 0; i < n; ++i)
    if (ends_frame(submits[i].pNext)) return true;
  return false;
}

// Where the layer offers VK_EXT_frame_boundary itself, its structures stay above the layer.
template <class SubmitInfo>
std::vector<std::unique_ptr<ChainWithout>> without_frame_boundaries(const DeviceData* d, uint32_t n,
                                                                    const SubmitInfo* submits) {
  std::vector<std::unique_ptr<ChainWithout>> chains;
  if (!d->frame_boundary_emulated) return chains;
  for (uint32_t i = 0; i < n; ++i) {
    chains.push_back(std::make_unique<ChainWithout>(&submits[i].pNext, VK_STRUCTURE_TYPE_FRAME_BOUNDARY_EXT));
  }
  return chains;
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL QueueSubmit(VkQueue queue, uint32_t n, const VkSubmitInfo* submits,
                                           VkFence fence) {
  DeviceData* d = device_of(queue);
  Session* s = Session::get();
  const auto boundary = s != nullptr ? s->boundary_lock() : std::unique_lock<std::mutex>();
  SubmittedPasses passes;  // the submission's render pass instances, if read back
  // The submit must reach the driver whatever happens while recording it.
  guarded("vkQueueSubmit", [&] {
    if (s == nullptr || !s->recording()) return;
    std::vector<VkCommandBuffer> cbs;
    for (uint32_t i = 0; i < n; ++i) {
      cbs.insert(cbs.end(), submits[i].pCommandBuffers,
                 submits[i].pCommandBuffers + submits[i].commandBufferCount);
    }
    if (s->in_captured_frame()) passes = before_submit(d, s, queue, cbs);
    track_layouts(d, cbs);
    if (s->counting_draws()) s->add_draws(draws_of(d, cbs));
  });
  const bool marked = marks_frame_end(s, n, submits);
  std::vector<std::unique_ptr<ChainWithout>> chains;
  guarded("vkQueueSubmit", [&] { chains = without_frame_boundaries(d, n, submits); });
  const VkResult r = down(d->vk.QueueSubmit(queue, n, submits, fence));
  chains.clear();
  guarded("vkQueueSubmit", [&] { fence_submitted_passes(d, queue, passes, r == VK_SUCCESS); });
  uint32_t count = 0;
  for (uint32_t i = 0; i < n; ++i) count += submits[i].commandBufferCount;
  if (r == VK_SUCCESS) {
    end_submitted_frame(d, s, queue, count);
    if (marked) end_frame_on_queue(d, s, queue, "vkQueueSubmit");
  }
  return r;
}

VKAPI_ATTR VkResult VKAPI_CALL QueueSubmit2(VkQueue queue, uint32_t n,
                                            const VkSubmitInfo2* submits, VkFence fence) {
  DeviceData* d = device_of(queue);
  Session* s = Session::get();
  const auto boundary = s != nullptr ? s->boundary_lock() : std::unique_lock<std::mutex>();
  SubmittedPasses passes;  // the submission's render pass instances, if read back
  // The submit must reach the driver whatever happens while recording it.
  guarded("vkQueueSubmit2", [&] {
    if (s == nullptr || !s->recording()) return;
    std::vector<VkCommandBuffer> cbs;
    for (uint32_t i = 0; i < n; ++i) {
      for (uint32_t j = 0; j < submits[i].commandBufferInfoCount; ++j) {
        cbs.push_back(submits[i].pCommandBufferInfos[j].commandBuffer);
      }
    }
    if (s->in_captured_frame()) passes = before_submit(d, s, queue, cbs);
    track_layouts(d, cbs);
    if (s->counting_draws()) s->add_draws(draws_of(d, cbs));
  });
  const bool marked = marks_frame_end(s, n, submits);
  std::vector<std::unique_ptr<ChainWithout>> chains;
  guarded("vkQueueSubmit2", [&] { chains = without_frame_boundaries(d, n, submits); });
  const VkResult r = down(d->vk.QueueSubmit2(queue, n, submits, fence));
  chains.clear();
  guarded("vkQueueSubmit2", [&] { fence_submitted_passes(d, queue, passes, r == VK_SUCCESS); });
  uint32_t count = 0;
  for (uint32_t i = 0; i < n; ++i) count += submits[i].commandBufferInfoCount;
  if (r == VK_SUCCESS) {
    end_submitted_frame(d, s, queue, count);
    if (marked) end_frame_on_queue(d, s, queue, "vkQueueSubmit2");
  }
  return r;
}

// Frames delimited by markers: the label kFrameEndLabel ends the frame (after the next layer has
// seen the label, so that the driver's own tools see it in place).
VKAPI_ATTR void VKAPI_CALL QueueInsertDebugUtilsLabelEXT(VkQueue queue, const VkDebugUtilsLabelEXT* label) {
  DeviceData* d = device_of(queue);
  Session* s = Session::get();
  const auto boundary = s != nullptr ? s->boundary_lock() : std::unique_lock<std::mutex>();
  if (d->vk.QueueInsertDebugUtilsLabelEXT != nullptr) d->vk.QueueInsertDebugUtilsLabelEXT(queue, label);
  if (s == nullptr || s->boundary() != FrameBoundary::kMarker || label == nullptr || label->pLabelName == nullptr ||
      std::strcmp(label->pLabelName, kFrameEndLabel) != 0) {
    return;
  }
  end_frame_on_queue(d, s, queue, "vkQueueInsertDebugUtilsLabelEXT");
}

void write_submission(DeviceData* d, Session* s, VkQueue queue,
                      const std::vector<VkCommandBuffer>& cbs) {
  cap::SubmitRecord rec{id(queue), {}};
  for (VkCommandBuffer cb : cbs) rec.command_buffers.push_back(id(cb));
  s->write(rec);
  for (VkCommandBuffer cb : cbs) write_stream(d, s, cb, 0);
}

}  // namespace tessera::layer
