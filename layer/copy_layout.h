// The buffer layout of an image readback (copy_layout.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include <vulkan/vulkan.h>

namespace tessera::layer {

// One aspect of a format as copied to a buffer: which aspect, and its texel block (1x1 for
// uncompressed formats) and bytes per block.
struct CopyAspect {
  VkImageAspectFlags aspect = 0;
  uint32_t block_width = 1, block_height = 1, block_bytes = 0;
};
std::vector<CopyAspect> copy_aspects(VkFormat format);
// Bytes of one aspect of a width x height x depth region: whole blocks, rows tightly packed.
uint64_t aspect_bytes(const CopyAspect& a, uint32_t width, uint32_t height, uint32_t depth);

// One region of an image readback: a single aspect of one mip of one layer, at `offset` in the
// staging buffer, `size` bytes (whole texel blocks, rows tightly packed).
struct SubresourceCopy {
  VkImageAspectFlags aspect = 0;
  uint32_t mip = 0, layer = 0;
  VkExtent3D extent{};
  uint64_t offset = 0, size = 0;
};
// Every region of a whole-image readback in buffer order (layer, mip, aspect); `total` gets the
// staging size. Empty when the format's contents are not read back.
std::vector<SubresourceCopy> plan_copies(VkFormat format, VkExtent3D extent, uint32_t mips,
                                         uint32_t layers, uint64_t* total);

}  // namespace tessera::layer
