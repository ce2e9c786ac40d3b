#include "texture_cache.h"

#include <vulkan/vulkan_core.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

namespace tessera::render {

namespace {

// Cube and cube array views: their layers are whole cubes of square faces (spec "Image Views").
bool is_cube(uint32_t view_type) {
  return view_type == VK_IMAGE_VIEW_TYPE_CUBE || view_type == VK_IMAGE_VIEW_TYPE_CUBE_ARRAY;
}

}  // namespace

void TextureCache::retire(Entry& e) {
  if (e.texture) retired_.push_back({e.generation, e.frame, std::move(e.held), std::move(e.texture), {}});
  e.held.release();
  e.texture.reset();
}

void TextureCache::end_pass() { retired_.clear(); }

void TextureCache::begin_frame() {
  retired_.clear();
  std::erase_if(entries_, [&](const auto& kv) { return kv.second.frame < frame_; });
  ++frame_;
}

const texture::Texture* TextureCache::get(const frontend::ImageView& view, std::string& error) {
  const frontend::Image* image = view.image;
  if (image == nullptr) {
    error = "image view " + frontend::format_handle(view.handle) + ": no image";
    return nullptr;
  }
  const capture::SubresourceRange& r = view.range;
  const uint64_t swizzle = uint64_t{view.swizzle[0]} | uint64_t{view.swizzle[1]} << 16 |
                           uint64_t{view.swizzle[2]} << 32 | uint64_t{view.swizzle[3]} << 48;
  const Key key{image->handle, swizzle, view.format, r.aspect, r.base_mip, r.mip_count, r.base_layer,
                r.layer_count | uint64_t{view.view_type} << 32};
  Entry& e = entries_[key];
  e.frame = frame_;
  if ((e.texture || !e.error.empty()) && e.generation == image->generation) {
    error = e.error;
    return e.texture.get();
  }
  retire(e);
  // The image's other copies are of contents it no longer has.
  for (auto it = entries_.lower_bound(Key{image->handle, 0, 0, 0, 0, 0, 0, 0});
       it != entries_.end() && std::get<0>(it->first) == image->handle;) {
    if (&it->second != &e && it->second.generation != image->generation) {
      retire(it->second);
      it = entries_.erase(it);
    } else {
      ++it;
    }
  }
  e.generation = image->generation;
  e.error.clear();
  const std::string name = "image " + frontend::format_handle(image->handle);
  const uint32_t levels = r.mip_count ? r.mip_count : 1, layers = r.layer_count ? r.layer_count : 1;
  // A 3D image is seen through a 3D view, or through a 2D (array) view of some of its slices
  // (VK_EXT_image_2d_view_of_3d, maintenance1's 2D array compatible images): then the view's
  // layers are slices of one mip level.
  const bool image_3d = image->image_type == VK_IMAGE_TYPE_3D;
  const bool view_3d = view.view_type == VK_IMAGE_VIEW_TYPE_3D;
  const bool slices_as_layers = image_3d && !view_3d;
  const uint32_t image_depth = image->depth >> r.base_mip ? image->depth >> r.base_mip : 1;
  if (view_3d && !image_3d) {
    e.error = name + ": a 3D view of a non-3D image";
  } else if (slices_as_layers ? (levels != 1 || r.base_mip >= image->mip_levels || r.base_layer + layers > image_depth)
                              : (r.base_mip + levels > image->mip_levels || r.base_layer + layers > image->array_layers)) {
    e.error = name + ": view range outside the image";
  } else if (is_cube(view.view_type) && (layers % 6 != 0 || image->width != image->height)) {
    e.error = name + ": cube view of " + std::to_string(layers) + " layers of " + std::to_string(image->width) +
              "x" + std::to_string(image->height);
  } else {
    const frontend::Aspect aspect =
        r.aspect == VK_IMAGE_ASPECT_STENCIL_BIT ? frontend::Aspect::Stencil : frontend::Aspect::ColorOrDepth;
    auto tex = std::make_unique<texture::Texture>();
    std::string why;
    // D24 depth (a 32-bit word per texel, depth in the low 24 bits) is sampled as D32_SFLOAT: the
    // same 4-byte texels and blocked addresses, values d / (2^24 - 1) (spec "Fixed-Point Data
    // Conversions"); the texture unit has no D24 decode. The stencil aspect (one byte per texel
    // in its plane) reads as an integer [S, 0, 0, 1] (spec "Conversion to RGBA"): R8_UINT.
    const bool d24 = (view.format == VK_FORMAT_X8_D24_UNORM_PACK32 || view.format == VK_FORMAT_D24_UNORM_S8_UINT) &&
                     aspect == frontend::Aspect::ColorOrDepth;
    const VkFormat format = aspect == frontend::Aspect::Stencil ? VK_FORMAT_R8_UINT
                            : d24                              ? VK_FORMAT_D32_SFLOAT
                                                               : static_cast<VkFormat>(view.format);
    const texture::TextureExtent extent{image->mip_width(r.base_mip), image->mip_height(r.base_mip),
                                        view_3d ? image_depth : 1, levels, layers};
    if (!tex->plan(format, extent, image->address, &why)) {
      e.error = name + ": " + why;
    } else {
      const std::string limit_name = name + " (a view of " + std::to_string(extent.width) +
                                     "x" + std::to_string(extent.height) + "x" + std::to_string(extent.depth) + ", " +
                                     std::to_string(levels) + " mips, " + std::to_string(layers) + " layers)";
      Held held(budget_);
      held.take(tex->host_bytes(), limit_name + ": its texture copy");
      tex->allocate();
      tex->set_swizzle(view.swizzle);
      // The level being converted (zeros for contents never captured, D24 as floats).
      Held scratch(budget_);
      std::vector<uint8_t> copy;
      for (uint32_t layer = 0; layer < layers && e.error.empty(); ++layer)
        for (uint32_t level = 0; level < levels && e.error.empty(); ++level) {
          const uint32_t image_layer = slices_as_layers ? 0 : r.base_layer + layer;
          const size_t index = (static_cast<size_t>(aspect) * image->array_layers + image_layer) *
                                   image->mip_levels + r.base_mip + level;
          const size_t want = tex->level_linear_bytes(level);
          // A slice of a 3D plane: the plane holds the mip level's slices one after the other.
          const size_t offset = slices_as_layers ? (r.base_layer + layer) * want : 0;
          // Contents never captured read as zeros (the image is then undefined to the app too).
          const bool have = index < image->planes.size() && image->planes[index].size() >= offset + want;
          const uint8_t* src = have ? image->planes[index].data() + offset : nullptr;
          if ((!have || d24) && want > scratch.bytes()) scratch.hold(want, limit_name + ": a level's converted copy");
          if (!have) {
            copy.assign(want, 0);
            src = copy.data();
          } else if (d24) {
            copy.resize(want);
            for (size_t t = 0; t + 4 <= want; t += 4) {
              uint32_t word;
              std::memcpy(&word, src + t, 4);
              const float d = static_cast<float>(word & 0xFFFFFFu) / 16777215.0f;
              std::memcpy(copy.data() + t, &d, 4);
            }
            src = copy.data();
          }
          if (!tex->upload(level, layer, src, want, &why)) e.error = name + ": " + why;
        }
      if (e.error.empty()) {
        e.texture = std::move(tex);
        e.held = std::move(held);
      }
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
  info.flags = s.flags;
  info.mipLodBias = s.mip_lod_bias;
  info.anisotropyEnable = s.anisotropy_enable ? VK_TRUE : VK_FALSE;
  info.maxAnisotropy = s.max_anisotropy;
  info.compareEnable = s.compare_enable ? VK_TRUE : VK_FALSE;
  info.compareOp = static_cast<VkCompareOp>(s.compare_op);
  info.minLod = s.min_lod;
  info.maxLod = s.max_lod;
  info.borderColor = static_cast<VkBorderColor>(s.border_color);
  info.unnormalizedCoordinates = s.unnormalized_coordinates ? VK_TRUE : VK_FALSE;
  texture::SamplerState state = texture::SamplerState::from_create_info(info);
  // VK_EXT_custom_border_color: the colour's words (floats or integers, as the border colour says).
  std::copy_n(s.custom_border.words, 4, state.custom_border);
  return state;
}

}  // namespace tessera::render
