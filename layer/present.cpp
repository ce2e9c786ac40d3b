// Swapchains and presentation: the presented image of each captured frame is read back (the
// reference replay is checked against), the frame is flushed at its present, and host-visible
// memory is snapshotted by mapping.
#include <algorithm>
#include <cstring>
#include <optional>

#include "layer_state.h"
#include "vk_ext_frame_boundary.h"
#include "staging.h"

namespace tessera::layer {

namespace {

std::span<const std::byte> as_span(const void* p, size_t n) {
  return {static_cast<const std::byte*>(p), n};
}

// Swapchain formats read back as-is: 4 bytes per texel, rows tightly packed.
bool readable_format(VkFormat f) {
  switch (f) {
    case VK_FORMAT_B8G8R8A8_UNORM:
    case VK_FORMAT_B8G8R8A8_SRGB:
    case VK_FORMAT_R8G8B8A8_UNORM:
    case VK_FORMAT_R8G8B8A8_SRGB:
    case VK_FORMAT_A8B8G8R8_UNORM_PACK32:
    case VK_FORMAT_A8B8G8R8_SRGB_PACK32:
    case VK_FORMAT_A2R10G10B10_UNORM_PACK32:
    case VK_FORMAT_A2B10G10R10_UNORM_PACK32:
      return true;
    default:
      return false;
  }
}

}  // namespace

VKAPI_ATTR VkResult VKAPI_CALL CreateSwapchainKHR(VkDevice device,
                                                  const VkSwapchainCreateInfoKHR* ci,
                                                  const VkAllocationCallbacks* alloc,
                                                  VkSwapchainKHR* swapchain) {
  DeviceData* d = device_of(device);
  Session* s = Session::get();
  VkSwapchainCreateInfoKHR patched = *ci;
  bool readable = false;
  if (s != nullptr && s->recording()) {
    // The presented image is copied out at vkQueuePresentKHR, which needs TRANSFER_SRC usage
    // (vkcube, like most apps, asks only for COLOR_ATTACHMENT). Add it only where the surface
    // allows it (VkSurfaceCapabilitiesKHR::supportedUsageFlags).
    VkSurfaceCapabilitiesKHR caps{};
    auto& ivk = d->instance->vk;
    if (ivk.GetPhysicalDeviceSurfaceCapabilitiesKHR != nullptr &&
        ivk.GetPhysicalDeviceSurfaceCapabilitiesKHR(d->physical_device, ci->surface, &caps) ==
            VK_SUCCESS &&
        (caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_SRC_BIT) != 0) {
      patched.imageUsage |= VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
      readable = readable_format(ci->imageFormat);
    }
    if (!readable) {
      guarded("vkCreateSwapchainKHR", [&] {
        s->warn_once("swapchain-unreadable",
                     "swapchain images cannot be read back (format " +
                         std::to_string(ci->imageFormat) +
                         " or usage unsupported): no presented images recorded");
      });
    }
  }
  VkResult r = down(d->vk.CreateSwapchainKHR(device, &patched, alloc, swapchain));
  bool transfer_src_added = true;
  // TRANSFER_SRC may have been added although the format is not readable: retry on any change.
  if (r != VK_SUCCESS && patched.imageUsage != ci->imageUsage) {
    // Never fail the application because of what the layer added.
    readable = false;
    transfer_src_added = false;
    r = down(d->vk.CreateSwapchainKHR(device, ci, alloc, swapchain));
  }
  if (r != VK_SUCCESS) return r;
  SwapchainState st;
  st.format = ci->imageFormat;
  st.extent = ci->imageExtent;
  st.readable = readable;
  st.transfer_src = (transfer_src_added ? patched.imageUsage : ci->imageUsage) & VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  uint32_t n = 0;
  d->vk.GetSwapchainImagesKHR(device, *swapchain, &n, nullptr);
  st.images.resize(n);
  d->vk.GetSwapchainImagesKHR(device, *swapchain, &n, st.images.data());
  if (s != nullptr && s->recording()) {
    cap::SwapchainRecord rec{id(*swapchain),
                             static_cast<uint32_t>(ci->imageFormat),
                             static_cast<uint32_t>(ci->imageColorSpace),
                             ci->imageExtent.width,
                             ci->imageExtent.height,
                             ci->imageArrayLayers,
                             ci->imageUsage,
                             static_cast<uint32_t>(ci->presentMode),
                             {}};
    for (VkImage img : st.images) rec.images.push_back(id(img));
    s->write(rec);
  }
  std::lock_guard lock(d->mutex);
  d->swapchains[*swapchain] = std::move(st);
  return r;
}

VKAPI_ATTR void VKAPI_CALL DestroySwapchainKHR(VkDevice device, VkSwapchainKHR swapchain,
                                               const VkAllocationCallbacks* alloc) {
  DeviceData* d = device_of(device);
  {
    std::lock_guard lock(d->mutex);
    d->swapchains.erase(swapchain);
  }
  d->vk.DestroySwapchainKHR(device, swapchain, alloc);
}

VKAPI_ATTR VkResult VKAPI_CALL QueuePresentKHR(VkQueue queue, const VkPresentInfoKHR* info) {
  DeviceData* d = device_of(queue);
  Session* s = Session::get();
  // Frames end at submits or markers: a present is the application's own business, unless at
  // marker boundaries its VkFrameBoundaryEXT flags the frame's end (VK_EXT_frame_boundary), which
  // then ends as at a present boundary: read back before the image goes to the presentation engine.
  const bool marked = s != nullptr && s->boundary() == FrameBoundary::kMarker && ends_frame(info->pNext);
  // Where the layer offers VK_EXT_frame_boundary itself, its structure stays above the layer.
  std::optional<ChainWithout> without;
  if (d->frame_boundary_emulated) {
    guarded("vkQueuePresentKHR", [&] { without.emplace(&info->pNext, VK_STRUCTURE_TYPE_FRAME_BOUNDARY_EXT); });
  }
  if (s != nullptr && s->boundary() != FrameBoundary::kPresent && !marked) {
    return down(d->vk.QueuePresentKHR(queue, info));
  }
  // At marker boundaries one thread at a time ends a frame (QueueSubmit); a no-op at presents.
  const auto boundary = s != nullptr ? s->boundary_lock() : std::unique_lock<std::mutex>();
  VkResult r = VK_SUCCESS;
  if (s != nullptr && s->in_captured_frame()) {
    // Render targets as the frame ends: wait for the frame's work on this queue first.
    guarded("vkQueuePresentKHR", [&] {
      d->vk.QueueWaitIdle(queue);
      read_back_images(d, s, queue, true, s->current_frame());
    });
    // On its own: the frame's render pass state is reset even where the readback above threw.
    guarded("vkQueuePresentKHR", [&] { write_pass_contents(d, s, s->current_frame()); });
    guarded("vkQueuePresentKHR", [&] { r = present_with_readback(d, s, queue, info); });
  }
  // Not captured, or the readback failed before presenting: the application's present as is.
  // (After the present went down, its result stands even if recording then failed.)
  if (!t_down_call.made) {
    r = down(d->vk.QueuePresentKHR(queue, info));
  } else {
    r = t_down_call.result;
  }
  if (s != nullptr) guarded("vkQueuePresentKHR", [&] { s->end_present(); });
  return r;
}

namespace {

struct Readback {
  VkSwapchainKHR swapchain = VK_NULL_HANDLE;
  uint32_t index = 0;
  VkImage image = VK_NULL_HANDLE;
  VkFormat format = VK_FORMAT_UNDEFINED;
  VkExtent2D extent{};
  VkBuffer buffer = VK_NULL_HANDLE;  // in the staging readback
};

}  // namespace

VkResult present_with_readback(DeviceData* d, Session* s, VkQueue queue,
                               const VkPresentInfoKHR* info) {
  VkDevice dev = d->device;
  auto& vk = d->vk;
  std::vector<Readback> reads;
  uint32_t family = 0;
  {
    std::lock_guard lock(d->mutex);
    if (auto it = d->queue_families_of.find(queue); it != d->queue_families_of.end()) {
      family = it->second;
    }
    for (uint32_t i = 0; i < info->swapchainCount; ++i) {
      auto it = d->swapchains.find(info->pSwapchains[i]);
      if (it == d->swapchains.end() || !it->second.readable) continue;
      const uint32_t index = info->pImageIndices[i];
      if (index >= it->second.images.size()) continue;
      reads.push_back({info->pSwapchains[i], index, it->second.images[index], it->second.format,
                       it->second.extent});
    }
  }
  // Copies need a queue with transfer capability (graphics and compute queues have it
  // implicitly, Vulkan spec "Queue Family Properties").
  const VkQueueFlags copy_caps = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT;
  if (family >= d->queue_families.size() ||
      (d->queue_families[family].queueFlags & copy_caps) == 0) {
    s->warn_once("present-queue", "present queue cannot copy: no presented image recorded");
    reads.clear();
  }
  if (reads.empty()) return down(vk.QueuePresentKHR(queue, info));

  // Resources for this readback; created per captured frame, which keeps the steady state free
  // of layer objects.
  StagingReadback staging(d, family);
  VkSemaphore done = VK_NULL_HANDLE;
  VkSemaphoreCreateInfo sci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, nullptr, 0};
  bool ok = staging.ok() && vk.CreateSemaphore(dev, &sci, nullptr, &done) == VK_SUCCESS;
  for (auto& rb : reads) {
    if (!ok) break;
    rb.buffer = staging.add_buffer(VkDeviceSize{rb.extent.width} * rb.extent.height * 4);
    ok = rb.buffer != VK_NULL_HANDLE;
  }
  if (ok) {
    VkCommandBuffer cb = staging.command_buffer();
    for (const auto& rb : reads) {
      const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
      // PRESENT_SRC -> TRANSFER_SRC. The app's semaphores are waited at the TRANSFER stage,
      // so a barrier whose source scope is TRANSFER extends that dependency chain (Vulkan spec,
      // "Semaphore Waiting" and "Execution Dependencies").
      const VkImageMemoryBarrier to_src =
          layout_barrier(rb.image, range, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR,
                         VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, 0, VK_ACCESS_TRANSFER_READ_BIT);
      vk.CmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0,
                            0, nullptr, 0, nullptr, 1, &to_src);
      VkBufferImageCopy copy{};
      copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
      copy.imageExtent = {rb.extent.width, rb.extent.height, 1};
      vk.CmdCopyImageToBuffer(cb, rb.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, rb.buffer, 1,
                              &copy);
      // Back to PRESENT_SRC for the presentation engine; the semaphore signal that follows
      // covers all prior commands.
      const VkImageMemoryBarrier to_present =
          layout_barrier(rb.image, range, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                         VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, VK_ACCESS_TRANSFER_READ_BIT, 0);
      const VkBufferMemoryBarrier to_host = host_read_barrier(rb.buffer);
      vk.CmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
                            VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT | VK_PIPELINE_STAGE_HOST_BIT, 0,
                            0, nullptr, 1, &to_host, 1, &to_present);
    }
  }
  // The copies wait for the application's semaphores at the TRANSFER stage (see above).
  ok = ok && staging.submit(queue, {info->pWaitSemaphores, info->waitSemaphoreCount}, done);
  VkResult result;
  if (ok) {
    // The present now waits on the copy, which itself consumed the application's semaphores.
    VkPresentInfoKHR patched = *info;
    patched.waitSemaphoreCount = 1;
    patched.pWaitSemaphores = &done;
    result = down(vk.QueuePresentKHR(queue, &patched));
    ok = staging.wait();
    // Guarded here, not only at the hook's boundary: the present went down, so its result must
    // be returned and the semaphore it waits on kept when writing the record fails.
    guarded("vkQueuePresentKHR", [&] {
      for (const auto& rb : reads) {
        if (!ok) break;
        staging.read(rb.buffer, [&](std::span<const std::byte> bytes) {
          const auto hash = s->put_blob(bytes);
          s->write(cap::PresentedImageRecord{id(rb.swapchain), rb.index,
                                             static_cast<uint32_t>(rb.format), rb.extent.width,
                                             rb.extent.height, hash});
        });
      }
    });
  } else {
    s->warn_once("readback-failed", "could not read back a presented image (out of memory?)");
    result = down(vk.QueuePresentKHR(queue, info));
  }
  if (done != VK_NULL_HANDLE) {
    // The presentation engine may still be waiting on it; there is no signal for when that
    // wait completes, so it lives until the device is destroyed (a few per capture).
    std::lock_guard lock(d->mutex);
    d->retired_semaphores.push_back(done);
  }
  return result;
}

