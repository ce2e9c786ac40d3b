// A texture (1D, 2D, 3D, cube, arrays of them) as it lives in the simulated GPU address space.
//
// Every mip level of every array layer is stored in the blocked representation of paper 004
// section III (Fig. 6): the level is cut into 4x4-texel blocks, each block is contiguous in
// memory and blocks follow each other in row-major block order. For RGBA8 one block is exactly
// one 64 B cache line ("selecting the line size equal to the block size", sec. III); BC1-BC5, BC7 are
// natively 4x4 blocks and are stored as such. Layout: layer-major, then level, each level
// starting on a 64 B boundary. A 3D level is its depth slices one after the other, each slice
// blocked like a 2D level and starting on a 64 B boundary (4x4x1 blocks: the 4x4 RGBA8 block
// stays one line). Cube maps are 2D arrays whose layer 6c + f is face f of cube c (Vulkan spec
// "Cube Map Face Selection": +X, -X, +Y, -Y, +Z, -Z).
//
// The image view's component swizzle (VkComponentMapping) belongs to the texture: samples,
// gathers and fetches return swizzled values (spec "Component Swizzle").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tessera/texture/format.h"

namespace tessera::texture {

inline constexpr uint32_t kBlockDim = 4;        // texels per block side (paper 004 sec. III)
inline constexpr uint64_t kLineBytes = 64;      // cache line of the GPU model

struct TexelAddress {
  uint64_t block;  // byte address of the 4x4 block holding the texel
  uint64_t byte;   // byte address of the texel itself (== block for BC formats)
};

// One level of one layer (one slice of a 3D level) with its table look-ups done: the sampler
// resolves it once per filter probe, so the (up to 4 x 16 x 2) texel reads of a footprint do not
// repeat them.
struct LevelView {
  const Rgba* texels = nullptr;  // decoded, row-major
  uint32_t width = 0, height = 0, blocks_x = 0, block_bytes = 0, texel_bytes = 0;
  uint64_t level_base = 0;  // byte address of the slice's first block
  bool compressed = false;

  const Rgba& texel(uint32_t x, uint32_t y) const { return texels[static_cast<size_t>(y) * width + x]; }
  // Texture::address(...).byte of (x, y), the same arithmetic.
  uint64_t byte_address(uint32_t x, uint32_t y) const;
  // Address of the 4x4 block holding (x, y) (Texture::address(...).block).
  uint64_t block_address(uint32_t x, uint32_t y) const {
    return level_base + (static_cast<uint64_t>(y / kBlockDim) * blocks_x + x / kBlockDim) * block_bytes;
  }
};

// Extent of a texture: depth > 1 makes it 3D (then layers must be 1).
struct TextureExtent {
  uint32_t width = 1, height = 1, depth = 1;
  uint32_t levels = 1, layers = 1;
};

class Texture {
 public:
  // Returns false and sets *error (one line) when the format or the extent is unsupported.
  bool create(VkFormat format, const TextureExtent& extent, uint64_t base_address, std::string* error);
  // create() in two steps: plan() lays the texture out without allocating it, so a caller holding
  // its memory within a budget (the replay's, for a capture's declared sizes) can look at
  // host_bytes() first; allocate() then takes them. create() is plan() then allocate().
  bool plan(VkFormat format, const TextureExtent& extent, uint64_t base_address, std::string* error);
  void allocate();
  // Host bytes the texture holds once allocated: its blocked representation and its decoded
  // texels (16 bytes each, whatever the format: a BC1 texture decodes to 32 times its size).
  uint64_t host_bytes() const { return memory_bytes_ + decoded_texels_ * sizeof(Rgba); }
  // A 2D texture (or 2D array): create(format, {width, height, 1, levels, layers}, ...).
  bool create(VkFormat format, uint32_t width, uint32_t height, uint32_t levels, uint32_t layers,
              uint64_t base_address, std::string* error);

  // Uploads one level of one layer from tightly packed data, as a buffer-to-image copy provides
  // it: rows, then (3D) slices; for BC formats rows of 4x4 blocks. `bytes` must match
  // level_linear_bytes().
  bool upload(uint32_t level, uint32_t layer, const void* data, size_t bytes, std::string* error);
  size_t level_linear_bytes(uint32_t level) const;

