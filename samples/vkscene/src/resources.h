// Buffers, images and textures. One VkDeviceMemory per resource: vkscene creates a few dozen,
// far below maxMemoryAllocationCount, and a capture then sees one resource per allocation,
// which keeps its memory bookkeeping simple to check.
#pragma once

#include "device.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace vkscene {

struct Buffer {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkDeviceSize size = 0;
    void* mapped = nullptr;  // persistently mapped when host-visible
};

struct Image {
    VkImage image = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkImageView view = VK_NULL_HANDLE;
    VkFormat format = VK_FORMAT_UNDEFINED;
    VkExtent2D extent{};
    std::uint32_t mipLevels = 1;
};

// Host-visible buffers are HOST_COHERENT so the app needs no flushes (and a capture layer sees
// plain memcpy writes to mapped memory, the common case it must handle).
Buffer createBuffer(const Device& device, VkDeviceSize size, VkBufferUsageFlags usage,
                    VkMemoryPropertyFlags properties);
// Device-local buffer filled through a staging copy.
Buffer createDeviceBuffer(const Device& device, std::span<const std::uint8_t> bytes,
                          VkBufferUsageFlags usage);
void destroyBuffer(VkDevice device, Buffer& buffer);

Image createImage(const Device& device, VkExtent2D extent, VkFormat format,
                  std::uint32_t mipLevels, VkImageUsageFlags usage, VkImageAspectFlags aspect);
void destroyImage(VkDevice device, Image& image);

// Tightly packed RGBA8 pixels of mip level 0.
struct Pixels {
    std::uint32_t width = 0;
    std::uint32_t height = 0;
    std::vector<std::uint8_t> rgba;
};

// Uploads level 0 and builds the full mip chain on the GPU with vkCmdBlitImage (linear filter),
// the way engines do at load time; ends in SHADER_READ_ONLY_OPTIMAL. R8G8B8A8_UNORM is
// required to support blits and linear filtering (Vulkan spec, "Required Format Support").
Image createTexture(const Device& device, const Pixels& pixels);

std::uint32_t mipCount(std::uint32_t width, std::uint32_t height);

// The procedural textures (textures.cpp). All deterministic integer maths: the same bytes on
// every run and machine, so captures of different runs share their texture blobs.
enum class Pattern { Checker, Bricks, Rings, Marble, Tiles, Glass };
Pixels makePattern(Pattern pattern, std::uint32_t size);
const char* patternName(Pattern pattern);

}  // namespace vkscene
