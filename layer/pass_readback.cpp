// Render pass readback (`tessera capture --readback passes`, ReadbackKind::kPasses): each render pass
// instance's attachments as the device left them at the instance's end, for comparing a replay
// pass by pass. After the application's vkCmdEndRenderPass* / vkCmdEndRendering goes down, the
// layer records into the same command buffer, per attachment: a barrier to TRANSFER_SRC_OPTIMAL,
// a copy into a buffer of its own, and a barrier back to the layout the attachment ended in.
// Command buffers are often recorded once and submitted every frame (vkcube), so every one
// recorded while the setting is on gets the copies; a captured frame notes which instances its
// submissions executed, and at the frame's end, once they are done, writes what the buffers hold.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <string>
#include <unordered_map>

#include "layer_state.h"
#include "staging.h"

namespace tessera::layer {

PassReadback::~PassReadback() {
  if (reserved != 0) {
    d->readback_allocations.fetch_sub(1);
    d->readback_bytes.fetch_sub(reserved);
  }
  if (buffer != VK_NULL_HANDLE) d->vk.DestroyBuffer(d->device, buffer, nullptr);
  if (memory != VK_NULL_HANDLE) d->vk.FreeMemory(d->device, memory, nullptr);
}

namespace {

// The session, when it reads passes back and still records.
Session* reading() {
  Session* s = Session::get();
  return s != nullptr && s->recording() && s->read_passes() ? s : nullptr;
}

struct ImageInfo {
  VkImageType type = VK_IMAGE_TYPE_2D;
  VkFormat format = VK_FORMAT_UNDEFINED;
  VkExtent3D extent{};
  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
  bool transfer_src = false;
  bool stencil_transfer_src = false;  // VkImageStencilUsageCreateInfo may leave the stencil aspect without it
};

// An application image or a swapchain's. Caller holds d->mutex.
bool image_info(const DeviceData* d, VkImage image, ImageInfo* out) {
  if (auto it = d->images.find(image); it != d->images.end()) {
    out->type = it->second.type;
    out->format = it->second.format;
    out->extent = it->second.extent;
    out->samples = it->second.samples;
    out->transfer_src = (it->second.usage & VK_IMAGE_USAGE_TRANSFER_SRC_BIT) != 0;
    out->stencil_transfer_src = it->second.stencil_transfer_src;
    return true;
  }
  for (const auto& [swapchain, st] : d->swapchains) {
    if (std::find(st.images.begin(), st.images.end(), image) == st.images.end()) continue;
    out->format = st.format;
    out->extent = {st.extent.width, st.extent.height, 1};
    out->samples = VK_SAMPLE_COUNT_1_BIT;
    out->transfer_src = st.transfer_src;
    return true;
  }
  return false;
}

VkImageAspectFlags format_aspects(VkFormat format) {
  VkImageAspectFlags a = 0;
  for (const CopyAspect& c : copy_aspects(format)) a |= c.aspect;
  return a;
}

// The aspects a layout transition of an image in `layout` names. Without
// separateDepthStencilLayouts a depth/stencil image's barrier names both aspects
// (VUID-VkImageMemoryBarrier-image-03320); a depth-only or stencil-only layout exists only with
// it, and then applies to that aspect alone.
VkImageAspectFlags barrier_aspects(VkImageLayout layout, VkImageAspectFlags all) {
  switch (layout) {
    case VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL:
    case VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_OPTIMAL:
      return all & VK_IMAGE_ASPECT_DEPTH_BIT;
    case VK_IMAGE_LAYOUT_STENCIL_ATTACHMENT_OPTIMAL:
    case VK_IMAGE_LAYOUT_STENCIL_READ_ONLY_OPTIMAL:
      return all & VK_IMAGE_ASPECT_STENCIL_BIT;
    default:
      return all;
  }
}

// Adds the `wanted` aspects of `view`, ending the instance in `layout`, as what attachment
// `attachment` holds (read through its resolve attachment: `resolved`). `own_layout`: the
// depth/stencil image's other aspect ends in another layout (VkAttachmentDescriptionStencilLayout,
// or dynamic rendering's depth and stencil attachments in different layouts), so the barriers
// name the wanted aspect alone: a barrier's oldLayout must be the layout of every aspect it names
// (VUID-VkImageMemoryBarrier-oldLayout-01197), and its way back must restore that aspect's layout
// only. Different layouts per aspect exist only with separateDepthStencilLayouts, which is what
// lets a barrier name one aspect of a depth/stencil image (VUID-VkImageMemoryBarrier-image-03320).
// Caller holds d->mutex.
void add_read(DeviceData* d, Session* s, std::vector<PassAttachmentRead>& reads, VkImageView view,
              VkImageAspectFlags wanted, VkImageLayout layout, uint32_t attachment, uint32_t resolved,
              bool own_layout = false) {
  if (view == VK_NULL_HANDLE || wanted == 0) return;
  auto v = d->views.find(view);
  ImageInfo img;
  if (v == d->views.end() || !image_info(d, v->second.image, &img)) return;
  if (img.samples != VK_SAMPLE_COUNT_1_BIT) return;  // not copyable; the caller resolves first
  const VkImageAspectFlags all = format_aspects(img.format);
  if (all == 0) {
    s->warn_once("pass-readback-format-" + std::to_string(img.format),
                 "render pass contents: attachments in format " + std::to_string(img.format) +
                     " are not read back (a texel size the copy layout does not know)");
    return;
  }
  if (!img.transfer_src) {
    s->warn_once("pass-readback-usage-" + std::to_string(img.format),
                 "render pass contents: attachments in format " + std::to_string(img.format) +
                     " cannot be copied (no transfer-source usage: the format or the swapchain's "
                     "surface does not allow it) and are not read back");
    return;
  }
  const VkImageAspectFlags aspects = all & wanted;
  const VkImageAspectFlags barrier = own_layout ? aspects : barrier_aspects(layout, all);
  if (aspects == 0 || (aspects & barrier) != aspects) return;
  // A stencil aspect whose separate usage (VkImageStencilUsageCreateInfo) lacks TRANSFER_SRC may
  // neither be copied nor be in TRANSFER_SRC_OPTIMAL: neither it nor a depth aspect whose barrier
  // must name it too is read.
  if ((barrier & VK_IMAGE_ASPECT_STENCIL_BIT) != 0 && !img.stencil_transfer_src) {
    s->warn_once("pass-readback-stencil-usage-" + std::to_string(img.format),
                 "render pass contents: depth/stencil attachments in format " + std::to_string(img.format) +
                     " whose separate stencil usage has no transfer-source usage are not read back");
    return;
  }
  const uint32_t mip = v->second.base_mip;
  // A 2D view of a 3D image (VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT, VK_EXT_image_2d_view_of_3d)
  // renders one depth slice, named by the view's baseArrayLayer; the image itself has one layer
  // (Vulkan spec, "Image Views": for 3D images the slices are addressed as layers of the view).
  const bool volume = img.type == VK_IMAGE_TYPE_3D;
  if (volume && v->second.base_layer >= std::max(1u, img.extent.depth >> mip)) return;
  for (PassAttachmentRead& r : reads) {
    // One image subresource is one copy group: a resolve attachment answers for itself and for
    // the attachment it resolves, and a depth/stencil attachment's aspects share a layout.
    if (r.image == v->second.image && r.mip == mip && r.layer == v->second.base_layer &&
        r.layout == layout && r.barrier_aspects == barrier) {
      r.aspects |= aspects;
      const bool known = std::any_of(r.targets.begin(), r.targets.end(), [&](const auto& t) {
        return t.attachment == attachment && t.resolved == resolved;
      });
      if (!known) r.targets.push_back({attachment, resolved});
      return;
    }
  }
  PassAttachmentRead r;
  r.image = v->second.image;
  r.image_format = img.format;
  r.format = v->second.format;
  r.mip = mip;
  r.layer = v->second.base_layer;
  r.volume = volume;
  r.width = std::max(1u, img.extent.width >> mip);
  r.height = std::max(1u, img.extent.height >> mip);
  r.layout = layout;
  r.barrier_aspects = barrier;
  r.aspects = aspects;
  r.targets.push_back({attachment, resolved});
  reads.push_back(std::move(r));
}

template <typename CreateInfo>
void note_attachments(DeviceData* d, const CreateInfo* ci, VkRenderPass rp) {
  if (reading() == nullptr) return;
  std::vector<RenderPassAttachmentState> atts(ci->attachmentCount);
  for (uint32_t i = 0; i < ci->attachmentCount; ++i) {
    const auto& a = ci->pAttachments[i];
    atts[i].format = a.format;
    atts[i].samples = a.samples;
    atts[i].final_layout = a.finalLayout;
    atts[i].stencil_final_layout = a.finalLayout;
    if constexpr (std::is_same_v<CreateInfo, VkRenderPassCreateInfo2>) {
      for (auto* p = static_cast<const VkBaseInStructure*>(a.pNext); p != nullptr; p = p->pNext) {
        if (p->sType == VK_STRUCTURE_TYPE_ATTACHMENT_DESCRIPTION_STENCIL_LAYOUT) {
          atts[i].stencil_final_layout =
              reinterpret_cast<const VkAttachmentDescriptionStencilLayout*>(p)->stencilFinalLayout;
        }
      }
    }
  }
  const auto valid = [&](uint32_t a) { return a != VK_ATTACHMENT_UNUSED && a < atts.size(); };
  for (uint32_t i = 0; i < ci->subpassCount; ++i) {
    const auto& sp = ci->pSubpasses[i];
    // Colour attachment j is resolved into resolve attachment j at the end of the subpass
    // (Vulkan spec, "Render Pass Operations").
    for (uint32_t j = 0; j < sp.colorAttachmentCount && sp.pResolveAttachments != nullptr; ++j) {
      const uint32_t c = sp.pColorAttachments[j].attachment, r = sp.pResolveAttachments[j].attachment;
      if (valid(c) && valid(r)) {
        atts[c].resolve = r;
        atts[c].resolved_aspects = VK_IMAGE_ASPECT_COLOR_BIT;
      }
    }
    if constexpr (std::is_same_v<CreateInfo, VkRenderPassCreateInfo2>) {
      for (auto* p = static_cast<const VkBaseInStructure*>(sp.pNext); p != nullptr; p = p->pNext) {
        if (p->sType != VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_DEPTH_STENCIL_RESOLVE) continue;
        const auto* dsr = reinterpret_cast<const VkSubpassDescriptionDepthStencilResolve*>(p);
        if (sp.pDepthStencilAttachment == nullptr || dsr->pDepthStencilResolveAttachment == nullptr) continue;
        const uint32_t ds = sp.pDepthStencilAttachment->attachment;
        const uint32_t r = dsr->pDepthStencilResolveAttachment->attachment;
        if (!valid(ds) || !valid(r)) continue;
        atts[ds].resolve = r;
        atts[ds].resolved_aspects = (dsr->depthResolveMode != VK_RESOLVE_MODE_NONE ? VK_IMAGE_ASPECT_DEPTH_BIT : 0) |
                                    (dsr->stencilResolveMode != VK_RESOLVE_MODE_NONE ? VK_IMAGE_ASPECT_STENCIL_BIT : 0);
      }
    }
  }
  std::lock_guard lock(d->mutex);
  d->pass_attachments[rp] = std::move(atts);
}

// A dynamic rendering attachment's aspects `wanted` as attachment `index`: its view, or through
// its resolve view when multisampled. Caller holds d->mutex.
void add_rendering_attachment(DeviceData* d, Session* s, std::vector<PassAttachmentRead>& reads,
                              const VkRenderingAttachmentInfo& a, VkImageAspectFlags wanted, uint32_t index,
                              bool own_layout = false) {
  if (a.imageView == VK_NULL_HANDLE) return;
  ImageInfo img;
  auto v = d->views.find(a.imageView);
  if (v == d->views.end() || !image_info(d, v->second.image, &img)) return;
  if (img.samples == VK_SAMPLE_COUNT_1_BIT) {
    add_read(d, s, reads, a.imageView, wanted, a.imageLayout, index, 0, own_layout);
  } else if (a.resolveMode != VK_RESOLVE_MODE_NONE && a.resolveImageView != VK_NULL_HANDLE) {
    add_read(d, s, reads, a.resolveImageView, wanted, a.resolveImageLayout, index, 1, own_layout);
  }
}

}  // namespace

void note_render_pass_attachments(DeviceData* d, const VkRenderPassCreateInfo* ci, VkRenderPass rp) {
  note_attachments(d, ci, rp);
}

void note_render_pass_attachments(DeviceData* d, const VkRenderPassCreateInfo2* ci, VkRenderPass rp) {
  note_attachments(d, ci, rp);
}

void begin_pass_readback(DeviceData* d, VkCommandBuffer cb, const VkRenderPassBeginInfo* begin) {
  Session* s = reading();
  if (s == nullptr) return;
  CommandBufferState* st = recording_state(d, cb);
  if (st == nullptr) return;
  st->open_pass.clear();
  std::vector<VkImageView> views;
  for (auto* p = static_cast<const VkBaseInStructure*>(begin->pNext); p != nullptr; p = p->pNext) {
    if (p->sType == VK_STRUCTURE_TYPE_RENDER_PASS_ATTACHMENT_BEGIN_INFO) {
      const auto* a = reinterpret_cast<const VkRenderPassAttachmentBeginInfo*>(p);
      views.assign(a->pAttachments, a->pAttachments + a->attachmentCount);
    }
  }
  std::lock_guard lock(d->mutex);
  if (views.empty()) {
    if (auto fb = d->framebuffer_views.find(begin->framebuffer); fb != d->framebuffer_views.end()) views = fb->second;
  }
  auto rp = d->pass_attachments.find(begin->renderPass);
  if (rp == d->pass_attachments.end()) return;
  const auto& atts = rp->second;
  for (uint32_t i = 0; i < atts.size() && i < views.size(); ++i) {
    const RenderPassAttachmentState& a = atts[i];
    // A multisampled attachment cannot be copied (vkCmdCopyImageToBuffer needs one sample):
    // what its resolve attachment received stands for it.
    const bool through_resolve = a.samples != VK_SAMPLE_COUNT_1_BIT;
    if (through_resolve && (a.resolve == VK_ATTACHMENT_UNUSED || a.resolve >= views.size())) continue;
    const RenderPassAttachmentState& src = through_resolve ? atts[a.resolve] : a;
    const VkImageView view = views[through_resolve ? a.resolve : i];
    const VkImageAspectFlags wanted = through_resolve ? a.resolved_aspects : ~VkImageAspectFlags{0};
    const uint32_t resolved = through_resolve ? 1 : 0;
    const bool own = src.final_layout != src.stencil_final_layout;
    add_read(d, s, st->open_pass, view, wanted & ~VkImageAspectFlags{VK_IMAGE_ASPECT_STENCIL_BIT},
             src.final_layout, i, resolved, own);
    add_read(d, s, st->open_pass, view, wanted & VK_IMAGE_ASPECT_STENCIL_BIT, src.stencil_final_layout, i,
             resolved, own);
  }
}

void begin_pass_readback(DeviceData* d, VkCommandBuffer cb, const VkRenderingInfo* info) {
  Session* s = reading();
  if (s == nullptr) return;
  CommandBufferState* st = recording_state(d, cb);
  if (st == nullptr) return;
  st->open_pass.clear();
  std::lock_guard lock(d->mutex);
  // Dynamic rendering has no final layouts: attachments stay in the layout they rendered in
  // (Vulkan spec, "Dynamic Render Pass Instances"). Colour attachment i is attachment i, the
  // depth/stencil attachment is colorAttachmentCount (RenderPassContentsRecord).
  for (uint32_t i = 0; i < info->colorAttachmentCount; ++i) {
    add_rendering_attachment(d, s, st->open_pass, info->pColorAttachments[i], VK_IMAGE_ASPECT_COLOR_BIT, i);
  }
  // The depth and stencil attachments name one view when both are set
  // (VUID-VkRenderingInfo-pDepthAttachment-06085); with separateDepthStencilLayouts their layouts
  // may differ, and then each aspect is transitioned from and back to its own.
  const VkRenderingAttachmentInfo* depth = info->pDepthAttachment;
  const VkRenderingAttachmentInfo* stencil = info->pStencilAttachment;
  const bool own = depth != nullptr && stencil != nullptr && depth->imageView != VK_NULL_HANDLE &&
                   stencil->imageView != VK_NULL_HANDLE &&
                   (depth->imageLayout != stencil->imageLayout || depth->resolveImageLayout != stencil->resolveImageLayout);
  if (depth != nullptr) {
    add_rendering_attachment(d, s, st->open_pass, *depth, VK_IMAGE_ASPECT_DEPTH_BIT, info->colorAttachmentCount, own);
  }
  if (stencil != nullptr) {
    add_rendering_attachment(d, s, st->open_pass, *stencil, VK_IMAGE_ASPECT_STENCIL_BIT, info->colorAttachmentCount,
                             own);
  }
}

void end_pass_readback(DeviceData* d, VkCommandBuffer cb, bool suspending) {
  Session* s = reading();
  if (s == nullptr) return;
  CommandBufferState* st = recording_state(d, cb);
  if (st == nullptr) return;
  // One entry per instance ended, read or not: the nth vkCmdEnd* of the stream is entry n.
  st->passes.emplace_back();
  std::vector<PassAttachmentRead> reads;
  reads.swap(st->open_pass);
  // Between a suspending vkCmdEndRendering and the resuming vkCmdBeginRendering no command may
  // be recorded (Vulkan spec, "Dynamic Render Pass Instances"): the instance is read at its
  // last, non-suspending end, whose begin names the same attachments.
  if (suspending || reads.empty()) return;
  // Two pending executions of a simultaneous-use command buffer would write one readback buffer
  // unordered with each other (Vulkan spec, "Command Buffer Lifecycle": such a buffer may be
  // pending more than once): its instances are not read.
  if (st->simultaneous) {
    s->warn_once("pass-readback-simultaneous",
                 "render pass contents: render pass instances of command buffers begun with "
                 "VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT are not read back");
    return;
  }

  auto rb = std::make_shared<PassReadback>(d);
  VkDeviceSize total = 0;
  for (const PassAttachmentRead& r : reads) {
    for (const CopyAspect& a : copy_aspects(r.image_format)) {
      if ((r.aspects & a.aspect) == 0) continue;
      // bufferOffset a multiple of 4 and of the texel block size (VUID-vkCmdCopyImageToBuffer-
      // bufferOffset-01558, -01559): 16 covers every block size copy_aspects gives.
      total = (total + 15) & ~VkDeviceSize{15};
      const VkDeviceSize size = aspect_bytes(a, r.width, r.height, 1);
      rb->copies.push_back({r, a.aspect, total, size});
      total += size;
    }
  }
  if (rb->copies.empty()) return;
  const VkDevice dev = d->device;
  auto& vk = d->vk;
  VkBufferCreateInfo bci{};
  bci.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  bci.size = total;
  bci.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  bci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  bool ok = vk.CreateBuffer(dev, &bci, nullptr, &rb->buffer) == VK_SUCCESS;
  if (ok) {
    VkMemoryRequirements req{};
    vk.GetBufferMemoryRequirements(dev, rb->buffer, &req);
    const uint32_t type = find_memory_type(d->memory_properties, req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT,
                                           VK_MEMORY_PROPERTY_HOST_CACHED_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    ok = type != UINT32_MAX;
    // Within the layer's share of the device's allocations (DeviceData::readback_allocations).
    const uint32_t count = d->readback_allocations.fetch_add(1) + 1;
    const VkDeviceSize bytes = d->readback_bytes.fetch_add(req.size) + req.size;
    rb->reserved = req.size;
    if (ok && (count > d->max_readback_allocations || bytes > kPassReadbackBytes)) {
      s->warn_once("pass-readback-cap", "render pass contents: the layer's readback buffers reached their cap (" +
                                            std::to_string(d->max_readback_allocations) + " allocations, " +
                                            std::to_string(kPassReadbackBytes >> 20) +
                                            " MiB): some render pass instances are not read back");
      return;  // rb gives the reservation and the buffer back
    }
    if (ok) {
      rb->coherent = (d->memory_properties.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) != 0;
      VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, req.size, type};
      ok = vk.AllocateMemory(dev, &mai, nullptr, &rb->memory) == VK_SUCCESS &&
           vk.BindBufferMemory(dev, rb->buffer, rb->memory, 0) == VK_SUCCESS;
    }
  }
  if (!ok) {
    // Never fail the application: this instance is not read back (rb frees what was made).
    s->warn_once("pass-readback-memory", "render pass contents: out of memory for a readback buffer (" +
                                             std::to_string(total) + " bytes): some render pass instances are not read back");
    return;
  }

  // Attachment writes -> transfer read. The store operations, resolves and the final layout
  // transition of the instance are done by the time the instance's commands are, and the
  // barrier's first scope is every earlier command at every stage (ALL_COMMANDS); the writes
  // are those of the store and resolve operations (COLOR_ATTACHMENT_WRITE,
  // DEPTH_STENCIL_ATTACHMENT_WRITE: Vulkan spec, "Render Pass Load/Store Operations" and
  // "Render Pass Multisample Resolve Operations"), made available here and visible to the copy.
  std::vector<VkImageMemoryBarrier> to_src, back;
  for (const PassAttachmentRead& r : reads) {
    // A 3D image has one array layer: its barrier names layer 0, all the mip's depth slices
    // (VUID-vkCmdCopyImageToBuffer-baseArrayLayer-00213 for the copy likewise).
    const VkImageSubresourceRange range{r.barrier_aspects, r.mip, 1, r.volume ? 0 : r.layer, 1};
    // Two slices of one 3D image read in the same instance share that barrier: one transition.
    const bool twice = std::any_of(to_src.begin(), to_src.end(), [&](const VkImageMemoryBarrier& b) {
      return b.image == r.image && b.subresourceRange.aspectMask == range.aspectMask &&
             b.subresourceRange.baseMipLevel == range.baseMipLevel &&
             b.subresourceRange.baseArrayLayer == range.baseArrayLayer;
    });
    if (twice) continue;
    to_src.push_back(layout_barrier(r.image, range, r.layout, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                    VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
                                    VK_ACCESS_TRANSFER_READ_BIT));
    // Back to the layout the instance left: every later command waits for the copy's read
    // (a write-after-read hazard needs only the execution dependency) and sees the transition
    // and the attachment's contents (MEMORY_READ | MEMORY_WRITE at ALL_COMMANDS). Layout
    // transitions run in submission order with the application's own later ones (Vulkan spec,
    // "Image Layout Transitions"), so those start from the restored layout.
    back.push_back(layout_barrier(r.image, range, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, r.layout, 0,
                                  VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT));
  }
  vk.CmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                        nullptr, static_cast<uint32_t>(to_src.size()), to_src.data());
  for (const PassReadback::Copy& c : rb->copies) {
    VkBufferImageCopy region{};
    region.bufferOffset = c.offset;  // bufferRowLength 0: rows tightly packed
    // A 3D image's slice is a z offset of its only layer (Vulkan spec, "Copying Data Between
    // Buffers and Images").
    region.imageSubresource = {c.aspect, c.read.mip, c.read.volume ? 0 : c.read.layer, 1};
    region.imageOffset = {0, 0, c.read.volume ? static_cast<int32_t>(c.read.layer) : 0};
    region.imageExtent = {c.read.width, c.read.height, 1};
    vk.CmdCopyImageToBuffer(cb, c.read.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, rb->buffer, 1, &region);
  }
  // The copy's writes made available to the host (read after the frame's fence wait, Vulkan
  // spec "Host Access to Device Memory Objects").
  const VkBufferMemoryBarrier to_host = host_read_barrier(rb->buffer);
  vk.CmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT | VK_PIPELINE_STAGE_HOST_BIT,
                        0, 0, nullptr, 1, &to_host, static_cast<uint32_t>(back.size()), back.data());
  st->passes.back() = std::move(rb);
}

