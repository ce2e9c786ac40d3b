#include "tessera/pipeline/pixel_format.h"

#include <vulkan/vulkan_core.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "format_layout.h"
#include "tessera/pipeline/numeric.h"

namespace tessera::pipeline {
namespace {

using detail::Numeric;

// Depth aspect of a depth format: bits of the UNORM value, or 0 for a 32-bit float.
uint32_t unorm_depth_bits(uint32_t format) {
  switch (format) {
    case VK_FORMAT_D16_UNORM:
    case VK_FORMAT_D16_UNORM_S8_UINT:
      return 16;
    case VK_FORMAT_X8_D24_UNORM_PACK32:
    case VK_FORMAT_D24_UNORM_S8_UINT:
      return 24;
    default:
      return 0;
  }
}

bool depth_stencil_format(uint32_t vk_format, PixelFormat* out) {
  uint32_t bytes = 0;
  bool depth = true, stencil = false, is_float = false;
  switch (vk_format) {
    case VK_FORMAT_D16_UNORM: bytes = 2; break;
    case VK_FORMAT_X8_D24_UNORM_PACK32: bytes = 4; break;
    case VK_FORMAT_D32_SFLOAT: bytes = 4, is_float = true; break;
    case VK_FORMAT_S8_UINT: bytes = 1, depth = false, stencil = true; break;
    case VK_FORMAT_D16_UNORM_S8_UINT: bytes = 2, stencil = true; break;
    case VK_FORMAT_D24_UNORM_S8_UINT: bytes = 4, stencil = true; break;
    case VK_FORMAT_D32_SFLOAT_S8_UINT: bytes = 4, stencil = true, is_float = true; break;
    default: return false;
  }
  out->format = vk_format;
  out->bytes = bytes;
  out->components = 1;
  out->depth = depth;
  out->stencil = stencil;
  out->is_float = is_float;
  // A stencil-only format holds an unsigned integer.
  out->integer = !depth;
  return true;
}

uint32_t sign_extend(uint32_t field, uint32_t bits) {
  if (bits >= 32) return field;
  const uint32_t sign = 1u << (bits - 1);
  return (field ^ sign) - sign;
}

uint32_t encode_integer(float f, uint32_t bits, bool is_signed) {
  if (std::isnan(f)) return 0;
  // Limits in double: exact for 32 bits, where float's own rounding would overflow the range.
  const double lo = is_signed ? -std::ldexp(1.0, static_cast<int>(bits) - 1) : 0.0;
  const double hi = is_signed ? std::ldexp(1.0, static_cast<int>(bits) - 1) - 1 : std::ldexp(1.0, static_cast<int>(bits)) - 1;
  const auto value = static_cast<int64_t>(std::nearbyint(std::clamp(static_cast<double>(f), lo, hi)));
  const uint64_t mask = bits >= 32 ? 0xffffffffull : ((1ull << bits) - 1);
  return static_cast<uint32_t>(static_cast<uint64_t>(value) & mask);
}

}  // namespace

bool pixel_format(uint32_t vk_format, PixelFormat* out) {
  if (out == nullptr) return false;
  *out = PixelFormat{};
  if (depth_stencil_format(vk_format, out)) return true;
  const detail::FormatLayout* layout = detail::format_layout(vk_format);
  if (layout == nullptr || layout->numeric == Numeric::Uscaled || layout->numeric == Numeric::Sscaled)
    return false;
  out->format = vk_format;
  out->bytes = layout->bytes;
  out->components = layout->components;
  out->srgb = layout->numeric == Numeric::Srgb;
  out->integer = layout->numeric == Numeric::Uint || layout->numeric == Numeric::Sint;
  out->is_float = layout->numeric == Numeric::Sfloat;
  out->bgra = layout->bgra;
  return true;
}

void decode_color(const PixelFormat& format, const uint8_t* src, float out[4]) {
  float value[4] = {0, 0, 0, 1};
  if (format.depth) {
    value[0] = decode_depth(format, src);
  } else if (format.stencil) {
    value[0] = static_cast<float>(src[0]);
  } else if (const detail::FormatLayout* layout = detail::format_layout(format.format)) {
    for (uint32_t i = 0; i < layout->components; ++i) {
      const detail::ComponentLayout& c = layout->component[i];
      const uint32_t field = detail::read_field(src, c.bit_offset, c.bits);
      float& v = value[c.channel];
      switch (layout->numeric) {
        case Numeric::Unorm: v = unorm_to_float(field, c.bits); break;
        case Numeric::Srgb:
          // Alpha is never sRGB-encoded (spec "Conversion to RGBA").
          v = unorm_to_float(field, c.bits);
          if (c.channel != 3) v = srgb_to_linear(v);
          break;
        case Numeric::Snorm: v = snorm_to_float(field, c.bits); break;
        case Numeric::Uscaled:
        case Numeric::Uint: v = static_cast<float>(field); break;
        case Numeric::Sscaled:
        case Numeric::Sint: v = static_cast<float>(static_cast<int32_t>(sign_extend(field, c.bits))); break;
        case Numeric::Sfloat:
          v = c.bits == 16 ? half_to_float(static_cast<uint16_t>(field)) : std::bit_cast<float>(field);
          break;
      }
    }
  }
  for (int i = 0; i < 4; ++i) out[i] = value[i];
}

void encode_color(const PixelFormat& format, const float in[4], uint8_t* dst) {
  if (format.depth) {
    encode_depth(format, in[0], dst);
    return;
  }
  if (format.stencil) {
    dst[0] = static_cast<uint8_t>(encode_integer(in[0], 8, false));
    return;
  }
  const detail::FormatLayout* layout = detail::format_layout(format.format);
  if (layout == nullptr) return;
  for (uint32_t i = 0; i < layout->components; ++i) {
    const detail::ComponentLayout& c = layout->component[i];
    const float v = in[c.channel];
    uint32_t field = 0;
    switch (layout->numeric) {
      case Numeric::Unorm: field = float_to_unorm(v, c.bits); break;
      case Numeric::Srgb:
        field = float_to_unorm(c.channel != 3 ? linear_to_srgb(std::clamp(v, 0.0f, 1.0f)) : v, c.bits);
        break;
      case Numeric::Snorm: field = float_to_snorm(v, c.bits); break;
      case Numeric::Uscaled:
      case Numeric::Uint: field = encode_integer(v, c.bits, false); break;
      case Numeric::Sscaled:
      case Numeric::Sint: field = encode_integer(v, c.bits, true); break;
      case Numeric::Sfloat: field = c.bits == 16 ? float_to_half(v) : std::bit_cast<uint32_t>(v); break;
    }
    detail::write_field(dst, c.bit_offset, c.bits, field);
  }
}

float decode_depth(const PixelFormat& format, const uint8_t* src) {
  if (!format.depth) return 0;
  if (const uint32_t bits = unorm_depth_bits(format.format)) {
    return unorm_to_float(detail::read_field(src, 0, bits), bits);
  }
  float depth = 0;
  std::memcpy(&depth, src, sizeof depth);
  return depth;
}

void encode_depth(const PixelFormat& format, float depth, uint8_t* dst) {
  if (!format.depth) return;
  if (const uint32_t bits = unorm_depth_bits(format.format)) {
    // Whole aspect written (D24: the high byte as 0), so the bytes are deterministic.
    std::memset(dst, 0, format.bytes);
    detail::write_field(dst, 0, bits, float_to_unorm(depth, bits));
    return;
  }
  std::memcpy(dst, &depth, sizeof depth);
}

float quantize_depth(const PixelFormat& format, float depth) {
  if (!format.depth) return depth;
  uint8_t bytes[4] = {};
  encode_depth(format, depth, bytes);
  return decode_depth(format, bytes);
}

}  // namespace tessera::pipeline
