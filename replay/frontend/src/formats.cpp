#include "formats.h"

#include <vulkan/vulkan_core.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace tessera::frontend {

namespace {

struct Entry {
  VkFormat format;
  uint32_t bytes;
  uint32_t block;  // 1 or 4
  bool convertible;
};

// Uncompressed colour formats by texel size (copies only need the size), the BC family, and
// the formats blits and clears convert (convertible).
constexpr Entry kColor[] = {
    {VK_FORMAT_R8_UNORM, 1, 1, true},
    {VK_FORMAT_R8_SRGB, 1, 1, true},
    {VK_FORMAT_R8_UINT, 1, 1, false},
    {VK_FORMAT_R8_SINT, 1, 1, false},
    {VK_FORMAT_R8_SNORM, 1, 1, false},
    {VK_FORMAT_R8G8_SNORM, 2, 1, false},
    {VK_FORMAT_R8G8_UINT, 2, 1, false},
    {VK_FORMAT_R8G8_SINT, 2, 1, false},
    {VK_FORMAT_B5G6R5_UNORM_PACK16, 2, 1, false},
    {VK_FORMAT_R4G4B4A4_UNORM_PACK16, 2, 1, false},
    {VK_FORMAT_B4G4R4A4_UNORM_PACK16, 2, 1, false},
    {VK_FORMAT_A4R4G4B4_UNORM_PACK16, 2, 1, false},
    {VK_FORMAT_A4B4G4R4_UNORM_PACK16, 2, 1, false},
    {VK_FORMAT_R5G5B5A1_UNORM_PACK16, 2, 1, false},
    {VK_FORMAT_B5G5R5A1_UNORM_PACK16, 2, 1, false},
    {VK_FORMAT_A1R5G5B5_UNORM_PACK16, 2, 1, false},
    {VK_FORMAT_R16_SNORM, 2, 1, false},
    {VK_FORMAT_R16_SINT, 2, 1, false},
    {VK_FORMAT_R8G8B8A8_SINT, 4, 1, false},
    {VK_FORMAT_A8B8G8R8_SNORM_PACK32, 4, 1, false},
    {VK_FORMAT_R16G16_SNORM, 4, 1, false},
    {VK_FORMAT_R16G16_UINT, 4, 1, false},
    {VK_FORMAT_R16G16_SINT, 4, 1, false},
    {VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, 4, 1, false},
    {VK_FORMAT_R16G16B16A16_SNORM, 8, 1, false},
    {VK_FORMAT_R16G16B16A16_UINT, 8, 1, false},
    {VK_FORMAT_R16G16B16A16_SINT, 8, 1, false},
    {VK_FORMAT_R32G32_SINT, 8, 1, false},
    {VK_FORMAT_R32G32B32A32_SINT, 16, 1, false},
    {VK_FORMAT_BC4_UNORM_BLOCK, 8, 4, false},
    {VK_FORMAT_BC4_SNORM_BLOCK, 8, 4, false},
    {VK_FORMAT_BC5_UNORM_BLOCK, 16, 4, false},
    {VK_FORMAT_BC5_SNORM_BLOCK, 16, 4, false},
    {VK_FORMAT_R8G8_UNORM, 2, 1, true},
    {VK_FORMAT_R8G8_SRGB, 2, 1, true},
    {VK_FORMAT_R5G6B5_UNORM_PACK16, 2, 1, false},
    {VK_FORMAT_R16_UNORM, 2, 1, false},
    {VK_FORMAT_R16_UINT, 2, 1, false},
    {VK_FORMAT_R16_SFLOAT, 2, 1, true},
    {VK_FORMAT_R8G8B8A8_UNORM, 4, 1, true},
    {VK_FORMAT_R8G8B8A8_SRGB, 4, 1, true},
    {VK_FORMAT_R8G8B8A8_UINT, 4, 1, false},
    {VK_FORMAT_R8G8B8A8_SNORM, 4, 1, false},
    {VK_FORMAT_B8G8R8A8_UNORM, 4, 1, true},
    {VK_FORMAT_B8G8R8A8_SRGB, 4, 1, true},
    {VK_FORMAT_A8B8G8R8_UNORM_PACK32, 4, 1, false},
    {VK_FORMAT_A8B8G8R8_SRGB_PACK32, 4, 1, false},
    {VK_FORMAT_A2B10G10R10_UNORM_PACK32, 4, 1, false},
    {VK_FORMAT_A2R10G10B10_UNORM_PACK32, 4, 1, false},
    {VK_FORMAT_B10G11R11_UFLOAT_PACK32, 4, 1, false},
    {VK_FORMAT_R16G16_UNORM, 4, 1, false},
    {VK_FORMAT_R16G16_SFLOAT, 4, 1, false},
    {VK_FORMAT_R32_UINT, 4, 1, true},
    {VK_FORMAT_R32_SINT, 4, 1, false},
    {VK_FORMAT_R32_SFLOAT, 4, 1, true},
    {VK_FORMAT_R16G16B16A16_UNORM, 8, 1, false},
    {VK_FORMAT_R16G16B16A16_SFLOAT, 8, 1, true},
    {VK_FORMAT_R32G32_SFLOAT, 8, 1, false},
    {VK_FORMAT_R32G32_UINT, 8, 1, false},
    {VK_FORMAT_R32G32B32_SFLOAT, 12, 1, false},
    {VK_FORMAT_R32G32B32A32_SFLOAT, 16, 1, false},
    {VK_FORMAT_R32G32B32A32_UINT, 16, 1, false},
    {VK_FORMAT_BC1_RGB_UNORM_BLOCK, 8, 4, false},
    {VK_FORMAT_BC1_RGB_SRGB_BLOCK, 8, 4, false},
    {VK_FORMAT_BC1_RGBA_UNORM_BLOCK, 8, 4, false},
    {VK_FORMAT_BC1_RGBA_SRGB_BLOCK, 8, 4, false},
    {VK_FORMAT_BC2_UNORM_BLOCK, 16, 4, false},
    {VK_FORMAT_BC2_SRGB_BLOCK, 16, 4, false},
    {VK_FORMAT_BC3_UNORM_BLOCK, 16, 4, false},
    {VK_FORMAT_BC3_SRGB_BLOCK, 16, 4, false},
    {VK_FORMAT_BC7_UNORM_BLOCK, 16, 4, false},
    {VK_FORMAT_BC7_SRGB_BLOCK, 16, 4, false},
};

bool is_srgb(uint32_t f) {
  return f == VK_FORMAT_R8_SRGB || f == VK_FORMAT_R8G8_SRGB || f == VK_FORMAT_R8G8B8A8_SRGB ||
         f == VK_FORMAT_B8G8R8A8_SRGB;
}

// sRGB transfer functions (Khronos Data Format spec section 13.3).
double srgb_to_linear(double c) {
  return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}
double linear_to_srgb(double l) {
  return l <= 0.0031308 ? l * 12.92 : 1.055 * std::pow(l, 1.0 / 2.4) - 0.055;
}

// UNORM conversion ("Conversion from Floating-Point to Normalized Fixed-Point"): clamp, scale,
// round to nearest.
uint32_t to_unorm(double v, uint32_t max) {
  if (!(v > 0.0)) return 0;  // also NaN
  if (v >= 1.0) return max;
  return static_cast<uint32_t>(std::floor(v * max + 0.5));
}

float as_float(uint32_t w) {
  float f;
  std::memcpy(&f, &w, 4);
  return f;
}

}  // namespace