namespace {

bool ends_instance(uint32_t kind) {
  return kind == static_cast<uint32_t>(cap::VkRecordKind::kCmdEndRenderPass) ||
         kind == static_cast<uint32_t>(cap::VkRecordKind::kCmdEndRendering);
}

// The instances `cb` executes, in order, with its secondaries' in place (one level, as
// write_stream writes them and replay walks them).
void walk_passes(DeviceData* d, VkCommandBuffer cb, int depth, std::vector<FramePass>& out) {
  std::shared_lock lock(d->cb_mutex);
  auto it = d->command_buffers.find(cb);
  if (it == d->command_buffers.end()) return;
  const CommandBufferState& st = *it->second;
  size_t ended = 0;
  for (size_t pos = 0; pos + 8 <= st.stream.size();) {
    uint32_t kind, size;
    std::memcpy(&kind, st.stream.data() + pos, 4);
    std::memcpy(&size, st.stream.data() + pos + 4, 4);
    const std::span<const std::byte> body(st.stream.data() + pos + 8, size);
    pos += 8 + size;
    if (ends_instance(kind)) {
      FramePass p;
      p.command_buffer = id(cb);
      if (ended < st.passes.size()) p.readback = st.passes[ended];
      ++ended;
      out.push_back(std::move(p));
    } else if (kind == static_cast<uint32_t>(cap::VkRecordKind::kCmdExecuteCommands) && depth == 0) {
      if (auto rec = cap::decode_record<cap::CmdExecuteCommandsRecord>(body)) {
        // The application does not record `cb` while it is submitted (Vulkan spec,
        // "Threading"): its stream stays put while the map's lock is let go.
        lock.unlock();
        for (uint64_t h : rec->command_buffers) {
          walk_passes(d, reinterpret_cast<VkCommandBuffer>(static_cast<uintptr_t>(h)), depth + 1, out);
        }
        lock.lock();
      }
    }
  }
}

constexpr uint64_t kFrameWaitNs = 10'000'000'000;  // as the layer's wait at submit boundaries

}  // namespace

