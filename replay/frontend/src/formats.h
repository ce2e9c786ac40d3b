// Texel layouts of the formats the front end holds in images and moves with transfers, and the
// texel conversions blits and clears need ("Copying Data Between Buffers and Images" gives the
// per-aspect layout; "Image Operations Overview" the conversions).
#pragma once

#include <cstdint>

#include "tessera/frontend/frame.h"

namespace tessera::frontend {

struct FormatDesc {
  uint32_t format = 0;
  uint32_t block_bytes = 0;        // colour: bytes of one texel, or of one 4x4 block (BC)
  uint32_t block_w = 1, block_h = 1;
  bool color = false, depth = false, stencil = false;
  uint32_t depth_bytes = 0;        // bytes per texel of the depth aspect as laid out in a buffer
  bool convertible = false;        // blits and clears can decode/encode its texels
};

// False when the front end does not know the format's layout.
bool describe_format(uint32_t format, FormatDesc* out);

// Bytes of one texel (or block) of an aspect, 0 when the format has no such aspect.
uint32_t aspect_block_bytes(const FormatDesc& f, Aspect aspect);
uint32_t aspect_block_w(const FormatDesc& f, Aspect aspect);
uint32_t aspect_block_h(const FormatDesc& f, Aspect aspect);
// Bytes of one tightly packed subresource of that aspect and extent.
uint64_t aspect_bytes(const FormatDesc& f, Aspect aspect, uint32_t w, uint32_t h, uint32_t d);
// Aspects (VkImageAspectFlags) of a format.
uint32_t format_aspects(const FormatDesc& f);

// Texel values as doubles: normalised/float formats in linear space (sRGB decoded), integer
// formats and stencil as their integer values; missing components G, B = 0, A = 1.
void decode_texel(const FormatDesc& f, Aspect aspect, const uint8_t* texel, double out[4]);
// The inverse, with the spec's conversions: round-to-nearest for UNORM, clamp, sRGB encode,
// round-to-nearest-even for 16-bit floats.
void encode_texel(const FormatDesc& f, Aspect aspect, const double in[4], uint8_t* texel);
// A VkClearColorValue / VkClearDepthStencilValue (raw words) as texel values for encode_texel:
// float words for float and normalised formats, uint words for integer formats.
void clear_value_texel(const FormatDesc& f, Aspect aspect, const capture::ClearValue& v,
                       double out[4]);
bool is_integer_format(uint32_t format);

uint16_t float_to_half(float f);
float half_to_float(uint16_t h);

}  // namespace tessera::frontend
