// The resources of one shader stage bound for execution: descriptors matched to the module's
// resources by set and binding (Vulkan spec "Descriptor Sets"), for draws and dispatches alike.
#pragma once

#include <cstdint>
#include <deque>
#include <span>
#include <vector>

#include "storage_images.h"
#include "texture_cache.h"
#include "tessera/frontend/frame.h"
#include "tessera/shader/shader_module.h"
#include "tessera/texture/shader_texture_unit.h"

namespace tessera::render {

struct StageBindings {
  std::vector<shader::BufferView> buffers;  // indexed like ShaderModule::resources()
  texture::ShaderTextureUnit textures;
  StorageImageUnit storage_images;
  shader::BufferView push;
  shader::Bindings bindings() const;
};

// Binds the descriptors `module` uses. Buffers are views of Buffer::bytes() from the element's
// offset, at most its range (what the shader reads past that returns 0, robustBufferAccess);
// storage buffer descriptors are writable views. Sampled images go through the texture cache
// (`samplers` keeps the sampler states at stable addresses), storage images to the storage image
// unit. Problems that leave the stage runnable (a texture the unit cannot build) go to `notes`.
void bind_stage(std::span<const frontend::DescriptorBinding> descriptors, std::span<const uint8_t> push_constants,
                const shader::ShaderModule& module, TextureCache& textures,
                std::deque<texture::SamplerState>& samplers, StageBindings& out, frontend::SkipCounts& notes);

}  // namespace tessera::render