uint16_t float_to_half(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint32_t sign = (x >> 16) & 0x8000u;
  const uint32_t exp = (x >> 23) & 0xffu;
  uint32_t man = x & 0x7fffffu;
  if (exp == 0xff) return static_cast<uint16_t>(sign | 0x7c00u | (man != 0 ? 0x200u : 0u));
  int32_t e = static_cast<int32_t>(exp) - 127 + 15;
  if (e >= 31) return static_cast<uint16_t>(sign | 0x7c00u);  // overflow: infinity
  if (e <= 0) {
    if (e < -10) return static_cast<uint16_t>(sign);  // underflow to zero
    man |= 0x800000u;
    const uint32_t shift = static_cast<uint32_t>(14 - e);
    uint32_t half = man >> shift;
    const uint32_t rem = man & ((1u << shift) - 1);
    const uint32_t mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1u) != 0)) ++half;  // round to nearest even
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = (static_cast<uint32_t>(e) << 10) | (man >> 13);
  const uint32_t rem = man & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (half & 1u) != 0)) ++half;  // may carry into exp
  return static_cast<uint16_t>(sign | half);
}

float half_to_float(uint16_t h) {
  const uint32_t sign = (h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t man = h & 0x3ffu;
  uint32_t x;
  if (exp == 0) {
    if (man == 0) {
      x = sign;
    } else {
      exp = 127 - 15 + 1;
      while ((man & 0x400u) == 0) {
        man <<= 1;
        --exp;
      }
      x = sign | (exp << 23) | ((man & 0x3ffu) << 13);
    }
  } else if (exp == 31) {
    x = sign | 0x7f800000u | (man << 13);
  } else {
    x = sign | ((exp + 127 - 15) << 23) | (man << 13);
  }
  return as_float(x);
}

bool describe_format(uint32_t format, FormatDesc* out) {
  FormatDesc d;
  d.format = format;
  switch (format) {
    case VK_FORMAT_D16_UNORM:
      d.depth = true, d.depth_bytes = 2, d.convertible = true;
      break;
    case VK_FORMAT_X8_D24_UNORM_PACK32:
      d.depth = true, d.depth_bytes = 4, d.convertible = true;
      break;
    case VK_FORMAT_D32_SFLOAT:
      d.depth = true, d.depth_bytes = 4, d.convertible = true;
      break;
    case VK_FORMAT_S8_UINT:
      d.stencil = true, d.convertible = true;
      break;
    case VK_FORMAT_D16_UNORM_S8_UINT:
      d.depth = true, d.stencil = true, d.depth_bytes = 2, d.convertible = true;
      break;
    case VK_FORMAT_D24_UNORM_S8_UINT:
      d.depth = true, d.stencil = true, d.depth_bytes = 4, d.convertible = true;
      break;
    case VK_FORMAT_D32_SFLOAT_S8_UINT:
      d.depth = true, d.stencil = true, d.depth_bytes = 4, d.convertible = true;
      break;
    default: {
      const auto* e = std::find_if(std::begin(kColor), std::end(kColor),
                                   [&](const Entry& x) { return x.format == format; });
      if (e == std::end(kColor)) return false;
      d.color = true;
      d.block_bytes = e->bytes;
      d.block_w = d.block_h = e->block;
      d.convertible = e->convertible;
    }
  }
  *out = d;
  return true;
}

uint32_t aspect_block_bytes(const FormatDesc& f, Aspect aspect) {
  if (aspect == Aspect::Stencil) return f.stencil ? 1 : 0;
  return f.color ? f.block_bytes : f.depth_bytes;
}
uint32_t aspect_block_w(const FormatDesc& f, Aspect aspect) {
  return aspect == Aspect::ColorOrDepth && f.color ? f.block_w : 1;
}
uint32_t aspect_block_h(const FormatDesc& f, Aspect aspect) {
  return aspect == Aspect::ColorOrDepth && f.color ? f.block_h : 1;
}

uint64_t aspect_bytes(const FormatDesc& f, Aspect aspect, uint32_t w, uint32_t h, uint32_t d) {
  const uint64_t bw = aspect_block_w(f, aspect), bh = aspect_block_h(f, aspect);
  return ((w + bw - 1) / bw) * ((h + bh - 1) / bh) * uint64_t{d} * aspect_block_bytes(f, aspect);
}

uint32_t format_aspects(const FormatDesc& f) {
  uint32_t a = 0;
  if (f.color) a |= VK_IMAGE_ASPECT_COLOR_BIT;
  if (f.depth) a |= VK_IMAGE_ASPECT_DEPTH_BIT;
  if (f.stencil) a |= VK_IMAGE_ASPECT_STENCIL_BIT;
  return a;
}

bool is_integer_format(uint32_t format) {
  switch (format) {
    case VK_FORMAT_R8_UINT:
    case VK_FORMAT_R16_UINT:
    case VK_FORMAT_R8G8B8A8_UINT:
    case VK_FORMAT_R32_UINT:
    case VK_FORMAT_R32_SINT:
    case VK_FORMAT_R32G32_UINT:
    case VK_FORMAT_R32G32B32A32_UINT:
    case VK_FORMAT_S8_UINT:
      return true;
    default:
      return false;
  }
}

void decode_texel(const FormatDesc& f, Aspect aspect, const uint8_t* t, double out[4]) {
  out[0] = out[1] = out[2] = 0.0;
  out[3] = 1.0;
  if (aspect == Aspect::Stencil) {
    out[0] = t[0];
    return;
  }
  switch (f.format) {
    case VK_FORMAT_D16_UNORM:
    case VK_FORMAT_D16_UNORM_S8_UINT: {
      uint16_t v;
      std::memcpy(&v, t, 2);
      out[0] = v / 65535.0;
      return;
    }
    case VK_FORMAT_X8_D24_UNORM_PACK32:
    case VK_FORMAT_D24_UNORM_S8_UINT: {
      uint32_t v;
      std::memcpy(&v, t, 4);
      out[0] = (v & 0xffffffu) / 16777215.0;  // the upper 8 bits are undefined
      return;
    }
    case VK_FORMAT_D32_SFLOAT:
    case VK_FORMAT_D32_SFLOAT_S8_UINT:
    case VK_FORMAT_R32_SFLOAT: {
      float v;
      std::memcpy(&v, t, 4);
      out[0] = v;
      return;
    }
    case VK_FORMAT_R32_UINT: {
      uint32_t v;
      std::memcpy(&v, t, 4);
      out[0] = v;
      return;
    }
    case VK_FORMAT_R16_SFLOAT:
    case VK_FORMAT_R16G16B16A16_SFLOAT: {
      const uint32_t n = f.format == VK_FORMAT_R16_SFLOAT ? 1 : 4;
      for (uint32_t i = 0; i < n; ++i) {
        uint16_t h;
        std::memcpy(&h, t + 2 * i, 2);
        out[i] = half_to_float(h);
      }
      return;
    }
    case VK_FORMAT_B8G8R8A8_UNORM:
    case VK_FORMAT_B8G8R8A8_SRGB:
      out[0] = t[2] / 255.0, out[1] = t[1] / 255.0, out[2] = t[0] / 255.0, out[3] = t[3] / 255.0;
      break;
    default: {  // R8, RG8, RGBA8 UNORM / SRGB
      for (uint32_t i = 0; i < f.block_bytes && i < 4; ++i) out[i] = t[i] / 255.0;
      break;
    }
  }
  if (is_srgb(f.format)) {
    for (int i = 0; i < 3; ++i) out[i] = srgb_to_linear(out[i]);  // alpha is linear
  }
}

void encode_texel(const FormatDesc& f, Aspect aspect, const double in[4], uint8_t* t) {
  if (aspect == Aspect::Stencil) {
    t[0] = static_cast<uint8_t>(std::clamp(in[0], 0.0, 255.0));
    return;
  }
  switch (f.format) {
    case VK_FORMAT_D16_UNORM:
    case VK_FORMAT_D16_UNORM_S8_UINT: {
      const auto v = static_cast<uint16_t>(to_unorm(in[0], 65535));
      std::memcpy(t, &v, 2);
      return;
    }
    case VK_FORMAT_X8_D24_UNORM_PACK32:
    case VK_FORMAT_D24_UNORM_S8_UINT: {
      const uint32_t v = to_unorm(in[0], 16777215);
      std::memcpy(t, &v, 4);
      return;
    }
    case VK_FORMAT_D32_SFLOAT:
    case VK_FORMAT_D32_SFLOAT_S8_UINT:
    case VK_FORMAT_R32_SFLOAT: {
      double c = in[0];
      // Depth formats hold [0, 1] ("Depth Clear Values"); R32F any float.
      if (f.depth) c = std::clamp(c, 0.0, 1.0);
      const auto v = static_cast<float>(c);
      std::memcpy(t, &v, 4);
      return;
    }
    case VK_FORMAT_R32_UINT: {
      const auto v = static_cast<uint32_t>(std::clamp(in[0], 0.0, 4294967295.0));
      std::memcpy(t, &v, 4);
      return;
    }
    case VK_FORMAT_R16_SFLOAT:
    case VK_FORMAT_R16G16B16A16_SFLOAT: {
      const uint32_t n = f.format == VK_FORMAT_R16_SFLOAT ? 1 : 4;
      for (uint32_t i = 0; i < n; ++i) {
        const uint16_t h = float_to_half(static_cast<float>(in[i]));
        std::memcpy(t + 2 * i, &h, 2);
      }
      return;
    }
    default:
      break;
  }
  double c[4] = {in[0], in[1], in[2], in[3]};
  if (is_srgb(f.format)) {
    for (int i = 0; i < 3; ++i) c[i] = linear_to_srgb(std::clamp(c[i], 0.0, 1.0));
  }
  if (f.format == VK_FORMAT_B8G8R8A8_UNORM || f.format == VK_FORMAT_B8G8R8A8_SRGB) {
    t[0] = static_cast<uint8_t>(to_unorm(c[2], 255));
    t[1] = static_cast<uint8_t>(to_unorm(c[1], 255));
    t[2] = static_cast<uint8_t>(to_unorm(c[0], 255));
    t[3] = static_cast<uint8_t>(to_unorm(c[3], 255));
    return;
  }
  for (uint32_t i = 0; i < f.block_bytes && i < 4; ++i) {
    t[i] = static_cast<uint8_t>(to_unorm(c[i], 255));
  }
}

void clear_value_texel(const FormatDesc& f, Aspect aspect, const capture::ClearValue& v,
                       double out[4]) {
  if (aspect == Aspect::Stencil) {
    out[0] = v.words[1];  // VkClearDepthStencilValue: float depth, uint32 stencil
    out[1] = out[2] = 0, out[3] = 1;
    return;
  }
  if (f.depth) {
    out[0] = as_float(v.words[0]);
    out[1] = out[2] = 0, out[3] = 1;
    return;
  }
  for (int i = 0; i < 4; ++i) {
    out[i] = is_integer_format(f.format) ? static_cast<double>(v.words[i]) : as_float(v.words[i]);
  }
}

}  // namespace tessera::frontend
