// Image contents at the start of the first captured frame, read through staging copies (the
// memory of an optimally tiled image has a driver-private layout, so mapping it is not enough),
// and the layout tracking those copies need: the layout of every image after each submit.
#include <algorithm>
#include <cstring>

#include "layer_state.h"

namespace tessera::layer {

namespace {

// Bytes per texel of the uncompressed colour formats read back; 0 for the rest (compressed,
// depth/stencil, multi-planar), which are left to replay to regenerate and noted once.
uint32_t texel_bytes(VkFormat f) {
  switch (f) {
    case VK_FORMAT_R8_UNORM: case VK_FORMAT_R8_SNORM: case VK_FORMAT_R8_UINT:
    case VK_FORMAT_R8_SINT: case VK_FORMAT_R8_SRGB:
      return 1;
    case VK_FORMAT_R8G8_UNORM: case VK_FORMAT_R8G8_SNORM: case VK_FORMAT_R8G8_UINT:
    case VK_FORMAT_R8G8_SINT: case VK_FORMAT_R16_UNORM: case VK_FORMAT_R16_SNORM:
    case VK_FORMAT_R16_UINT: case VK_FORMAT_R16_SINT: case VK_FORMAT_R16_SFLOAT:
    case VK_FORMAT_R5G6B5_UNORM_PACK16: case VK_FORMAT_B5G6R5_UNORM_PACK16:
    case VK_FORMAT_R4G4B4A4_UNORM_PACK16: case VK_FORMAT_B4G4R4A4_UNORM_PACK16:
    case VK_FORMAT_A1R5G5B5_UNORM_PACK16: case VK_FORMAT_R5G5B5A1_UNORM_PACK16:
    case VK_FORMAT_B5G5R5A1_UNORM_PACK16:
      return 2;
    case VK_FORMAT_R8G8B8A8_UNORM: case VK_FORMAT_R8G8B8A8_SNORM: case VK_FORMAT_R8G8B8A8_UINT:
    case VK_FORMAT_R8G8B8A8_SINT: case VK_FORMAT_R8G8B8A8_SRGB: case VK_FORMAT_B8G8R8A8_UNORM:
    case VK_FORMAT_B8G8R8A8_SRGB: case VK_FORMAT_A8B8G8R8_UNORM_PACK32:
    case VK_FORMAT_A8B8G8R8_SRGB_PACK32: case VK_FORMAT_A2B10G10R10_UNORM_PACK32:
    case VK_FORMAT_A2R10G10B10_UNORM_PACK32: case VK_FORMAT_R16G16_UNORM:
    case VK_FORMAT_R16G16_SFLOAT: case VK_FORMAT_R16G16_UINT: case VK_FORMAT_R16G16_SINT:
    case VK_FORMAT_R32_UINT: case VK_FORMAT_R32_SINT: case VK_FORMAT_R32_SFLOAT:
    case VK_FORMAT_B10G11R11_UFLOAT_PACK32: case VK_FORMAT_E5B9G9R9_UFLOAT_PACK32:
      return 4;
    case VK_FORMAT_R16G16B16A16_UNORM: case VK_FORMAT_R16G16B16A16_SNORM:
    case VK_FORMAT_R16G16B16A16_UINT: case VK_FORMAT_R16G16B16A16_SINT:
    case VK_FORMAT_R16G16B16A16_SFLOAT: case VK_FORMAT_R32G32_UINT: case VK_FORMAT_R32G32_SINT:
    case VK_FORMAT_R32G32_SFLOAT:
      return 8;
    case VK_FORMAT_R32G32B32A32_UINT: case VK_FORMAT_R32G32B32A32_SINT:
    case VK_FORMAT_R32G32B32A32_SFLOAT:
      return 16;
    default:
      return 0;
  }
}

uint32_t mip_dim(uint32_t d, uint32_t mip) { return std::max(1u, d >> mip); }

void set_layout(DeviceData* d, VkImage image, VkImageLayout layout) {
  if (auto it = d->images.find(image); it != d->images.end()) it->second.layout = layout;
}

// Applies the layout changes of one command buffer's stream (and its secondaries).
void track_stream(DeviceData* d, VkCommandBuffer cb, int depth) {
  std::vector<VkCommandBuffer> secondaries;
  {
    std::shared_lock cb_lock(d->cb_mutex);
    auto it = d->command_buffers.find(cb);
    if (it == d->command_buffers.end()) return;
    const auto& stream = it->second->stream;
    std::lock_guard lock(d->mutex);
    for (size_t pos = 0; pos + 8 <= stream.size();) {
      uint32_t kind, size;
      std::memcpy(&kind, stream.data() + pos, 4);
      std::memcpy(&size, stream.data() + pos + 4, 4);
      const std::span<const std::byte> body(stream.data() + pos + 8, size);
      pos += 8 + size;
      switch (static_cast<cap::VkRecordKind>(kind)) {
        case cap::VkRecordKind::kCmdPipelineBarrier:
          if (auto b = cap::decode_record<cap::CmdPipelineBarrierRecord>(body)) {
            for (const auto& ib : b->images) {
              set_layout(d, reinterpret_cast<VkImage>(ib.image),
                         static_cast<VkImageLayout>(ib.new_layout));
            }
          }
          break;
        case cap::VkRecordKind::kCmdBeginRenderPass:
          // Attachments end the render pass in their final layouts.
          if (auto rp = cap::decode_record<cap::CmdBeginRenderPassRecord>(body)) {
            auto finals = d->final_layouts.find(reinterpret_cast<VkRenderPass>(rp->render_pass));
            if (finals == d->final_layouts.end()) break;
            std::vector<VkImageView> views;
            for (uint64_t v : rp->attachments) views.push_back(reinterpret_cast<VkImageView>(v));
            if (views.empty()) {
              auto fb = d->framebuffer_views.find(reinterpret_cast<VkFramebuffer>(rp->framebuffer));
              if (fb != d->framebuffer_views.end()) views = fb->second;
            }
            for (size_t i = 0; i < views.size() && i < finals->second.size(); ++i) {
              auto img = d->view_images.find(views[i]);
              if (img != d->view_images.end()) set_layout(d, img->second, finals->second[i]);
            }
          }
          break;
        case cap::VkRecordKind::kCmdExecuteCommands:
          if (auto ex = cap::decode_record<cap::CmdExecuteCommandsRecord>(body)) {
            for (uint64_t h : ex->command_buffers) {
              secondaries.push_back(reinterpret_cast<VkCommandBuffer>(static_cast<uintptr_t>(h)));
            }
          }
          break;
        default:
          break;
      }
    }
  }
  if (depth == 0) {
    for (VkCommandBuffer sc : secondaries) track_stream(d, sc, 1);
  }
}

struct Pending {
  VkImage image = VK_NULL_HANDLE;
  ImageState state;
  uint32_t texel = 0;
  cap::ImageRecord rec;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkDeviceSize bytes = 0;
};

uint32_t host_memory_type(const VkPhysicalDeviceMemoryProperties& mp, uint32_t bits) {
  constexpr VkMemoryPropertyFlags want =
      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  for (uint32_t i = 0; i < mp.memoryTypeCount; ++i) {
    if ((bits & (1u << i)) != 0 && (mp.memoryTypes[i].propertyFlags & want) == want) return i;
  }
  return UINT32_MAX;
}

}  // namespace

void track_layouts(DeviceData* d, const std::vector<VkCommandBuffer>& cbs) {
  for (VkCommandBuffer cb : cbs) track_stream(d, cb, 0);
}

void read_back_images(DeviceData* d, Session* s, VkQueue queue, bool final_targets,
                      uint32_t present) {
  VkDevice dev = d->device;
  auto& vk = d->vk;
  std::vector<Pending> work;
  uint32_t family = 0;
  {
    std::lock_guard lock(d->mutex);
    if (auto it = d->queue_families_of.find(queue); it != d->queue_families_of.end()) {
      family = it->second;
    }
    for (const auto& [image, st] : d->images) {
      // What a draw can read: sampled, storage and input-attachment images. Render targets are
      // regenerated by replay.
      const VkImageUsageFlags readable =
          final_targets ? VkImageUsageFlags{VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT}
                        : VkImageUsageFlags{VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT |
                                            VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT};
      if (!st.bound || (st.usage & readable) == 0 ||
          (st.usage & VK_IMAGE_USAGE_TRANSFER_SRC_BIT) == 0 || st.samples != VK_SAMPLE_COUNT_1_BIT) {
        continue;
      }
      // UNDEFINED: no defined contents. PREINITIALIZED: host-written linear image, whose bytes
      // the memory snapshot holds; it cannot be returned to PREINITIALIZED after a copy.
      if (st.layout == VK_IMAGE_LAYOUT_UNDEFINED || st.layout == VK_IMAGE_LAYOUT_PREINITIALIZED) {
        continue;
      }
      const uint32_t texel = texel_bytes(st.format);
      if (texel == 0) {
        if (final_targets) continue;
        s->warn_once("image-format-" + std::to_string(st.format),
                     "contents of images in format " + std::to_string(st.format) +
                         " are not read back (compressed or depth/stencil)");
        continue;
      }
      Pending p;
      p.image = image;
      p.state = st;
      p.texel = texel;
      p.rec.image = id(image);
      p.rec.image_type = static_cast<uint32_t>(st.type);
      p.rec.format = static_cast<uint32_t>(st.format);
      p.rec.width = st.extent.width;
      p.rec.height = st.extent.height;
      p.rec.depth = st.extent.depth;
      p.rec.mip_levels = st.mips;
      p.rec.array_layers = st.layers;
      p.rec.samples = static_cast<uint32_t>(st.samples);
      p.rec.usage = st.usage;
      p.rec.layout = static_cast<uint32_t>(st.layout);
      for (uint32_t layer = 0; layer < st.layers; ++layer) {
        for (uint32_t mip = 0; mip < st.mips; ++mip) {
          const uint64_t size = uint64_t{mip_dim(st.extent.width, mip)} *
                                mip_dim(st.extent.height, mip) * mip_dim(st.extent.depth, mip) *
                                texel;
          p.rec.subresources.push_back({mip, layer, p.bytes, size});
          p.bytes += size;
        }
      }
      work.push_back(std::move(p));
    }
  }
  if (work.empty()) return;

  VkCommandPool pool = VK_NULL_HANDLE;
  VkCommandBuffer cb = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, nullptr,
                              VK_COMMAND_POOL_CREATE_TRANSIENT_BIT, family};
  bool ok = vk.CreateCommandPool(dev, &pci, nullptr, &pool) == VK_SUCCESS;
  VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool,
                                  VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  ok = ok && vk.AllocateCommandBuffers(dev, &cai, &cb) == VK_SUCCESS;
  if (ok && d->set_loader_data != nullptr) ok = d->set_loader_data(dev, cb) == VK_SUCCESS;
  VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO, nullptr, 0};
  ok = ok && vk.CreateFence(dev, &fci, nullptr, &fence) == VK_SUCCESS;
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, nullptr,
                              VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT, nullptr};
  ok = ok && vk.BeginCommandBuffer(cb, &bi) == VK_SUCCESS;
  for (auto& p : work) {
    if (!ok) break;
    VkBufferCreateInfo bci{};
    bci.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    bci.size = p.bytes;
    bci.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    bci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    if (vk.CreateBuffer(dev, &bci, nullptr, &p.buffer) != VK_SUCCESS) continue;
    VkMemoryRequirements req{};
    vk.GetBufferMemoryRequirements(dev, p.buffer, &req);
    const uint32_t type = host_memory_type(d->memory_properties, req.memoryTypeBits);
    VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, req.size, type};
    if (type == UINT32_MAX || vk.AllocateMemory(dev, &mai, nullptr, &p.memory) != VK_SUCCESS ||
        vk.BindBufferMemory(dev, p.buffer, p.memory, 0) != VK_SUCCESS) {
      s->warn_once("image-readback-memory", "out of memory reading back image contents");
      continue;
    }
    const VkImageSubresourceRange all{VK_IMAGE_ASPECT_COLOR_BIT, 0, p.state.mips, 0, p.state.layers};
    // Everything before (the queue is idle) -> transfer read; then back to the app's layout.
    VkImageMemoryBarrier to_src{};
    to_src.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER;
    to_src.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
    to_src.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    to_src.oldLayout = p.state.layout;
    to_src.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    to_src.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    to_src.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    to_src.image = p.image;
    to_src.subresourceRange = all;
    vk.CmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0,
                          0, nullptr, 0, nullptr, 1, &to_src);
    std::vector<VkBufferImageCopy> regions;
    for (const auto& sub : p.rec.subresources) {
      VkBufferImageCopy c{};
      c.bufferOffset = sub.offset;
      c.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, sub.mip, sub.layer, 1};
      c.imageExtent = {mip_dim(p.state.extent.width, sub.mip), mip_dim(p.state.extent.height, sub.mip),
                       mip_dim(p.state.extent.depth, sub.mip)};
      regions.push_back(c);
    }
    vk.CmdCopyImageToBuffer(cb, p.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, p.buffer,
                            static_cast<uint32_t>(regions.size()), regions.data());
    VkImageMemoryBarrier back = to_src;
    back.srcAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    back.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
    back.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    back.newLayout = p.state.layout;
    VkBufferMemoryBarrier to_host{};
    to_host.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER;
    to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    to_host.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    to_host.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    to_host.buffer = p.buffer;
    to_host.size = VK_WHOLE_SIZE;
    vk.CmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
                          VK_PIPELINE_STAGE_ALL_COMMANDS_BIT | VK_PIPELINE_STAGE_HOST_BIT, 0, 0,
                          nullptr, 1, &to_host, 1, &back);
  }
  ok = ok && vk.EndCommandBuffer(cb) == VK_SUCCESS;
  if (ok) {
    VkSubmitInfo si{};
    si.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cb;
    ok = vk.QueueSubmit(queue, 1, &si, fence) == VK_SUCCESS &&
         vk.WaitForFences(dev, 1, &fence, VK_TRUE, UINT64_MAX) == VK_SUCCESS;
  }
  for (auto& p : work) {
    if (ok && p.memory != VK_NULL_HANDLE) {
      void* data = nullptr;
      if (vk.MapMemory(dev, p.memory, 0, VK_WHOLE_SIZE, 0, &data) == VK_SUCCESS) {
        // By content: a texture captured in several files or frames is one blob.
        p.rec.contents = s->put_blob({static_cast<const std::byte*>(data), static_cast<size_t>(p.bytes)});
        vk.UnmapMemory(dev, p.memory);
        if (final_targets) {
          cap::RenderTargetContentsRecord rt;
          rt.present = present;
          rt.image = p.rec.image;
          rt.format = p.rec.format;
          rt.width = p.rec.width;
          rt.height = p.rec.height;
          rt.depth = p.rec.depth;
          rt.mip_levels = p.rec.mip_levels;
          rt.array_layers = p.rec.array_layers;
          rt.layout = p.rec.layout;
          for (const auto& sub : p.rec.subresources) {
            rt.subresources.push_back({sub.mip, sub.layer, sub.offset, sub.size});
          }
          rt.contents = p.rec.contents;
          s->write(rt);
        } else {
          s->write(p.rec);
        }
      }
    }
    if (p.buffer != VK_NULL_HANDLE) vk.DestroyBuffer(dev, p.buffer, nullptr);
    if (p.memory != VK_NULL_HANDLE) vk.FreeMemory(dev, p.memory, nullptr);
  }
  if (!ok) s->warn_once("image-readback", "could not read back image contents at frame start");
  if (fence != VK_NULL_HANDLE) vk.DestroyFence(dev, fence, nullptr);
  if (pool != VK_NULL_HANDLE) vk.DestroyCommandPool(dev, pool, nullptr);
}

}  // namespace tessera::layer
