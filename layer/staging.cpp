// Staging readback: see staging.h.
#include "staging.h"

namespace tessera::layer {

uint32_t find_memory_type(const VkPhysicalDeviceMemoryProperties& mp, uint32_t bits,
                          VkMemoryPropertyFlags want, VkMemoryPropertyFlags prefer) {
  uint32_t fallback = UINT32_MAX;
  for (uint32_t i = 0; i < mp.memoryTypeCount; ++i) {
    if ((bits & (1u << i)) == 0 || (mp.memoryTypes[i].propertyFlags & want) != want) continue;
    if ((mp.memoryTypes[i].propertyFlags & prefer) == prefer) return i;
    if (fallback == UINT32_MAX) fallback = i;
  }
  return fallback;
}

VkBufferMemoryBarrier host_read_barrier(VkBuffer buffer) {
  VkBufferMemoryBarrier b{};
  b.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER;
  b.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  b.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  b.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.buffer = buffer;
  b.size = VK_WHOLE_SIZE;
  return b;
}

VkImageMemoryBarrier layout_barrier(VkImage image, const VkImageSubresourceRange& range,
                                    VkImageLayout from, VkImageLayout to, VkAccessFlags src,
                                    VkAccessFlags dst) {
  VkImageMemoryBarrier b{};
  b.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER;
  b.srcAccessMask = src;
  b.dstAccessMask = dst;
  b.oldLayout = from;
  b.newLayout = to;
  b.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.image = image;
  b.subresourceRange = range;
  return b;
}

StagingReadback::StagingReadback(DeviceData* d, uint32_t family) : d_(d) {
  const VkDevice dev = d->device;
  auto& vk = d->vk;
  VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, nullptr,
                              VK_COMMAND_POOL_CREATE_TRANSIENT_BIT, family};
  ok_ = vk.CreateCommandPool(dev, &pci, nullptr, &pool_) == VK_SUCCESS;
  VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool_,
                                  VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  ok_ = ok_ && vk.AllocateCommandBuffers(dev, &cai, &cb_) == VK_SUCCESS;
  // A command buffer the layer allocates below the loader needs the loader's dispatch pointer
  // (loader-layer interface, "Creating New Dispatchable Objects").
  if (ok_ && d->set_loader_data != nullptr) ok_ = d->set_loader_data(dev, cb_) == VK_SUCCESS;
  VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO, nullptr, 0};
  ok_ = ok_ && vk.CreateFence(dev, &fci, nullptr, &fence_) == VK_SUCCESS;
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, nullptr,
                              VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT, nullptr};
  ok_ = ok_ && vk.BeginCommandBuffer(cb_, &bi) == VK_SUCCESS;
}

StagingReadback::~StagingReadback() {
  const VkDevice dev = d_->device;
  auto& vk = d_->vk;
  // Freeing mapped memory unmaps it (Vulkan spec, vkFreeMemory), should a read have thrown.
  for (const Staged& b : buffers_) {
    if (b.buffer != VK_NULL_HANDLE) vk.DestroyBuffer(dev, b.buffer, nullptr);
    if (b.memory != VK_NULL_HANDLE) vk.FreeMemory(dev, b.memory, nullptr);
  }
  if (fence_ != VK_NULL_HANDLE) vk.DestroyFence(dev, fence_, nullptr);
  if (pool_ != VK_NULL_HANDLE) vk.DestroyCommandPool(dev, pool_, nullptr);
}

VkBuffer StagingReadback::add_buffer(VkDeviceSize bytes) {
  if (!ok_) return VK_NULL_HANDLE;
  const VkDevice dev = d_->device;
  auto& vk = d_->vk;
  Staged b;
  b.bytes = bytes;
  VkBufferCreateInfo bci{};
  bci.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  bci.size = bytes;
  bci.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  bci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  if (vk.CreateBuffer(dev, &bci, nullptr, &b.buffer) != VK_SUCCESS) return VK_NULL_HANDLE;
  // Owned from here on: freed by the destructor whatever happens next.
  buffers_.push_back(b);
  Staged& staged = buffers_.back();
  VkMemoryRequirements req{};
  vk.GetBufferMemoryRequirements(dev, staged.buffer, &req);
  // The host reads it: cached memory if there is some, coherent to skip the invalidate.
  const uint32_t type = find_memory_type(
      d_->memory_properties, req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT,
      VK_MEMORY_PROPERTY_HOST_CACHED_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  if (type == UINT32_MAX) return VK_NULL_HANDLE;
  staged.coherent = (d_->memory_properties.memoryTypes[type].propertyFlags &
                     VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) != 0;
  VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, req.size, type};
  if (vk.AllocateMemory(dev, &mai, nullptr, &staged.memory) != VK_SUCCESS ||
      vk.BindBufferMemory(dev, staged.buffer, staged.memory, 0) != VK_SUCCESS) {
    return VK_NULL_HANDLE;
  }
  return staged.buffer;
}

bool StagingReadback::submit(VkQueue queue, std::span<const VkSemaphore> waits,
                             VkSemaphore signal) {
  auto& vk = d_->vk;
  ok_ = ok_ && vk.EndCommandBuffer(cb_) == VK_SUCCESS;
  if (!ok_) return false;
  const std::vector<VkPipelineStageFlags> stages(waits.size(), VK_PIPELINE_STAGE_TRANSFER_BIT);
  VkSubmitInfo si{};
  si.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  si.waitSemaphoreCount = static_cast<uint32_t>(waits.size());
  si.pWaitSemaphores = waits.data();
  si.pWaitDstStageMask = stages.data();
  si.commandBufferCount = 1;
  si.pCommandBuffers = &cb_;
  si.signalSemaphoreCount = signal != VK_NULL_HANDLE ? 1 : 0;
  si.pSignalSemaphores = &signal;
  ok_ = vk.QueueSubmit(queue, 1, &si, fence_) == VK_SUCCESS;
  return ok_;
}

bool StagingReadback::wait() {
  ok_ = ok_ && d_->vk.WaitForFences(d_->device, 1, &fence_, VK_TRUE, UINT64_MAX) == VK_SUCCESS;
  return ok_;
}

const StagingReadback::Staged* StagingReadback::find(VkBuffer buffer) const {
  for (const Staged& b : buffers_) {
    if (b.buffer == buffer) return &b;
  }
  return nullptr;
}

VkDeviceSize StagingReadback::bytes_of(VkBuffer buffer) const {
  const Staged* b = find(buffer);
  return b != nullptr ? b->bytes : 0;
}

const void* StagingReadback::map(VkBuffer buffer) {
  const Staged* b = find(buffer);
  if (!ok_ || b == nullptr || b->memory == VK_NULL_HANDLE) return nullptr;
  void* data = nullptr;
  if (d_->vk.MapMemory(d_->device, b->memory, 0, VK_WHOLE_SIZE, 0, &data) != VK_SUCCESS) {
    return nullptr;
  }
  if (!b->coherent) {
    // Host reads of non-coherent memory see device writes only after an invalidate (Vulkan
    // spec, "Host Access to Device Memory Objects").
    VkMappedMemoryRange mr{VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE, nullptr, b->memory, 0,
                           VK_WHOLE_SIZE};
    d_->vk.InvalidateMappedMemoryRanges(d_->device, 1, &mr);
  }
  return data;
}

void StagingReadback::unmap(VkBuffer buffer) {
  if (const Staged* b = find(buffer)) d_->vk.UnmapMemory(d_->device, b->memory);
}

}  // namespace tessera::layer
