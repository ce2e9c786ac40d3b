// Attachment pixel formats: decode and encode of one colour pixel, and of the depth aspect, as the
// colour/depth attachment stages read and write them. Vulkan spec "Fixed-Point Data Conversions",
// "Conversion to RGBA", the sRGB transfer functions, and "Copying Data Between Buffers and Images"
// for the byte layout of a depth aspect.
#pragma once

#include <cstdint>

namespace tessera::pipeline {

struct PixelFormat {
  uint32_t format = 0;      // the VkFormat value
  uint32_t bytes = 0;       // bytes of one pixel; for depth formats, of the depth aspect alone
  uint32_t components = 0;  // stored colour components (1 for a depth or stencil-only format)
  bool depth = false, stencil = false, srgb = false, integer = false, is_float = false, bgra = false;
};

// Fills *out and returns true for the formats below; false (out reset) otherwise.
// Colour: R8 .. R8G8B8A8, B8G8R8, B8G8R8A8 and A8B8G8R8_PACK32 in UNORM, SNORM, UINT, SINT and
// SRGB; A2B10G10R10 / A2R10G10B10_PACK32 in UNORM, SNORM, UINT and SINT; R16 .. R16G16B16A16 in
// UNORM, SNORM, UINT, SINT and SFLOAT; R32 .. R32G32B32A32 in UINT, SINT and SFLOAT; R5G6B5 /
// B5G6R5_UNORM_PACK16. (USCALED / SSCALED are vertex formats only.) `bgra` marks the formats
// whose name puts B before R (B8G8R8A8, A2R10G10B10, B5G6R5).
// Depth/stencil: D16_UNORM (2 B), X8_D24_UNORM_PACK32 (4 B), D32_SFLOAT (4 B), S8_UINT (1 B,
// stencil only), D16_UNORM_S8_UINT (2 B), D24_UNORM_S8_UINT (4 B) and D32_SFLOAT_S8_UINT (4 B).
// For a combined format `bytes` is the depth aspect laid out as a buffer copy of that aspect:
// D24 in the low 24 bits of a 32-bit word, D32 as a float; the stencil aspect is always 1 byte.
bool pixel_format(uint32_t vk_format, PixelFormat* out);

// One pixel to RGBA float, missing G, B -> 0 and A -> 1 (spec "Conversion to RGBA").
// UNORM / SNORM per the fixed-point conversions; SRGB: R, G, B decoded to linear, alpha linear.
// UINT / SINT: the integer value converted to float (exact up to 2^24 in magnitude; wider values
// round to the nearest float), so integer attachments are only meant to be copied or compared.
// Depth formats: (depth, 0, 0, 1); S8_UINT: (stencil, 0, 0, 1). Unsupported: (0, 0, 0, 1).
void decode_color(const PixelFormat& format, const uint8_t* src, float out[4]);

// RGBA float to one pixel. UNORM: clamp to [0, 1], sRGB OETF for the R, G, B of SRGB formats,
// then round to nearest ("Conversion from Floating-Point to Normalized Fixed-Point"); SNORM
// likewise on [-1, 1]. SFLOAT16: round to nearest even, overflow to infinity, NaN stays NaN.
// SFLOAT32: the float bits. UINT / SINT: NaN -> 0, otherwise clamped to the component's range and
// rounded to nearest (ties to even). Depth formats: encode_depth(in[0]). Writes format.bytes
// bytes; nothing for an unsupported format.
void encode_color(const PixelFormat& format, const float in[4], uint8_t* dst);

// Depth aspect (format.bytes bytes) to a depth value: UNORM d / (2^b - 1), SFLOAT the float.
// 0 for a format without depth.
float decode_depth(const PixelFormat& format, const uint8_t* src);
// Depth value to the depth aspect bytes. UNORM formats clamp to [0, 1] and round to nearest
// (0.5 -> 0x800000 in D24; the 8 high bits of a D24 word are written as 0); D32_SFLOAT stores the
// float unchanged (the viewport depth clamp happens before, spec "Depth Test").
void encode_depth(const PixelFormat& format, float depth, uint8_t* dst);
// The depth value a fragment's depth becomes when stored: decode_depth(encode_depth(depth)). The
// depth test compares this quantized value with the stored one (spec "Depth Comparison": "If
// the depth attachment has a fixed-point format, za is converted to fixed point").
float quantize_depth(const PixelFormat& format, float depth);

}  // namespace tessera::pipeline