SubmittedPasses note_submitted_passes(DeviceData* d, const std::vector<VkCommandBuffer>& cbs) {
  Session* s = reading();
  if (s == nullptr) return {};
  std::vector<FramePass> found;
  for (VkCommandBuffer cb : cbs) walk_passes(d, cb, 0, found);
  std::lock_guard lock(d->pass_mutex);
  SubmittedPasses r{d->frame_generation, d->frame_passes.size(), found.size()};
  for (FramePass& p : found) {
    p.pass = d->frame_pass_count++;
    d->frame_passes.push_back(std::move(p));
  }
  return r;
}

void fence_submitted_passes(DeviceData* d, VkQueue queue, const SubmittedPasses& passes, bool ok) {
  if (passes.count == 0) return;  // the submission ran no instance (or nothing is read back)
  {
    std::lock_guard lock(d->pass_mutex);
    // The frame ended (another thread's present) before this submission went down: its
    // entries were forgotten unfenced, and those now there are the next frame's.
    if (passes.generation != d->frame_generation) return;
  }
  // An empty submission's fence signals once all earlier work on the queue is done (vkQueueSubmit
  // with submitCount 0): the frame's end waits for it, whichever queue ends the frame.
  VkFence fence = VK_NULL_HANDLE;
  if (ok) {
    VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO, nullptr, 0};
    if (d->vk.CreateFence(d->device, &fci, nullptr, &fence) != VK_SUCCESS) {
      fence = VK_NULL_HANDLE;
    } else if (d->vk.QueueSubmit(queue, 0, nullptr, fence) != VK_SUCCESS) {
      d->vk.DestroyFence(d->device, fence, nullptr);
      fence = VK_NULL_HANDLE;
    }
  }
  std::lock_guard lock(d->pass_mutex);
  if (fence == VK_NULL_HANDLE) return;  // never executed (the submit failed) or cannot be waited for
  if (passes.generation != d->frame_generation) {
    d->pending_fences.push_back(fence);  // the frame ended meanwhile: vkDestroyDevice destroys it
    return;
  }
  const size_t index = d->frame_fences.size();
  d->frame_fences.push_back(fence);
  // Exactly this submission's entries: another thread's submission has its own range and fence.
  for (size_t i = passes.first; i < passes.first + passes.count && i < d->frame_passes.size(); ++i) {
    d->frame_passes[i].fence = index;
  }
}

