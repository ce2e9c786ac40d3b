// Texel formats the texture unit understands, named by their VkFormat value, and their decode to
// RGBA float (sRGB decode and BC decode included).
#pragma once

#include <vulkan/vulkan_core.h>

#include <array>
#include <cstdint>
#include <string>

namespace tessera::texture {

using Rgba = std::array<float, 4>;

enum class FormatKind : uint8_t { Unorm8, Float16, Float32, Uint32, Unorm16Depth, Bc1, Bc2, Bc3 };

struct FormatInfo {
  VkFormat format = VK_FORMAT_UNDEFINED;
  FormatKind kind = FormatKind::Unorm8;
  uint32_t components = 0;    // stored components (1..4)
  uint32_t texel_bytes = 0;   // bytes per texel; 0 for block-compressed formats
  uint32_t block_bytes = 0;   // bytes of one 4x4 block (16 * texel_bytes, or 8/16 for BC)
  bool srgb = false;          // RGB channels are sRGB-encoded (alpha never is)
  bool bgra = false;          // B8G8R8A8: memory order B, G, R, A
  bool compressed = false;    // BC1-BC3: memory already holds 4x4 blocks
  bool integer = false;       // R32_UINT: fetch returns integers; no filtering
  bool depth = false;         // depth aspect (D16/D32F)
};

// Returns false when the texture unit does not support `format`.
bool format_info(VkFormat format, FormatInfo* info);
std::string format_name(VkFormat format);

// sRGB EOTF of the Vulkan spec ("sRGB transfer functions", Khronos Data Format spec 13.3).
float srgb_to_linear(float c);
float half_to_float(uint16_t h);

// Decodes one uncompressed texel from its bytes to RGBA (missing G, B -> 0, missing A -> 1, per
// the spec's "Conversion to RGBA"). sRGB decode is applied to R, G, B. For integer formats
// (R32_UINT) the four floats hold the 32-bit integer patterns (R, 0, 0, 1), which the shader
// adapter hands on unchanged; integer images are only fetched or sampled with NEAREST.
Rgba decode_texel(const FormatInfo& info, const uint8_t* texel);

// Decodes one 8 or 16-byte BC1/BC2/BC3 block to 16 RGBA texels, out[y * 4 + x].
void decode_bc_block(const FormatInfo& info, const uint8_t* block, Rgba out[16]);

}  // namespace tessera::texture
