// VK_EXT_frame_boundary (registered extension 376, revision 1) for Vulkan headers that predate it
// (Debian 12's are 1.3.239): its name, enums and structures as the Vulkan registry defines them,
// and a lookup of its structure in a pNext chain. Used by the capture layer, which offers the
// extension itself at marker frame boundaries, and by the vkscene sample, which uses it.
#pragma once

#include <vulkan/vulkan.h>

#ifndef VK_EXT_frame_boundary
#define VK_EXT_frame_boundary 1
#define VK_EXT_FRAME_BOUNDARY_SPEC_VERSION 1
#define VK_EXT_FRAME_BOUNDARY_EXTENSION_NAME "VK_EXT_frame_boundary"

// An extension's enum values are 1000000000 + (number - 1) * 1000 + offset (the Vulkan
// registry's rule for extension tokens): extension 376, offsets 0 and 1.
inline constexpr VkStructureType VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FRAME_BOUNDARY_FEATURES_EXT =
    static_cast<VkStructureType>(1000375000);
inline constexpr VkStructureType VK_STRUCTURE_TYPE_FRAME_BOUNDARY_EXT = static_cast<VkStructureType>(1000375001);

typedef enum VkFrameBoundaryFlagBitsEXT {
  VK_FRAME_BOUNDARY_FRAME_END_BIT_EXT = 0x00000001,
  VK_FRAME_BOUNDARY_FLAG_BITS_MAX_ENUM_EXT = 0x7FFFFFFF
} VkFrameBoundaryFlagBitsEXT;
typedef VkFlags VkFrameBoundaryFlagsEXT;

typedef struct VkPhysicalDeviceFrameBoundaryFeaturesEXT {
  VkStructureType sType;
  void* pNext;
  VkBool32 frameBoundary;
} VkPhysicalDeviceFrameBoundaryFeaturesEXT;

typedef struct VkFrameBoundaryEXT {
  VkStructureType sType;
  const void* pNext;
  VkFrameBoundaryFlagsEXT flags;
  uint64_t frameID;
  uint32_t imageCount;
  const VkImage* pImages;
  uint32_t bufferCount;
  const VkBuffer* pBuffers;
  uint64_t tagName;
  size_t tagSize;
  const void* pTag;
} VkFrameBoundaryEXT;
#endif

namespace tessera {

// The VkFrameBoundaryEXT in a submission's (VkSubmitInfo, VkSubmitInfo2, VkPresentInfoKHR)
// pNext chain, or nullptr.
inline const VkFrameBoundaryEXT* find_frame_boundary(const void* chain) {
  for (auto* s = static_cast<const VkBaseInStructure*>(chain); s != nullptr; s = s->pNext) {
    if (s->sType == VK_STRUCTURE_TYPE_FRAME_BOUNDARY_EXT) return reinterpret_cast<const VkFrameBoundaryEXT*>(s);
  }
  return nullptr;
}

// True when the chain flags the last submission of a frame (VK_FRAME_BOUNDARY_FRAME_END_BIT_EXT).
inline bool ends_frame(const void* chain) {
  const VkFrameBoundaryEXT* b = find_frame_boundary(chain);
  return b != nullptr && (b->flags & VK_FRAME_BOUNDARY_FRAME_END_BIT_EXT) != 0;
}

}  // namespace tessera
