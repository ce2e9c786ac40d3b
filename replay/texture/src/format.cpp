#include "tessera/texture/format.h"

#include <cmath>
#include <cstring>

namespace tessera::texture {

bool format_info(VkFormat format, FormatInfo* info) {
  FormatInfo f;
  f.format = format;
  auto plain = [&f](FormatKind kind, uint32_t comps, uint32_t bytes) {
    f.kind = kind;
    f.components = comps;
    f.texel_bytes = bytes;
    f.block_bytes = 16 * bytes;
  };
  auto bc = [&f](FormatKind kind, uint32_t bytes) {
    f.kind = kind;
    f.components = 4;
    f.block_bytes = bytes;
    f.compressed = true;
  };
  switch (format) {
    case VK_FORMAT_R8_SRGB: f.srgb = true; [[fallthrough]];
    case VK_FORMAT_R8_UNORM: plain(FormatKind::Unorm8, 1, 1); break;
    case VK_FORMAT_R8G8_SRGB: f.srgb = true; [[fallthrough]];
    case VK_FORMAT_R8G8_UNORM: plain(FormatKind::Unorm8, 2, 2); break;
    case VK_FORMAT_R8G8B8A8_SRGB: f.srgb = true; [[fallthrough]];
    case VK_FORMAT_R8G8B8A8_UNORM: plain(FormatKind::Unorm8, 4, 4); break;
    case VK_FORMAT_B8G8R8A8_SRGB: f.srgb = true; [[fallthrough]];
    case VK_FORMAT_B8G8R8A8_UNORM: plain(FormatKind::Unorm8, 4, 4); f.bgra = true; break;
    case VK_FORMAT_R16_SFLOAT: plain(FormatKind::Float16, 1, 2); break;
    case VK_FORMAT_R16G16B16A16_SFLOAT: plain(FormatKind::Float16, 4, 8); break;
    case VK_FORMAT_R32_SFLOAT: plain(FormatKind::Float32, 1, 4); break;
    case VK_FORMAT_D32_SFLOAT: plain(FormatKind::Float32, 1, 4); f.depth = true; break;
    case VK_FORMAT_D16_UNORM: plain(FormatKind::Unorm16Depth, 1, 2); f.depth = true; break;
    case VK_FORMAT_R32_UINT: plain(FormatKind::Uint32, 1, 4); f.integer = true; break;
    case VK_FORMAT_BC1_RGB_SRGB_BLOCK:
    case VK_FORMAT_BC1_RGBA_SRGB_BLOCK: f.srgb = true; [[fallthrough]];
    case VK_FORMAT_BC1_RGB_UNORM_BLOCK:
    case VK_FORMAT_BC1_RGBA_UNORM_BLOCK: bc(FormatKind::Bc1, 8); break;
    case VK_FORMAT_BC2_SRGB_BLOCK: f.srgb = true; [[fallthrough]];
    case VK_FORMAT_BC2_UNORM_BLOCK: bc(FormatKind::Bc2, 16); break;
    case VK_FORMAT_BC3_SRGB_BLOCK: f.srgb = true; [[fallthrough]];
    case VK_FORMAT_BC3_UNORM_BLOCK: bc(FormatKind::Bc3, 16); break;
    default: return false;
  }
  *info = f;
  return true;
}

std::string format_name(VkFormat format) {
  switch (format) {
    case VK_FORMAT_R8_UNORM: return "R8_UNORM";
    case VK_FORMAT_R8_SRGB: return "R8_SRGB";
    case VK_FORMAT_R8G8_UNORM: return "R8G8_UNORM";
    case VK_FORMAT_R8G8_SRGB: return "R8G8_SRGB";
    case VK_FORMAT_R8G8B8A8_UNORM: return "R8G8B8A8_UNORM";
    case VK_FORMAT_R8G8B8A8_SRGB: return "R8G8B8A8_SRGB";
    case VK_FORMAT_B8G8R8A8_UNORM: return "B8G8R8A8_UNORM";
    case VK_FORMAT_B8G8R8A8_SRGB: return "B8G8R8A8_SRGB";
    case VK_FORMAT_R16_SFLOAT: return "R16_SFLOAT";
    case VK_FORMAT_R16G16B16A16_SFLOAT: return "R16G16B16A16_SFLOAT";
    case VK_FORMAT_R32_SFLOAT: return "R32_SFLOAT";
    case VK_FORMAT_R32_UINT: return "R32_UINT";
    case VK_FORMAT_D16_UNORM: return "D16_UNORM";
    case VK_FORMAT_D32_SFLOAT: return "D32_SFLOAT";
    case VK_FORMAT_BC1_RGB_UNORM_BLOCK: return "BC1_RGB_UNORM_BLOCK";
    case VK_FORMAT_BC1_RGB_SRGB_BLOCK: return "BC1_RGB_SRGB_BLOCK";
    case VK_FORMAT_BC1_RGBA_UNORM_BLOCK: return "BC1_RGBA_UNORM_BLOCK";
    case VK_FORMAT_BC1_RGBA_SRGB_BLOCK: return "BC1_RGBA_SRGB_BLOCK";
    case VK_FORMAT_BC2_UNORM_BLOCK: return "BC2_UNORM_BLOCK";
    case VK_FORMAT_BC2_SRGB_BLOCK: return "BC2_SRGB_BLOCK";
    case VK_FORMAT_BC3_UNORM_BLOCK: return "BC3_UNORM_BLOCK";
    case VK_FORMAT_BC3_SRGB_BLOCK: return "BC3_SRGB_BLOCK";
    default: return "VkFormat(" + std::to_string(static_cast<int>(format)) + ")";
  }
}

float srgb_to_linear(float c) {
  return c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f);
}

