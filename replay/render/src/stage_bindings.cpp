#include "stage_bindings.h"

#include <vulkan/vulkan_core.h>

#include <algorithm>
#include <string>

namespace tessera::render {

shader::Bindings StageBindings::bindings() const {
  shader::Bindings b;
  b.buffers = buffers;
  b.push_constants = push;
  b.sampler = const_cast<texture::ShaderTextureUnit*>(&textures);
  b.storage_images = const_cast<StorageImageUnit*>(&storage_images);
  return b;
}

namespace {

const frontend::DescriptorBinding* find_binding(std::span<const frontend::DescriptorBinding> descriptors,
                                                uint32_t set, uint32_t binding) {
  for (const frontend::DescriptorBinding& b : descriptors)
    if (b.set == set && b.binding == binding) return &b;
  return nullptr;
}

std::string reduction_name(uint32_t mode) {
  switch (mode) {
    case VK_SAMPLER_REDUCTION_MODE_MIN: return "MIN";
    case VK_SAMPLER_REDUCTION_MODE_MAX: return "MAX";
    default: return std::to_string(mode);
  }
}

bool storage_buffer_descriptor(uint32_t type) {
  return type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER || type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
}

// A uniform texel buffer descriptor (the front end resolved its view's buffer, range and format).
void bind_texel_buffer(const frontend::DescriptorElement& e, uint32_t resource, uint32_t element, StageBindings& out,
                       frontend::SkipCounts& notes) {
  if (e.buffer == nullptr) return;  // unbound: fetches return zeros, counted
  texture::ShaderTextureUnit::TexelBuffer view;
  if (!texture::format_info(static_cast<VkFormat>(e.format), &view.format) || view.format.compressed ||
      view.format.texel_bytes == 0) {
    notes.add("texture: texel buffer of unsupported format " + texture::format_name(static_cast<VkFormat>(e.format)));
    return;
  }
  const std::span<std::byte> bytes = e.buffer->bytes();
  if (e.offset >= bytes.size()) return;
  view.data = reinterpret_cast<const uint8_t*>(bytes.data() + e.offset);
  view.size = std::min<uint64_t>(e.range, bytes.size() - e.offset);
  view.address = e.buffer->address + e.offset;
  out.textures.bind_texel_buffer(resource, element, view);
}

}  // namespace

void bind_stage(std::span<const frontend::DescriptorBinding> descriptors, std::span<const uint8_t> push_constants,
                const shader::ShaderModule& module, TextureCache& textures,
                std::deque<texture::SamplerState>& samplers, StageBindings& out, frontend::SkipCounts& notes) {
  const std::vector<shader::ResourceBinding>& resources = module.resources();
  bool reduction_counted = false;
  out.buffers.assign(resources.size(), shader::BufferView{});
  out.push = {reinterpret_cast<const std::byte*>(push_constants.data()), push_constants.size()};
  for (uint32_t r = 0; r < resources.size(); ++r) {
    const shader::ResourceBinding& res = resources[r];
    const frontend::DescriptorBinding* b = find_binding(descriptors, res.set, res.binding);
    if (b == nullptr) continue;  // unbound: buffer reads return 0, samples return 0
    switch (res.kind) {
      case shader::ResourceKind::UniformBuffer:
      case shader::ResourceKind::StorageBuffer: {
        if (res.array_element >= b->elements.size() || b->elements[res.array_element].buffer == nullptr) break;
        const frontend::DescriptorElement& e = b->elements[res.array_element];
        const std::span<std::byte> bytes = e.buffer->bytes();
        if (e.offset >= bytes.size()) break;
        shader::BufferView& v = out.buffers[r];
        v = {bytes.data() + e.offset, static_cast<size_t>(std::min<uint64_t>(e.range, bytes.size() - e.offset))};
        // Stores and atomics reach memory through storage buffer descriptors only.
        if (res.kind == shader::ResourceKind::StorageBuffer && storage_buffer_descriptor(b->type))
          v.writable = bytes.data() + e.offset;
        break;
      }
      case shader::ResourceKind::CombinedImageSampler:
      case shader::ResourceKind::SampledImage:
      case shader::ResourceKind::Sampler: {
        const uint32_t n = std::min<uint32_t>(res.array_size, static_cast<uint32_t>(b->elements.size()));
        for (uint32_t i = 0; i < n; ++i) {
          const frontend::DescriptorElement& e = b->elements[i];
          if (b->type == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER) {
            bind_texel_buffer(e, r, i, out, notes);
            continue;
          }
          if (res.kind != shader::ResourceKind::Sampler && e.view != nullptr) {
            std::string error;
            const texture::Texture* tex = textures.get(*e.view, error);
            // Neither captured at frame start nor written since (Image::defined): what the
            // shader reads from it is counted where it reads it (count_unserved_image_requests).
            if (tex != nullptr) out.textures.bind_texture(r, i, tex, e.view->image == nullptr || e.view->image->defined);
            else notes.add("texture: " + error);
          }
          if (res.kind != shader::ResourceKind::SampledImage && e.sampler != nullptr) {
            // Spec "Texel Filtering": a MIN or MAX reduction (VK_EXT_sampler_filter_minmax, core
            // in 1.2) takes the component-wise minimum or maximum of the texels a linear filter
            // would weight; the texture unit filters every sampler as a weighted average, which
            // is the same only when one texel of one level is read: NEAREST filters, and either
            // NEAREST mipmapping or a single level to choose from. Counted once per stage.
            const capture::SamplerRecord& sr = *e.sampler;
            const bool blends_levels = sr.mipmap_mode != VK_SAMPLER_MIPMAP_MODE_NEAREST && sr.min_lod < sr.max_lod &&
                                       (e.view == nullptr || e.view->range.mip_count > 1);
            const bool min_max = sr.reduction_mode == VK_SAMPLER_REDUCTION_MODE_MIN ||
                                 sr.reduction_mode == VK_SAMPLER_REDUCTION_MODE_MAX;
            if (sr.reduction_mode != VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE && !reduction_counted &&
                (!min_max || sr.mag_filter != VK_FILTER_NEAREST || sr.min_filter != VK_FILTER_NEAREST ||
                 blends_levels || sr.anisotropy_enable)) {
              reduction_counted = true;
              notes.approximate("texture: sampler reduction mode " + reduction_name(sr.reduction_mode) +
                                " filtered as a weighted average");
            }
            samplers.push_back(sampler_state(*e.sampler));
            out.textures.bind_sampler(r, i, &samplers.back());
          }
        }
        break;
      }
      case shader::ResourceKind::StorageImage: {
        const uint32_t n = std::min<uint32_t>(res.array_size, static_cast<uint32_t>(b->elements.size()));
        for (uint32_t i = 0; i < n; ++i)
          if (b->elements[i].view != nullptr)
            out.storage_images.bind(r, i, const_cast<frontend::ImageView*>(b->elements[i].view));
        break;
      }
    }
  }
}

}  // namespace tessera::render
