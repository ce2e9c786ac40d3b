// Where the texels of an image land in a buffer when the layer copies the image out: one region
// per aspect, mip and layer, sized and aligned per the Vulkan spec "Copying Data Between Buffers
// and Images". Free of layer state so the unit tests check it directly.
#include "copy_layout.h"

#include <algorithm>

namespace tessera::layer {

namespace {

// Bytes per texel of the uncompressed colour formats read back; 0 for the rest (compressed,
// depth/stencil, multi-planar), which are left to replay to regenerate and noted once.
uint32_t texel_bytes(VkFormat f) {
  switch (f) {
    case VK_FORMAT_R8_UNORM: case VK_FORMAT_R8_SNORM: case VK_FORMAT_R8_UINT:
    case VK_FORMAT_R8_SINT: case VK_FORMAT_R8_SRGB:
      return 1;
    case VK_FORMAT_R8G8_UNORM: case VK_FORMAT_R8G8_SNORM: case VK_FORMAT_R8G8_UINT:
    case VK_FORMAT_R8G8_SINT: case VK_FORMAT_R16_UNORM: case VK_FORMAT_R16_SNORM:
    case VK_FORMAT_R16_UINT: case VK_FORMAT_R16_SINT: case VK_FORMAT_R16_SFLOAT:
    case VK_FORMAT_R5G6B5_UNORM_PACK16: case VK_FORMAT_B5G6R5_UNORM_PACK16:
    case VK_FORMAT_R4G4B4A4_UNORM_PACK16: case VK_FORMAT_B4G4R4A4_UNORM_PACK16:
    case VK_FORMAT_A1R5G5B5_UNORM_PACK16: case VK_FORMAT_R5G5B5A1_UNORM_PACK16:
    case VK_FORMAT_B5G5R5A1_UNORM_PACK16:
      return 2;
    case VK_FORMAT_R8G8B8A8_UNORM: case VK_FORMAT_R8G8B8A8_SNORM: case VK_FORMAT_R8G8B8A8_UINT:
    case VK_FORMAT_R8G8B8A8_SINT: case VK_FORMAT_R8G8B8A8_SRGB: case VK_FORMAT_B8G8R8A8_UNORM:
    case VK_FORMAT_B8G8R8A8_SRGB: case VK_FORMAT_A8B8G8R8_UNORM_PACK32:
    case VK_FORMAT_A8B8G8R8_SRGB_PACK32: case VK_FORMAT_A2B10G10R10_UNORM_PACK32:
    case VK_FORMAT_A2R10G10B10_UNORM_PACK32: case VK_FORMAT_R16G16_UNORM:
    case VK_FORMAT_R16G16_SFLOAT: case VK_FORMAT_R16G16_UINT: case VK_FORMAT_R16G16_SINT:
    case VK_FORMAT_R32_UINT: case VK_FORMAT_R32_SINT: case VK_FORMAT_R32_SFLOAT:
    case VK_FORMAT_B10G11R11_UFLOAT_PACK32: case VK_FORMAT_E5B9G9R9_UFLOAT_PACK32:
      return 4;
    case VK_FORMAT_R16G16B16A16_UNORM: case VK_FORMAT_R16G16B16A16_SNORM:
    case VK_FORMAT_R16G16B16A16_UINT: case VK_FORMAT_R16G16B16A16_SINT:
    case VK_FORMAT_R16G16B16A16_SFLOAT: case VK_FORMAT_R32G32_UINT: case VK_FORMAT_R32G32_SINT:
    case VK_FORMAT_R32G32_SFLOAT:
      return 8;
    case VK_FORMAT_R32G32B32A32_UINT: case VK_FORMAT_R32G32B32A32_SINT:
    case VK_FORMAT_R32G32B32A32_SFLOAT:
      return 16;
    default:
      return 0;
  }
}

uint32_t mip_dim(uint32_t d, uint32_t mip) { return std::max(1u, d >> mip); }

}  // namespace

// How each aspect of an image of format `f` lands in a buffer when copied out, per the Vulkan
// spec "Copying Data Between Buffers and Images": a depth aspect is copied alone, D16 as 16-bit
// values, D24 (X8_D24 and D24S8) as 32-bit words whose upper 8 bits are undefined, D32F as
// 32-bit floats; a stencil aspect alone, as one byte per texel; a block-compressed format as
// whole blocks (BC1 and BC4: 8 bytes per 4x4 block; BC2, BC3, BC5-BC7: 16). Empty for formats
// not read back (multi-planar, ETC2/ASTC, 3-byte texels...).
std::vector<CopyAspect> copy_aspects(VkFormat f) {
  constexpr VkImageAspectFlags kDepth = VK_IMAGE_ASPECT_DEPTH_BIT;
  constexpr VkImageAspectFlags kStencil = VK_IMAGE_ASPECT_STENCIL_BIT;
  constexpr VkImageAspectFlags kColor = VK_IMAGE_ASPECT_COLOR_BIT;
  switch (f) {
    case VK_FORMAT_D16_UNORM:
      return {{kDepth, 1, 1, 2}};
    case VK_FORMAT_X8_D24_UNORM_PACK32:
    case VK_FORMAT_D32_SFLOAT:
      return {{kDepth, 1, 1, 4}};
    case VK_FORMAT_S8_UINT:
      return {{kStencil, 1, 1, 1}};
    case VK_FORMAT_D16_UNORM_S8_UINT:
      return {{kDepth, 1, 1, 2}, {kStencil, 1, 1, 1}};
    case VK_FORMAT_D24_UNORM_S8_UINT:
    case VK_FORMAT_D32_SFLOAT_S8_UINT:
      return {{kDepth, 1, 1, 4}, {kStencil, 1, 1, 1}};
    case VK_FORMAT_BC1_RGB_UNORM_BLOCK: case VK_FORMAT_BC1_RGB_SRGB_BLOCK:
    case VK_FORMAT_BC1_RGBA_UNORM_BLOCK: case VK_FORMAT_BC1_RGBA_SRGB_BLOCK:
    case VK_FORMAT_BC4_UNORM_BLOCK: case VK_FORMAT_BC4_SNORM_BLOCK:
      return {{kColor, 4, 4, 8}};
    case VK_FORMAT_BC2_UNORM_BLOCK: case VK_FORMAT_BC2_SRGB_BLOCK:
    case VK_FORMAT_BC3_UNORM_BLOCK: case VK_FORMAT_BC3_SRGB_BLOCK:
    case VK_FORMAT_BC5_UNORM_BLOCK: case VK_FORMAT_BC5_SNORM_BLOCK:
    case VK_FORMAT_BC6H_UFLOAT_BLOCK: case VK_FORMAT_BC6H_SFLOAT_BLOCK:
    case VK_FORMAT_BC7_UNORM_BLOCK: case VK_FORMAT_BC7_SRGB_BLOCK:
      return {{kColor, 4, 4, 16}};
    default:
      if (const uint32_t texel = texel_bytes(f); texel != 0) return {{kColor, 1, 1, texel}};
      return {};
  }
}

uint64_t aspect_bytes(const CopyAspect& a, uint32_t width, uint32_t height, uint32_t depth) {
  // Rows and columns of whole blocks: a 5x5 BC1 mip is 2x2 blocks (the copy's extent may end at
  // the image edge without being a block multiple).
  const uint64_t cols = (uint64_t{width} + a.block_width - 1) / a.block_width;
  const uint64_t rows = (uint64_t{height} + a.block_height - 1) / a.block_height;
  return cols * rows * depth * a.block_bytes;
}

std::vector<SubresourceCopy> plan_copies(VkFormat format, VkExtent3D extent, uint32_t mips,
                                         uint32_t layers, uint64_t* total) {
  const auto aspects = copy_aspects(format);
  std::vector<SubresourceCopy> out;
  uint64_t offset = 0;
  for (uint32_t layer = 0; layer < layers; ++layer) {
    for (uint32_t mip = 0; mip < mips; ++mip) {
      for (const auto& a : aspects) {
        // bufferOffset must be a multiple of 4 for depth/stencil and of the texel block size
        // otherwise (VUID-VkBufferImageCopy-bufferOffset-*): 16 is a multiple of every one of
        // the sizes above. A 1-byte stencil plane would otherwise misalign what follows.
        offset = (offset + 15) / 16 * 16;
        const VkExtent3D e{mip_dim(extent.width, mip), mip_dim(extent.height, mip),
                           mip_dim(extent.depth, mip)};
        const uint64_t size = aspect_bytes(a, e.width, e.height, e.depth);
        out.push_back({a.aspect, mip, layer, e, offset, size});
        offset += size;
      }
    }
  }
  if (total != nullptr) *total = offset;
  return out;
}

}  // namespace tessera::layer