  // VkComponentSwizzle values for R, G, B, A (IDENTITY = 0, ZERO 1, ONE 2, R 3, G 4, B 5, A 6).
  void set_swizzle(const uint32_t swizzle[4]);
  bool identity_swizzle() const { return identity_swizzle_; }
  // "Component Swizzle" of a texel (or a filtered value: the swizzle selects components, so it
  // commutes with filtering, and ZERO / ONE come out exact). ONE is integer 1 for integer formats.
  Rgba swizzle(const Rgba& c) const {
    if (identity_swizzle_) return c;
    Rgba out;
    for (uint32_t k = 0; k < 4; ++k) out[k] = select_[k] < 4 ? c[select_[k]] : select_[k] == 4 ? 0.0f : one_;
    return out;
  }
  // The component a swizzled channel reads: 0..3, 4 for ZERO, 5 for ONE.
  uint32_t swizzle_source(uint32_t channel) const { return select_[channel & 3u]; }
  float one() const { return one_; }

  const FormatInfo& format() const { return info_; }
  uint32_t width(uint32_t level = 0) const { return level_width_[level]; }
  uint32_t height(uint32_t level = 0) const { return level_height_[level]; }
  uint32_t depth(uint32_t level = 0) const { return level_depth_[level]; }
  bool is_3d() const { return is_3d_; }
  uint32_t levels() const { return levels_; }
  uint32_t layers() const { return layers_; }
  uint64_t base_address() const { return base_; }
  uint64_t size_bytes() const { return memory_.size(); }
  // The bytes of the blocked representation, offset 0 = base_address().
  const std::vector<uint8_t>& memory() const { return memory_; }

  // Blocked address mapping (paper 004 sec. III): (layer, level, x, y, z) -> byte addresses.
  TexelAddress address(uint32_t layer, uint32_t level, uint32_t x, uint32_t y, uint32_t z = 0) const {
    const uint32_t bx = x / kBlockDim, by = y / kBlockDim;
    const uint64_t block = base_ + level_offset_[layer * levels_ + level] + z * slice_bytes_[level] +
                           (static_cast<uint64_t>(by) * blocks_x_[level] + bx) * info_.block_bytes;
    const uint64_t within = info_.compressed ? 0 : ((y % kBlockDim) * kBlockDim + (x % kBlockDim)) * info_.texel_bytes;
    return {block, block + within};
  }

  // The decoded texel (RGBA, sRGB already linearised, not swizzled) used by filtering.
  const Rgba& texel(uint32_t layer, uint32_t level, uint32_t x, uint32_t y, uint32_t z = 0) const {
    return decoded_[decoded_offset_[layer * levels_ + level] +
                    (static_cast<size_t>(z) * level_height_[level] + y) * level_width_[level] + x];
  }
  LevelView level_view(uint32_t layer, uint32_t level, uint32_t z = 0) const {
    const size_t slice = static_cast<size_t>(z) * level_width_[level] * level_height_[level];
    return {&decoded_[decoded_offset_[layer * levels_ + level] + slice], level_width_[level], level_height_[level],
            blocks_x_[level], info_.block_bytes, info_.texel_bytes,
            base_ + level_offset_[layer * levels_ + level] + z * slice_bytes_[level], info_.compressed};
  }

 private:
  FormatInfo info_;
  uint32_t levels_ = 0, layers_ = 0;
  bool is_3d_ = false;
  uint64_t base_ = 0;
  std::vector<uint32_t> level_width_, level_height_, level_depth_, blocks_x_, blocks_y_;
  std::vector<uint64_t> slice_bytes_;    // per level: one slice's blocks, rounded up to 64 B
  std::vector<uint64_t> level_offset_;   // per layer*levels+level, bytes from base
  std::vector<size_t> decoded_offset_;   // per layer*levels+level, texels into decoded_
  std::vector<uint8_t> memory_;
  std::vector<Rgba> decoded_;
  uint64_t memory_bytes_ = 0;  // what allocate() gives memory_ and decoded_
  size_t decoded_texels_ = 0;
  uint8_t select_[4] = {0, 1, 2, 3};
  bool identity_swizzle_ = true;
  float one_ = 1.0f;
};

inline uint64_t LevelView::byte_address(uint32_t x, uint32_t y) const {
  const uint32_t bx = x / kBlockDim, by = y / kBlockDim;
  const uint64_t block = level_base + (static_cast<uint64_t>(by) * blocks_x + bx) * block_bytes;
  const uint64_t within = compressed ? 0 : ((y % kBlockDim) * kBlockDim + (x % kBlockDim)) * texel_bytes;
  return block + within;
}

}  // namespace tessera::texture