float half_to_float(uint16_t h) {
  const uint32_t sign = (h >> 15) & 1u;
  const uint32_t exponent = (h >> 10) & 31u;
  const uint32_t mantissa = h & 1023u;
  float magnitude;
  if (exponent == 0) {
    magnitude = std::ldexp(static_cast<float>(mantissa), -24);  // subnormal
  } else if (exponent == 31) {
    magnitude = mantissa ? NAN : INFINITY;
  } else {
    magnitude = std::ldexp(static_cast<float>(mantissa | 1024u), static_cast<int>(exponent) - 25);
  }
  return sign ? -magnitude : magnitude;
}

namespace {

uint16_t load16(const uint8_t* p) { return static_cast<uint16_t>(p[0] | (p[1] << 8)); }
uint32_t load32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);  // little-endian host, like the captured data
  return v;
}

void apply_srgb(const FormatInfo& info, Rgba* c) {
  if (!info.srgb) return;
  const uint32_t n = info.components < 3 ? info.components : 3;
  for (uint32_t i = 0; i < n; ++i) (*c)[i] = srgb_to_linear((*c)[i]);
}

Rgba rgb565(uint16_t c) {
  return {static_cast<float>((c >> 11) & 31u) / 31.0f, static_cast<float>((c >> 5) & 63u) / 63.0f,
          static_cast<float>(c & 31u) / 31.0f, 1.0f};
}

// BC1 colour block (Khronos Data Format spec, "BC1 with no alpha"/"BC1 with alpha"). BC2 and BC3
// always use the four-colour mode; BC1 uses three colours + transparent black when c0 <= c1.
void decode_bc_color(const uint8_t* block, bool allow_three_color, bool bc1_rgba, Rgba out[16]) {
  const uint16_t c0 = load16(block);
  const uint16_t c1 = load16(block + 2);
  const uint32_t bits = load32(block + 4);
  const Rgba e0 = rgb565(c0);
  const Rgba e1 = rgb565(c1);
  Rgba palette[4] = {e0, e1, {}, {}};
  if (c0 > c1 || !allow_three_color) {
    for (int i = 0; i < 3; ++i) {
      palette[2][i] = (2.0f * e0[i] + e1[i]) / 3.0f;
      palette[3][i] = (e0[i] + 2.0f * e1[i]) / 3.0f;
    }
    palette[2][3] = palette[3][3] = 1.0f;
  } else {
    for (int i = 0; i < 3; ++i) palette[2][i] = (e0[i] + e1[i]) / 2.0f;
    palette[2][3] = 1.0f;
    // BC1_RGB has no alpha: index 3 is opaque black there, transparent black in BC1_RGBA.
    palette[3] = {0.0f, 0.0f, 0.0f, bc1_rgba ? 0.0f : 1.0f};
  }
  for (uint32_t t = 0; t < 16; ++t) out[t] = palette[(bits >> (2 * t)) & 3u];
}

}  // namespace