void snapshot_range(Session* s, VkDeviceMemory memory, MemoryState& m, const void* data,
                    VkDeviceSize offset, VkDeviceSize size) {
  if (m.page_hashes.empty()) m.page_hashes.resize(static_cast<size_t>((m.size + kSnapshotPage - 1) / kSnapshotPage));
  const auto* base = static_cast<const std::byte*>(data);
  // Pages are aligned to the allocation, not to the mapping, so the same bytes always land in
  // the same page whatever range the application maps.
  for (VkDeviceSize page = offset / kSnapshotPage; page * kSnapshotPage < offset + size; ++page) {
    const VkDeviceSize lo = std::max(page * kSnapshotPage, offset);
    const VkDeviceSize hi = std::min((page + 1) * kSnapshotPage, offset + size);
    const auto bytes = as_span(base + (lo - offset), static_cast<size_t>(hi - lo));
    cap::Hash128 h = cap::hash128(bytes);
    const bool whole_page = lo == page * kSnapshotPage && hi == std::min((page + 1) * kSnapshotPage, m.size);
    if (whole_page && page < m.page_hashes.size() && m.page_hashes[page] == h) continue;
    // The application may write the mapping while we read it: the record names the hash of the
    // copy the writer stored, not of what we read a moment earlier.
    h = s->put_blob(bytes);
    s->write(cap::MemoryContentsRecord{id(memory), lo, hi - lo, h});
    if (page < m.page_hashes.size()) m.page_hashes[page] = whole_page ? h : cap::Hash128{};
  }
}

void snapshot_memory(DeviceData* d, Session* s, bool initial) {
  std::lock_guard map_lock(d->map_mutex);  // the temporary mappings below
  std::lock_guard lock(d->mutex);
  for (auto& [memory, m] : d->memories) {
    if (m.mapped != nullptr) {
      // The application's mapping: what the host wrote (docs/architecture.md, "What capture guarantees").
      snapshot_range(s, memory, m, m.mapped, m.map_offset, m.map_size);
    } else if (initial && (m.flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) != 0) {
      void* p = nullptr;
      if (d->vk.MapMemory(d->device, memory, 0, VK_WHOLE_SIZE, 0, &p) != VK_SUCCESS) continue;
      if ((m.flags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) == 0) {
        VkMappedMemoryRange mr{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE, nullptr, memory, 0,
                               VK_WHOLE_SIZE};
        d->vk.InvalidateMappedMemoryRanges(d->device, 1, &mr);
      }
      snapshot_range(s, memory, m, p, 0, m.size);
      d->vk.UnmapMemory(d->device, memory);
    }
  }
}

}  // namespace tessera::layer
