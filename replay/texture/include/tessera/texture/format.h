// Texel formats the texture unit understands, named by their VkFormat value, and their decode to
// RGBA (Vulkan spec "Format Conversion" and "Conversion to RGBA": sRGB, BC and packed formats
// included).
#pragma once

#include <vulkan/vulkan_core.h>

#include <array>
#include <cstdint>
#include <string>

namespace tessera::texture {

using Rgba = std::array<float, 4>;
using Rgba8 = std::array<uint8_t, 4>;

// How the components of a texel are stored. Plain kinds store `components` components of
// `texel_bytes / components` bytes each, in R, G, B, A order (B, G, R, A when `bgra`); Packed
// formats are decoded by their VkFormat; BC kinds are 4x4 blocks.
enum class FormatKind : uint8_t {
  Unorm8, Snorm8, Unorm16, Snorm16, Float16, Float32, Uint, Sint, Unorm16Depth, Packed,
  Bc1, Bc2, Bc3, Bc4, Bc5, Bc7,
};

struct FormatInfo {
  VkFormat format = VK_FORMAT_UNDEFINED;
  FormatKind kind = FormatKind::Unorm8;
  uint32_t components = 0;    // components the format has (1..4), before "Conversion to RGBA"
  uint32_t texel_bytes = 0;   // bytes per texel; 0 for block-compressed formats
  uint32_t block_bytes = 0;   // bytes of one 4x4 block (16 * texel_bytes, or 8/16 for BC)
  bool srgb = false;          // RGB channels are sRGB-encoded (alpha never is)
  bool bgra = false;          // memory order B, G, R(, A): B8G8R8A8
  bool compressed = false;    // BC1-BC5, BC7: memory already holds 4x4 blocks
  bool integer = false;       // UINT/SINT: texels are integer bit patterns; no filtering
  bool snorm = false;         // BC4/BC5 SNORM
  bool depth = false;         // depth aspect (D16/D32F)
};

// Returns false when the texture unit does not support `format`.
bool format_info(VkFormat format, FormatInfo* info);
std::string format_name(VkFormat format);

// sRGB EOTF of the Vulkan spec ("sRGB transfer functions", Khronos Data Format spec 13.3).
float srgb_to_linear(float c);
float half_to_float(uint16_t h);

// Decodes one uncompressed texel from its bytes to RGBA, missing G, B -> 0 and missing A -> 1
// (spec "Conversion to RGBA"). sRGB decode is applied to R, G, B. For integer formats (UINT,
// SINT) the four floats hold 32-bit integer patterns (SINT sign-extended; missing alpha is the
// integer 1), which the shader adapter hands on unchanged; integer images are only fetched or
// sampled with NEAREST.
Rgba decode_texel(const FormatInfo& info, const uint8_t* texel);

// Decodes one 8 or 16-byte BC1-BC5 or BC7 block to 16 RGBA texels, out[y * 4 + x].
void decode_bc_block(const FormatInfo& info, const uint8_t* block, Rgba out[16]);

// Decodes one 16-byte BC7 block (Khronos Data Format spec "BC7": all eight modes) to 16 RGBA8
// texels, out[y * 4 + x], before any sRGB decode. The reserved mode (byte 0 is 0) gives
// transparent black.
void decode_bc7_block(const uint8_t* block, Rgba8 out[16]);

}  // namespace tessera::texture
