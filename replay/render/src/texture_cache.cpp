#include "texture_cache.h"

#include <vulkan/vulkan_core.h>

#include <cstring>

namespace tessera::render {

namespace {

// Vulkan spec "Image Views", VkComponentSwizzle: IDENTITY 0, ZERO 1, ONE 2, R 3, G 4, B 5, A 6.
bool identity_swizzle(const frontend::ImageView& view) {
  for (uint32_t c = 0; c < 4; ++c)
    if (view.swizzle[c] != VK_COMPONENT_SWIZZLE_IDENTITY && view.swizzle[c] != VK_COMPONENT_SWIZZLE_R + c) return false;
  return true;
}

// Applies the swizzle to tightly packed 4-byte texels whose channel c sits at byte order[c].
void swizzle_rgba8(const frontend::ImageView& view, const uint32_t order[4], std::vector<uint8_t>& texels) {
  for (size_t t = 0; t + 4 <= texels.size(); t += 4) {
    uint8_t in[4], out[4];
    for (uint32_t c = 0; c < 4; ++c) in[c] = texels[t + order[c]];
    for (uint32_t c = 0; c < 4; ++c) {
      const uint32_t s = view.swizzle[c];
      out[c] = s == VK_COMPONENT_SWIZZLE_ZERO ? 0
               : s == VK_COMPONENT_SWIZZLE_ONE ? 255
               : s >= VK_COMPONENT_SWIZZLE_R && s <= VK_COMPONENT_SWIZZLE_A ? in[s - VK_COMPONENT_SWIZZLE_R]
                                                                           : in[c];
    }
    for (uint32_t c = 0; c < 4; ++c) texels[t + order[c]] = out[c];
  }
}

}  // namespace

const texture::Texture* TextureCache::get(const frontend::ImageView& view, std::string& error, std::string& note) {
  const frontend::Image* image = view.image;
  if (image == nullptr) {
    error = "image view " + std::to_string(view.handle) + ": no image";
    return nullptr;
  }
  const capture::SubresourceRange& r = view.range;
  const uint64_t swizzle = uint64_t{view.swizzle[0]} | uint64_t{view.swizzle[1]} << 16 |
                           uint64_t{view.swizzle[2]} << 32 | uint64_t{view.swizzle[3]} << 48;
  const Key key{image->handle, swizzle, view.format, r.aspect, r.base_mip, r.mip_count, r.base_layer, r.layer_count};
  Entry& e = entries_[key];
  if ((e.texture || !e.error.empty()) && e.generation == image->generation) {
    error = e.error;
    note = e.note;
    return e.texture.get();
  }
  e.note.clear();
  e.generation = image->generation;
  e.texture.reset();
  e.error.clear();
  const std::string name = "image " + std::to_string(image->handle);
  const uint32_t levels = r.mip_count ? r.mip_count : 1, layers = r.layer_count ? r.layer_count : 1;
  if (r.base_mip + levels > image->mip_levels || r.base_layer + layers > image->array_layers) {
    e.error = name + ": view range outside the image";
  } else if (view.view_type == VK_IMAGE_VIEW_TYPE_3D || view.view_type == VK_IMAGE_VIEW_TYPE_CUBE ||
             view.view_type == VK_IMAGE_VIEW_TYPE_CUBE_ARRAY) {
    e.error = name + ": 3D and cube views are not supported by the texture unit";
  } else {
    const frontend::Aspect aspect =
        r.aspect == VK_IMAGE_ASPECT_STENCIL_BIT ? frontend::Aspect::Stencil : frontend::Aspect::ColorOrDepth;
    auto tex = std::make_unique<texture::Texture>();
    std::string why;
    // D24 depth (a 32-bit word per texel, depth in the low 24 bits) is sampled as D32_SFLOAT: the
    // same 4-byte texels and blocked addresses, values d / (2^24 - 1) (spec "Fixed-Point Data
    // Conversions"); the texture unit has no D24 decode.
    const bool d24 = (view.format == VK_FORMAT_X8_D24_UNORM_PACK32 || view.format == VK_FORMAT_D24_UNORM_S8_UINT) &&
                     aspect == frontend::Aspect::ColorOrDepth;
    const VkFormat format = d24 ? VK_FORMAT_D32_SFLOAT : static_cast<VkFormat>(view.format);
    if (!tex->create(format, image->mip_width(r.base_mip),
                     image->mip_height(r.base_mip), levels, layers, image->address, &why)) {
      e.error = name + ": " + why;
    } else {
      const texture::FormatInfo& fi = tex->format();
      const bool rgba8 = fi.kind == texture::FormatKind::Unorm8 && fi.components == 4 && fi.texel_bytes == 4;
      const uint32_t rgba_order[4] = {0, 1, 2, 3}, bgra_order[4] = {2, 1, 0, 3};
      const bool swizzled = !identity_swizzle(view);
      // Depth textures have one component, which shaders read as .r whatever the swizzle.
      if (swizzled && !rgba8 && !fi.depth && !d24) e.note = "texture: component swizzle ignored for format " + texture::format_name(static_cast<VkFormat>(view.format));
      std::vector<uint8_t> copy;
      for (uint32_t layer = 0; layer < layers && e.error.empty(); ++layer)
        for (uint32_t level = 0; level < levels && e.error.empty(); ++level) {
          const size_t index = (static_cast<size_t>(aspect) * image->array_layers + r.base_layer + layer) *
                                   image->mip_levels + r.base_mip + level;
          const size_t want = tex->level_linear_bytes(level);
          // Contents never captured read as zeros (the image is then undefined to the app too).
          if (index >= image->planes.size() || image->planes[index].size() < want) {
            const std::vector<uint8_t> zeros(want, 0);
            if (!tex->upload(level, layer, zeros.data(), want, &why)) e.error = name + ": " + why;
          } else if (d24) {
            copy.resize(want);
            for (size_t t = 0; t + 4 <= want; t += 4) {
              uint32_t word;
              std::memcpy(&word, image->planes[index].data() + t, 4);
              const float d = static_cast<float>(word & 0xFFFFFFu) / 16777215.0f;
              std::memcpy(copy.data() + t, &d, 4);
            }
            if (!tex->upload(level, layer, copy.data(), want, &why)) e.error = name + ": " + why;
          } else if (swizzled && rgba8) {
            copy.assign(image->planes[index].begin(), image->planes[index].begin() + static_cast<std::ptrdiff_t>(want));
            swizzle_rgba8(view, fi.bgra ? bgra_order : rgba_order, copy);
            if (!tex->upload(level, layer, copy.data(), want, &why)) e.error = name + ": " + why;
          } else if (!tex->upload(level, layer, image->planes[index].data(), want, &why)) {
            e.error = name + ": " + why;
          }
        }
      if (e.error.empty()) e.texture = std::move(tex);
    }
  }
  error = e.error;
  note = e.note;
  return e.texture.get();
}

texture::SamplerState sampler_state(const capture::SamplerRecord& s) {
  VkSamplerCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO;
  info.magFilter = static_cast<VkFilter>(s.mag_filter);
  info.minFilter = static_cast<VkFilter>(s.min_filter);
  info.mipmapMode = static_cast<VkSamplerMipmapMode>(s.mipmap_mode);
  info.addressModeU = static_cast<VkSamplerAddressMode>(s.address_u);
  info.addressModeV = static_cast<VkSamplerAddressMode>(s.address_v);
  info.addressModeW = static_cast<VkSamplerAddressMode>(s.address_w);
  info.mipLodBias = s.mip_lod_bias;
  info.anisotropyEnable = s.anisotropy_enable ? VK_TRUE : VK_FALSE;
  info.maxAnisotropy = s.max_anisotropy;
  info.compareEnable = s.compare_enable ? VK_TRUE : VK_FALSE;
  info.compareOp = static_cast<VkCompareOp>(s.compare_op);
  info.minLod = s.min_lod;
  info.maxLod = s.max_lod;
  info.borderColor = static_cast<VkBorderColor>(s.border_color);
  info.unnormalizedCoordinates = s.unnormalized_coordinates ? VK_TRUE : VK_FALSE;
  return texture::SamplerState::from_create_info(info);
}

}  // namespace tessera::render
