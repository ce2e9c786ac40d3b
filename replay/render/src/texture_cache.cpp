#include "texture_cache.h"

#include <vulkan/vulkan_core.h>

namespace tessera::render {

const texture::Texture* TextureCache::get(const frontend::ImageView& view, std::string& error) {
  const frontend::Image* image = view.image;
  if (image == nullptr) {
    error = "image view " + std::to_string(view.handle) + ": no image";
    return nullptr;
  }
  const capture::SubresourceRange& r = view.range;
  const Key key{image->handle, 0, view.format, r.aspect, r.base_mip, r.mip_count, r.base_layer, r.layer_count};
  Entry& e = entries_[key];
  if ((e.texture || !e.error.empty()) && e.generation == image->generation) {
    error = e.error;
    return e.texture.get();
  }
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
    if (!tex->create(static_cast<VkFormat>(view.format), image->mip_width(r.base_mip),
                     image->mip_height(r.base_mip), levels, layers, image->address, &why)) {
      e.error = name + ": " + why;
    } else {
      for (uint32_t layer = 0; layer < layers && e.error.empty(); ++layer)
        for (uint32_t level = 0; level < levels && e.error.empty(); ++level) {
          const size_t index = (static_cast<size_t>(aspect) * image->array_layers + r.base_layer + layer) *
                                   image->mip_levels + r.base_mip + level;
          const size_t want = tex->level_linear_bytes(level);
          // Contents never captured read as zeros (the image is then undefined to the app too).
          if (index >= image->planes.size() || image->planes[index].size() < want) {
            const std::vector<uint8_t> zeros(want, 0);
            if (!tex->upload(level, layer, zeros.data(), want, &why)) e.error = name + ": " + why;
          } else if (!tex->upload(level, layer, image->planes[index].data(), want, &why)) {
            e.error = name + ": " + why;
          }
        }
      if (e.error.empty()) e.texture = std::move(tex);
    }
  }
  error = e.error;
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