void write_pass_contents(DeviceData* d, Session* s, uint32_t present, bool waited) {
  // The frame's instances are forgotten first, whatever follows: the next frame numbers its own
  // from 0 and fences its own submissions only.
  std::vector<FramePass> passes;
  std::vector<VkFence> fences;
  {
    std::lock_guard lock(d->pass_mutex);
    passes.swap(d->frame_passes);
    fences.swap(d->frame_fences);
    d->frame_pass_count = 0;
    ++d->frame_generation;
  }
  // Wait for every submission of the frame, within one bound: a submission may wait on a
  // semaphore the application signals later. A frame whose end did not wait for its work only
  // collects what is done already.
  std::vector<bool> done(fences.size(), false);
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::nanoseconds(waited ? kFrameWaitNs : uint64_t{0});
  for (size_t i = 0; i < fences.size(); ++i) {
    const auto left = std::chrono::duration_cast<std::chrono::nanoseconds>(deadline - std::chrono::steady_clock::now());
    const uint64_t timeout = left.count() > 0 ? static_cast<uint64_t>(left.count()) : 0;
    done[i] = d->vk.WaitForFences(d->device, 1, &fences[i], VK_TRUE, timeout) == VK_SUCCESS;
    if (done[i]) d->vk.DestroyFence(d->device, fences[i], nullptr);
  }
  {
    // Still pending: kept with the buffers their submissions write until vkDestroyDevice.
    std::lock_guard lock(d->pass_mutex);
    for (size_t i = 0; i < fences.size(); ++i) {
      if (!done[i]) d->pending_fences.push_back(fences[i]);
    }
    for (const FramePass& p : passes) {
      if (p.readback && p.fence != SIZE_MAX && !done[p.fence]) d->pending_readbacks.push_back(p.readback);
    }
  }
  if (!waited || !s->read_passes()) {
    if (!passes.empty()) {
      s->warn_once("pass-readback-aborted-" + std::to_string(present),
                   "frame " + std::to_string(present) +
                       ": render pass contents are not written (the frame's end did not wait for its work)");
    }
    return;
  }
  // A command buffer executed more than once in the frame holds its last execution's copies.
  std::unordered_map<const PassReadback*, size_t> last;
  for (size_t i = 0; i < passes.size(); ++i) {
    if (passes[i].readback && passes[i].fence != SIZE_MAX) last[passes[i].readback.get()] = i;
  }
  std::string lost, unfinished;
  for (size_t i = 0; i < passes.size(); ++i) {
    const FramePass& p = passes[i];
    PassReadback* rb = p.readback.get();
    if (rb == nullptr || p.fence == SIZE_MAX) continue;
    if (!done[p.fence]) {
      unfinished += (unfinished.empty() ? "" : ", ") + std::to_string(p.pass);
      continue;
    }
    if (last[rb] != i) {
      lost += (lost.empty() ? "" : ", ") + std::to_string(p.pass);
      continue;
    }
    void* data = nullptr;
    if (d->vk.MapMemory(d->device, rb->memory, 0, VK_WHOLE_SIZE, 0, &data) != VK_SUCCESS) {
      s->warn_once("pass-readback-map", "render pass contents: a readback buffer could not be mapped");
      continue;
    }
    if (!rb->coherent) {
      VkMappedMemoryRange mr{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE, nullptr, rb->memory, 0, VK_WHOLE_SIZE};
      d->vk.InvalidateMappedMemoryRanges(d->device, 1, &mr);
    }
    guarded("render pass readback", [&] {
      for (const PassReadback::Copy& c : rb->copies) {
        const auto hash = s->put_blob({static_cast<const std::byte*>(data) + c.offset, static_cast<size_t>(c.size)});
        for (const auto& t : c.read.targets) {
          cap::RenderPassContentsRecord rec;
          rec.present = present;
          rec.pass = p.pass;
          rec.attachment = t.attachment;
          rec.resolved = t.resolved;
          rec.image = id(c.read.image);
          rec.format = static_cast<uint32_t>(c.read.format);
          rec.width = c.read.width;
          rec.height = c.read.height;
          rec.mip = c.read.mip;
          rec.layer = c.read.layer;
          rec.aspect = static_cast<uint32_t>(c.aspect);
          rec.layout = static_cast<uint32_t>(c.read.layout);
          rec.contents = hash;
          s->write(rec);
        }
      }
    });
    d->vk.UnmapMemory(d->device, rb->memory);
  }
  if (!lost.empty()) {
    s->warn_once("pass-readback-lost-" + std::to_string(present),
                 "frame " + std::to_string(present) + ": render pass instances " + lost +
                     " are not read back: their command buffer ran again later in the frame, and its "
                     "copies hold the last run only");
  }
  if (!unfinished.empty()) {
    s->warn_once("pass-readback-wait-" + std::to_string(present),
                 "frame " + std::to_string(present) + ": render pass instances " + unfinished +
                     " are not read back: their submission did not finish within " +
                     std::to_string(kFrameWaitNs / 1000000000) + " s");
  }
}

void release_pass_readbacks(DeviceData* d) {
  {
    std::lock_guard lock(d->pass_mutex);
    d->frame_passes.clear();
    // The application waited for the device's work before destroying it (VUID-vkDestroyDevice-
    // device-00378), so these have signalled.
    for (VkFence f : d->frame_fences) d->vk.DestroyFence(d->device, f, nullptr);
    d->frame_fences.clear();
    for (VkFence f : d->pending_fences) d->vk.DestroyFence(d->device, f, nullptr);
    d->pending_fences.clear();
    d->pending_readbacks.clear();  // their buffers and memory, unless a command buffer holds one
  }
  std::unique_lock lock(d->cb_mutex);
  for (auto& [cb, st] : d->command_buffers) {
    st->open_pass.clear();
    st->passes.clear();
  }
}

}  // namespace tessera::layer
