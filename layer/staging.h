// Staging readback: what the layer's own reads of device images need around the copy commands
// the caller records -- a one-time command buffer on the reading queue's family, host-visible
// buffers the copies land in, the submit, the wait, and the mapping on the host. Shared by the
// image readbacks (image_readback.cpp) and the presented-image readback (present.cpp).
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "layer_state.h"

namespace tessera::layer {

// A memory type among `bits` with every `want` property, the first one that also has every
// `prefer` property if any does; UINT32_MAX when none has `want`.
uint32_t find_memory_type(const VkPhysicalDeviceMemoryProperties& mp, uint32_t bits,
                          VkMemoryPropertyFlags want, VkMemoryPropertyFlags prefer);

// The barrier that makes a transfer's writes to `buffer` visible to host reads after the wait.
VkBufferMemoryBarrier host_read_barrier(VkBuffer buffer);
// A layout transition of `range` of `image` on the queue that owns it.
VkImageMemoryBarrier layout_barrier(VkImage image, const VkImageSubresourceRange& range,
                                    VkImageLayout from, VkImageLayout to, VkAccessFlags src,
                                    VkAccessFlags dst);

// Created per readback and destroyed when it is done, so the steady state holds no layer
// objects. Every step after a failed one does nothing: ok() says whether all went through.
class StagingReadback {
 public:
  // A transient command pool on `family`, one primary command buffer begun for one submit, and
  // a fence.
  StagingReadback(DeviceData* d, uint32_t family);
  // Frees the buffers, their memory, the fence and the pool (the caller has waited, or never
  // submitted).
  ~StagingReadback();
  StagingReadback(const StagingReadback&) = delete;
  StagingReadback& operator=(const StagingReadback&) = delete;

  bool ok() const { return ok_; }
  // Where the caller records its barriers and copies while ok().
  VkCommandBuffer command_buffer() const { return cb_; }

  // A TRANSFER_DST buffer of `bytes` bound to host-visible memory, or VK_NULL_HANDLE when it
  // could not be created (out of memory, no host-visible type); ok() is unchanged either way,
  // the caller decides whether the readback can go on without it.
  VkBuffer add_buffer(VkDeviceSize bytes);

  // Ends the command buffer and submits it to `queue`; the copies wait for `waits` at the
  // TRANSFER stage and signal `signal` when done (when not VK_NULL_HANDLE).
  bool submit(VkQueue queue, std::span<const VkSemaphore> waits = {},
              VkSemaphore signal = VK_NULL_HANDLE);
  // Waits for the submitted copies to finish.
  bool wait();

  // Calls f(bytes) with the contents of `buffer` mapped on the host (after the wait). False,
  // without calling f, when it cannot be mapped.
  template <typename F>
  bool read(VkBuffer buffer, F&& f) {
    const void* data = map(buffer);
    if (data == nullptr) return false;
    f(std::span<const std::byte>(static_cast<const std::byte*>(data),
                                 static_cast<size_t>(bytes_of(buffer))));
    unmap(buffer);
    return true;
  }

 private:
  struct Staged {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkDeviceSize bytes = 0;
    bool coherent = true;
  };
  const Staged* find(VkBuffer buffer) const;
  const void* map(VkBuffer buffer);
  void unmap(VkBuffer buffer);
  VkDeviceSize bytes_of(VkBuffer buffer) const;

  DeviceData* d_;
  bool ok_ = true;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkCommandBuffer cb_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
  std::vector<Staged> buffers_;
};

}  // namespace tessera::layer