Rgba decode_texel(const FormatInfo& info, const uint8_t* p) {
  Rgba c = {0.0f, 0.0f, 0.0f, 1.0f};
  switch (info.kind) {
    case FormatKind::Unorm8:
      for (uint32_t i = 0; i < info.components; ++i) c[i] = static_cast<float>(p[i]) / 255.0f;
      if (info.bgra) std::swap(c[0], c[2]);
      break;
    case FormatKind::Float16:
      for (uint32_t i = 0; i < info.components; ++i) c[i] = half_to_float(load16(p + 2 * i));
      break;
    case FormatKind::Float32: std::memcpy(&c[0], p, 4); break;
    case FormatKind::Uint32: {
      // Integer formats carry bit patterns, not values: R = the uint, G = B = 0, A = integer 1.
      const uint32_t r = load32(p), zero = 0, one = 1;
      std::memcpy(&c[0], &r, 4);
      std::memcpy(&c[1], &zero, 4);
      std::memcpy(&c[2], &zero, 4);
      std::memcpy(&c[3], &one, 4);
      break;
    }
    case FormatKind::Unorm16Depth: c[0] = static_cast<float>(load16(p)) / 65535.0f; break;
    case FormatKind::Bc1:
    case FormatKind::Bc2:
    case FormatKind::Bc3: break;  // decoded per block by decode_bc_block
  }
  apply_srgb(info, &c);
  return c;
}

void decode_bc_block(const FormatInfo& info, const uint8_t* block, Rgba out[16]) {
  if (info.kind == FormatKind::Bc1) {
    const bool rgba = info.format == VK_FORMAT_BC1_RGBA_UNORM_BLOCK ||
                      info.format == VK_FORMAT_BC1_RGBA_SRGB_BLOCK;
    decode_bc_color(block, true, rgba, out);
  } else if (info.kind == FormatKind::Bc2) {
    decode_bc_color(block + 8, false, false, out);
    uint64_t alpha;
    std::memcpy(&alpha, block, 8);
    for (uint32_t t = 0; t < 16; ++t) out[t][3] = static_cast<float>((alpha >> (4 * t)) & 15u) / 15.0f;
  } else {
    decode_bc_color(block + 8, false, false, out);
    // BC3 alpha: two endpoints and 3-bit indices; 8 interpolated values when a0 > a1, otherwise
    // 6 interpolated plus 0 and 1.
    const float a0 = static_cast<float>(block[0]);
    const float a1 = static_cast<float>(block[1]);
    float palette[8] = {a0, a1, 0, 0, 0, 0, 0, 0};
    if (block[0] > block[1]) {
      for (int i = 2; i < 8; ++i) palette[i] = (static_cast<float>(8 - i) * a0 + static_cast<float>(i - 1) * a1) / 7.0f;
    } else {
      for (int i = 2; i < 6; ++i) palette[i] = (static_cast<float>(6 - i) * a0 + static_cast<float>(i - 1) * a1) / 5.0f;
      palette[6] = 0.0f;
      palette[7] = 255.0f;
    }
    uint64_t bits = 0;
    for (int i = 0; i < 6; ++i) bits |= static_cast<uint64_t>(block[2 + i]) << (8 * i);
    for (uint32_t t = 0; t < 16; ++t) out[t][3] = palette[(bits >> (3 * t)) & 7u] / 255.0f;
  }
  for (uint32_t t = 0; t < 16; ++t) apply_srgb(info, &out[t]);
}

}  // namespace tessera::texture
