#include "tessera/texture/texture.h"

#include <algorithm>
#include <cstring>

namespace tessera::texture {

bool Texture::create(VkFormat format, uint32_t width, uint32_t height, uint32_t levels,
                     uint32_t layers, uint64_t base_address, std::string* error) {
  if (!format_info(format, &info_)) {
    *error = "texture: unsupported format " + format_name(format);
    return false;
  }
  if (width == 0 || height == 0 || levels == 0 || layers == 0 || width > 65536 || height > 65536 ||
      levels > 17 || layers > 2048) {
    *error = "texture: bad extent " + std::to_string(width) + "x" + std::to_string(height) + ", " +
             std::to_string(levels) + " levels, " + std::to_string(layers) + " layers";
    return false;
  }
  const uint32_t max_levels = 1 + static_cast<uint32_t>(31 - __builtin_clz(std::max(width, height)));
  if (levels > max_levels) {
    *error = "texture: " + std::to_string(levels) + " levels exceed the " + std::to_string(max_levels) +
             " of a " + std::to_string(width) + "x" + std::to_string(height) + " image";
    return false;
  }
  levels_ = levels;
  layers_ = layers;
  base_ = base_address;
  level_width_.resize(levels);
  level_height_.resize(levels);
  blocks_x_.resize(levels);
  blocks_y_.resize(levels);
  for (uint32_t l = 0; l < levels; ++l) {
    level_width_[l] = std::max(1u, width >> l);
    level_height_[l] = std::max(1u, height >> l);
    blocks_x_[l] = (level_width_[l] + kBlockDim - 1) / kBlockDim;
    blocks_y_[l] = (level_height_[l] + kBlockDim - 1) / kBlockDim;
  }
  level_offset_.resize(static_cast<size_t>(layers) * levels);
  decoded_offset_.resize(level_offset_.size());
  uint64_t offset = 0;
  size_t texels = 0;
  for (uint32_t a = 0; a < layers; ++a) {
    for (uint32_t l = 0; l < levels; ++l) {
      level_offset_[a * levels + l] = offset;
      decoded_offset_[a * levels + l] = texels;
      const uint64_t bytes = static_cast<uint64_t>(blocks_x_[l]) * blocks_y_[l] * info_.block_bytes;
      offset += (bytes + kLineBytes - 1) / kLineBytes * kLineBytes;
      texels += static_cast<size_t>(level_width_[l]) * level_height_[l];
    }
  }
  memory_.assign(offset, 0);
  decoded_.assign(texels, Rgba{0.0f, 0.0f, 0.0f, 1.0f});
  return true;
}

size_t Texture::level_linear_bytes(uint32_t level) const {
  if (info_.compressed) return static_cast<size_t>(blocks_x_[level]) * blocks_y_[level] * info_.block_bytes;
  return static_cast<size_t>(level_width_[level]) * level_height_[level] * info_.texel_bytes;
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
  Rgba* decoded = &decoded_[decoded_offset_[layer * levels_ + level]];
  if (info_.compressed) {
    // BC blocks are copied as they are (already 4x4 blocks in row-major block order).
    std::memcpy(&memory_[address(layer, level, 0, 0).block - base_], src, bytes);
    for (uint32_t by = 0; by < blocks_y_[level]; ++by) {
      for (uint32_t bx = 0; bx < blocks_x_[level]; ++bx) {
        Rgba block[16];
        decode_bc_block(info_, src + (static_cast<size_t>(by) * blocks_x_[level] + bx) * info_.block_bytes, block);
        for (uint32_t ty = 0; ty < kBlockDim; ++ty) {
          for (uint32_t tx = 0; tx < kBlockDim; ++tx) {
            const uint32_t x = bx * kBlockDim + tx, y = by * kBlockDim + ty;
            if (x < w && y < h) decoded[static_cast<size_t>(y) * w + x] = block[ty * kBlockDim + tx];
          }
        }
      }
    }
    return true;
  }
  for (uint32_t y = 0; y < h; ++y) {
    for (uint32_t x = 0; x < w; ++x) {
      const uint8_t* texel = src + (static_cast<size_t>(y) * w + x) * info_.texel_bytes;
      std::memcpy(&memory_[address(layer, level, x, y).byte - base_], texel, info_.texel_bytes);
      decoded[static_cast<size_t>(y) * w + x] = decode_texel(info_, texel);
    }
  }
  return true;
}

uint32_t Texture::texel_uint(uint32_t layer, uint32_t level, uint32_t x, uint32_t y) const {
  uint32_t v = 0;
  std::memcpy(&v, &memory_[address(layer, level, x, y).byte - base_], std::min<uint32_t>(4, info_.texel_bytes));
  return v;
}

}  // namespace tessera::texture
