// VK_EXT_frame_boundary (registered extension 376, revision 1) for Vulkan headers that predate it
// (Debian 12's are 1.3.239): its name, enums and structures as the Vulkan registry defines them,
// and a lookup of its structure in a pNext chain. Used by the capture layer, which offers the
// extension itself at marker frame boundaries, and by the vkscene sample, which uses it.
#pragma once

#include <vulkan/vulkan.h>

#include <vector>

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

// While alive, the chain that starts at `*head` skips every structure of type `type`; restored as
// it was on destruction. A layer that offers an extension the driver lacks keeps the extension's
// structures from the layers and driver below it, which would otherwise see (and a validation
// layer report) a structure of an extension not enabled. The chain is the application's: the
// links are changed in place (they are const only to the application's callee) and put back
// before the hook returns; another thread may not use the same structures meanwhile (they are
// parameters of this call, Vulkan spec, "Threading Behavior").
class ChainWithout {
 public:
  ChainWithout(const void* const* head, VkStructureType type) {
    auto** link = const_cast<const void**>(head);
    while (*link != nullptr) {
      auto* s = static_cast<const VkBaseInStructure*>(*link);
      if (s->sType == type) {
        removed_.push_back({link, s});
        *link = s->pNext;
      } else {
        link = reinterpret_cast<const void**>(const_cast<const VkBaseInStructure**>(&s->pNext));
      }
    }
  }
  ~ChainWithout() {
    for (auto it = removed_.rbegin(); it != removed_.rend(); ++it) *it->link = it->removed;
  }
  ChainWithout(const ChainWithout&) = delete;
  ChainWithout& operator=(const ChainWithout&) = delete;

 private:
  struct Removed {
    const void** link;
    const void* removed;
  };
  std::vector<Removed> removed_;
};

}  // namespace tessera
