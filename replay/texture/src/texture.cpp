#include "tessera/texture/texture.h"

#include <algorithm>
#include <cstring>

namespace tessera::texture {

bool Texture::create(VkFormat format, uint32_t width, uint32_t height, uint32_t levels, uint32_t layers,
                     uint64_t base_address, std::string* error) {
  return create(format, TextureExtent{width, height, 1, levels, layers}, base_address, error);
}

namespace {
// "WxH" or "WxHxD".
std::string extent_text(const TextureExtent& e) {
  std::string s = std::to_string(e.width);
  s += 'x';
  s += std::to_string(e.height);
  if (e.depth > 1) {
    s += 'x';
    s += std::to_string(e.depth);
  }
  return s;
}
}  // namespace

bool Texture::create(VkFormat format, const TextureExtent& e, uint64_t base_address, std::string* error) {
  if (!plan(format, e, base_address, error)) return false;
  allocate();
  return true;
}

void Texture::allocate() {
  memory_.assign(memory_bytes_, 0);
  decoded_.assign(decoded_texels_, Rgba{0.0f, 0.0f, 0.0f, 1.0f});
}

bool Texture::plan(VkFormat format, const TextureExtent& e, uint64_t base_address, std::string* error) {
  memory_ = {};
  decoded_ = {};
  memory_bytes_ = 0;
  decoded_texels_ = 0;
  if (!format_info(format, &info_)) {
    *error = "texture: unsupported format " + format_name(format);
    return false;
  }
  // Bounds of every real device (maxImageDimension2D/3D, maxImageArrayLayers are far below).
  if (e.width == 0 || e.height == 0 || e.depth == 0 || e.levels == 0 || e.layers == 0 || e.width > 65536 ||
      e.height > 65536 || e.depth > 16384 || e.levels > 17 || e.layers > 2048 || (e.depth > 1 && e.layers > 1)) {
    *error = "texture: bad extent " + extent_text(e) + ", " + std::to_string(e.levels) + " levels, " +
             std::to_string(e.layers) + " layers";
    return false;
  }
  const uint32_t largest = std::max({e.width, e.height, e.depth});
  const uint32_t max_levels = 1 + static_cast<uint32_t>(31 - __builtin_clz(largest));
  if (e.levels > max_levels) {
    *error = "texture: " + std::to_string(e.levels) + " levels exceed the " + std::to_string(max_levels) +
             " of a " + extent_text(e) + " image";
    return false;
  }
  levels_ = e.levels;
  layers_ = e.layers;
  is_3d_ = e.depth > 1;
  base_ = base_address;
  level_width_.resize(levels_);
  level_height_.resize(levels_);
  level_depth_.resize(levels_);
  blocks_x_.resize(levels_);
  blocks_y_.resize(levels_);
  slice_bytes_.resize(levels_);
  for (uint32_t l = 0; l < levels_; ++l) {
    level_width_[l] = std::max(1u, e.width >> l);
    level_height_[l] = std::max(1u, e.height >> l);
    level_depth_[l] = std::max(1u, e.depth >> l);
    blocks_x_[l] = (level_width_[l] + kBlockDim - 1) / kBlockDim;
    blocks_y_[l] = (level_height_[l] + kBlockDim - 1) / kBlockDim;
    const uint64_t bytes = static_cast<uint64_t>(blocks_x_[l]) * blocks_y_[l] * info_.block_bytes;
    slice_bytes_[l] = (bytes + kLineBytes - 1) / kLineBytes * kLineBytes;
  }
  level_offset_.resize(static_cast<size_t>(layers_) * levels_);
  decoded_offset_.resize(level_offset_.size());
  uint64_t offset = 0;
  size_t texels = 0;
  for (uint32_t a = 0; a < layers_; ++a) {
    for (uint32_t l = 0; l < levels_; ++l) {
      level_offset_[a * levels_ + l] = offset;
      decoded_offset_[a * levels_ + l] = texels;
      offset += slice_bytes_[l] * level_depth_[l];
      texels += static_cast<size_t>(level_width_[l]) * level_height_[l] * level_depth_[l];
    }
  }
  memory_bytes_ = offset;
  decoded_texels_ = texels;
  const uint32_t identity[4] = {0, 0, 0, 0};
  set_swizzle(identity);
  return true;
}

void Texture::set_swizzle(const uint32_t swizzle[4]) {
  identity_swizzle_ = true;
  for (uint32_t k = 0; k < 4; ++k) {
    // IDENTITY selects the channel itself; R..A select 0..3; ZERO -> 4, ONE -> 5.
    const uint32_t s = swizzle[k];
    select_[k] = static_cast<uint8_t>(s == VK_COMPONENT_SWIZZLE_ZERO  ? 4
                                      : s == VK_COMPONENT_SWIZZLE_ONE ? 5
                                      : s >= VK_COMPONENT_SWIZZLE_R && s <= VK_COMPONENT_SWIZZLE_A ? s - VK_COMPONENT_SWIZZLE_R
                                                                                                 : k);
    identity_swizzle_ = identity_swizzle_ && select_[k] == k;
  }
  // "one = 1.0f for floating-point formats and depth aspects, and one = 1 for integer formats".
  const uint32_t int_one = 1;
  if (info_.integer) std::memcpy(&one_, &int_one, 4);
  else one_ = 1.0f;
}

size_t Texture::level_linear_bytes(uint32_t level) const {
  if (info_.compressed) return static_cast<size_t>(blocks_x_[level]) * blocks_y_[level] * info_.block_bytes * level_depth_[level];
  return static_cast<size_t>(level_width_[level]) * level_height_[level] * level_depth_[level] * info_.texel_bytes;
}

bool Texture::upload(uint32_t level, uint32_t layer, const void* data, size_t bytes, std::string* error) {
  if (level >= levels_ || layer >= layers_) {
    *error = "texture: upload to level " + std::to_string(level) + " layer " + std::to_string(layer) +
             " outside " + std::to_string(levels_) + " levels, " + std::to_string(layers_) + " layers";
    return false;
  }
  if (bytes != level_linear_bytes(level)) {
    *error = "texture: upload of " + std::to_string(bytes) + " bytes to a level of " +
             std::to_string(level_linear_bytes(level)) + " bytes";
    return false;
  }
  const auto* src = static_cast<const uint8_t*>(data);
  const uint32_t w = level_width_[level], h = level_height_[level];
  for (uint32_t z = 0; z < level_depth_[level]; ++z) {
    Rgba* decoded = &decoded_[decoded_offset_[layer * levels_ + level] + static_cast<size_t>(z) * w * h];
    if (info_.compressed) {
      // BC blocks are copied as they are (already 4x4 blocks in row-major block order).
      const size_t slice = static_cast<size_t>(blocks_x_[level]) * blocks_y_[level] * info_.block_bytes;
      const uint8_t* blocks = src + z * slice;
      std::memcpy(&memory_[address(layer, level, 0, 0, z).block - base_], blocks, slice);
      for (uint32_t by = 0; by < blocks_y_[level]; ++by) {
        for (uint32_t bx = 0; bx < blocks_x_[level]; ++bx) {
          Rgba block[16];
          decode_bc_block(info_, blocks + (static_cast<size_t>(by) * blocks_x_[level] + bx) * info_.block_bytes, block);
          for (uint32_t ty = 0; ty < kBlockDim; ++ty) {
            for (uint32_t tx = 0; tx < kBlockDim; ++tx) {
              const uint32_t x = bx * kBlockDim + tx, y = by * kBlockDim + ty;
              if (x < w && y < h) decoded[static_cast<size_t>(y) * w + x] = block[ty * kBlockDim + tx];
            }
          }
        }
      }
      continue;
    }
    for (uint32_t y = 0; y < h; ++y) {
      for (uint32_t x = 0; x < w; ++x) {
        const uint8_t* texel = src + ((static_cast<size_t>(z) * h + y) * w + x) * info_.texel_bytes;
        std::memcpy(&memory_[address(layer, level, x, y, z).byte - base_], texel, info_.texel_bytes);
        decoded[static_cast<size_t>(y) * w + x] = decode_texel(info_, texel);
      }
    }
  }
  return true;
}

}  // namespace tessera::texture
