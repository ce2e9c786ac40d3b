// Dispatch tables of the next layer in the chain: generated at build time from vk.xml and
// hooked_commands.txt (gen_vulkan_surface.py), with the declarations of the layer's hooks. Only
// the commands the layer intercepts or calls have a slot: everything else the application gets
// from the next layer's GetProcAddr directly.
#pragma once

#include "generated/vulkan_surface.h"

namespace tessera::layer {

// The loader's dispatch pointer stored at the start of every dispatchable object: equal for an
// instance and its physical devices, and for a device and its queues and command buffers.
template <typename Handle>
inline void* dispatch_key(Handle h) {
  return *reinterpret_cast<void**>(h);
}

}  // namespace tessera::layer
