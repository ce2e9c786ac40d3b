#include "tessera/texture/format.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace tessera::texture {

namespace {

// A packed format (Vulkan spec "Packed Formats"): components named from the most significant
// bits down, each `bits` wide; 'E' is the shared exponent of E5B9G9R9.
struct PackedLayout {
  VkFormat format;
  uint32_t bytes;
  const char* order;       // component letters, most significant first
  uint8_t bits[4];
  bool ufloat;             // B10G11R11_UFLOAT (unsigned 10/11-bit floats)
};

constexpr PackedLayout kPacked[] = {
    {VK_FORMAT_R5G6B5_UNORM_PACK16, 2, "RGB", {5, 6, 5, 0}, false},
    {VK_FORMAT_B5G6R5_UNORM_PACK16, 2, "BGR", {5, 6, 5, 0}, false},
    {VK_FORMAT_R4G4B4A4_UNORM_PACK16, 2, "RGBA", {4, 4, 4, 4}, false},
    {VK_FORMAT_B4G4R4A4_UNORM_PACK16, 2, "BGRA", {4, 4, 4, 4}, false},
    {VK_FORMAT_A4R4G4B4_UNORM_PACK16, 2, "ARGB", {4, 4, 4, 4}, false},
    {VK_FORMAT_A4B4G4R4_UNORM_PACK16, 2, "ABGR", {4, 4, 4, 4}, false},
    {VK_FORMAT_R5G5B5A1_UNORM_PACK16, 2, "RGBA", {5, 5, 5, 1}, false},
    {VK_FORMAT_B5G5R5A1_UNORM_PACK16, 2, "BGRA", {5, 5, 5, 1}, false},
    {VK_FORMAT_A1R5G5B5_UNORM_PACK16, 2, "ARGB", {1, 5, 5, 5}, false},
    {VK_FORMAT_A2B10G10R10_UNORM_PACK32, 4, "ABGR", {2, 10, 10, 10}, false},
    {VK_FORMAT_A2R10G10B10_UNORM_PACK32, 4, "ARGB", {2, 10, 10, 10}, false},
    {VK_FORMAT_B10G11R11_UFLOAT_PACK32, 4, "BGR", {10, 11, 11, 0}, true},
    {VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, 4, "EBGR", {5, 9, 9, 9}, false},
};

const PackedLayout* packed_layout(VkFormat f) {
  for (const PackedLayout& p : kPacked)
    if (p.format == f) return &p;
  return nullptr;
}

}  // namespace

bool format_info(VkFormat format, FormatInfo* info) {
  FormatInfo f;
  f.format = format;
  auto plain = [&f](FormatKind kind, uint32_t comps, uint32_t bytes) {
    f.kind = kind;
    f.components = comps;
    f.texel_bytes = bytes;
    f.block_bytes = 16 * bytes;
    f.integer = kind == FormatKind::Uint || kind == FormatKind::Sint;
  };
  auto bc = [&f](FormatKind kind, uint32_t comps, uint32_t bytes) {
    f.kind = kind;
    f.components = comps;
    f.block_bytes = bytes;
    f.compressed = true;
  };
  switch (format) {
    case VK_FORMAT_R8_SRGB: f.srgb = true; [[fallthrough]];
    case VK_FORMAT_R8_UNORM: plain(FormatKind::Unorm8, 1, 1); break;
    case VK_FORMAT_R8G8_SRGB: f.srgb = true; [[fallthrough]];
    case VK_FORMAT_R8G8_UNORM: plain(FormatKind::Unorm8, 2, 2); break;
    case VK_FORMAT_R8G8B8A8_SRGB:
    case VK_FORMAT_A8B8G8R8_SRGB_PACK32: f.srgb = true; [[fallthrough]];
    case VK_FORMAT_R8G8B8A8_UNORM:
    case VK_FORMAT_A8B8G8R8_UNORM_PACK32: plain(FormatKind::Unorm8, 4, 4); break;
    case VK_FORMAT_B8G8R8A8_SRGB: f.srgb = true; [[fallthrough]];
    case VK_FORMAT_B8G8R8A8_UNORM: plain(FormatKind::Unorm8, 4, 4); f.bgra = true; break;
    case VK_FORMAT_R8_SNORM: plain(FormatKind::Snorm8, 1, 1); break;
    case VK_FORMAT_R8G8_SNORM: plain(FormatKind::Snorm8, 2, 2); break;
    case VK_FORMAT_R8G8B8A8_SNORM:
    case VK_FORMAT_A8B8G8R8_SNORM_PACK32: plain(FormatKind::Snorm8, 4, 4); break;
    case VK_FORMAT_R16_UNORM: plain(FormatKind::Unorm16, 1, 2); break;
    case VK_FORMAT_R16G16_UNORM: plain(FormatKind::Unorm16, 2, 4); break;
    case VK_FORMAT_R16G16B16A16_UNORM: plain(FormatKind::Unorm16, 4, 8); break;
    case VK_FORMAT_R16_SNORM: plain(FormatKind::Snorm16, 1, 2); break;
    case VK_FORMAT_R16G16_SNORM: plain(FormatKind::Snorm16, 2, 4); break;
    case VK_FORMAT_R16G16B16A16_SNORM: plain(FormatKind::Snorm16, 4, 8); break;
    case VK_FORMAT_R16_SFLOAT: plain(FormatKind::Float16, 1, 2); break;
    case VK_FORMAT_R16G16_SFLOAT: plain(FormatKind::Float16, 2, 4); break;
    case VK_FORMAT_R16G16B16A16_SFLOAT: plain(FormatKind::Float16, 4, 8); break;
    case VK_FORMAT_R32_SFLOAT: plain(FormatKind::Float32, 1, 4); break;
    case VK_FORMAT_R32G32_SFLOAT: plain(FormatKind::Float32, 2, 8); break;
    case VK_FORMAT_R32G32B32A32_SFLOAT: plain(FormatKind::Float32, 4, 16); break;
    case VK_FORMAT_R8_UINT: plain(FormatKind::Uint, 1, 1); break;
    case VK_FORMAT_R8G8_UINT: plain(FormatKind::Uint, 2, 2); break;
    case VK_FORMAT_R8G8B8A8_UINT: plain(FormatKind::Uint, 4, 4); break;
    case VK_FORMAT_R16_UINT: plain(FormatKind::Uint, 1, 2); break;
    case VK_FORMAT_R16G16_UINT: plain(FormatKind::Uint, 2, 4); break;
    case VK_FORMAT_R16G16B16A16_UINT: plain(FormatKind::Uint, 4, 8); break;
    case VK_FORMAT_R32_UINT: plain(FormatKind::Uint, 1, 4); break;
    case VK_FORMAT_R32G32_UINT: plain(FormatKind::Uint, 2, 8); break;
    case VK_FORMAT_R32G32B32A32_UINT: plain(FormatKind::Uint, 4, 16); break;
    case VK_FORMAT_R8_SINT: plain(FormatKind::Sint, 1, 1); break;
    case VK_FORMAT_R8G8_SINT: plain(FormatKind::Sint, 2, 2); break;
    case VK_FORMAT_R8G8B8A8_SINT: plain(FormatKind::Sint, 4, 4); break;
    case VK_FORMAT_R16_SINT: plain(FormatKind::Sint, 1, 2); break;
    case VK_FORMAT_R16G16_SINT: plain(FormatKind::Sint, 2, 4); break;
    case VK_FORMAT_R16G16B16A16_SINT: plain(FormatKind::Sint, 4, 8); break;
    case VK_FORMAT_R32_SINT: plain(FormatKind::Sint, 1, 4); break;
    case VK_FORMAT_R32G32_SINT: plain(FormatKind::Sint, 2, 8); break;
    case VK_FORMAT_R32G32B32A32_SINT: plain(FormatKind::Sint, 4, 16); break;
    case VK_FORMAT_D32_SFLOAT: plain(FormatKind::Float32, 1, 4); f.depth = true; break;
    case VK_FORMAT_D16_UNORM: plain(FormatKind::Unorm16Depth, 1, 2); f.depth = true; break;
    case VK_FORMAT_BC1_RGB_SRGB_BLOCK: f.srgb = true; [[fallthrough]];
    case VK_FORMAT_BC1_RGB_UNORM_BLOCK: bc(FormatKind::Bc1, 3, 8); break;
    case VK_FORMAT_BC1_RGBA_SRGB_BLOCK: f.srgb = true; [[fallthrough]];
    case VK_FORMAT_BC1_RGBA_UNORM_BLOCK: bc(FormatKind::Bc1, 4, 8); break;
    case VK_FORMAT_BC2_SRGB_BLOCK: f.srgb = true; [[fallthrough]];
    case VK_FORMAT_BC2_UNORM_BLOCK: bc(FormatKind::Bc2, 4, 16); break;
    case VK_FORMAT_BC3_SRGB_BLOCK: f.srgb = true; [[fallthrough]];
    case VK_FORMAT_BC3_UNORM_BLOCK: bc(FormatKind::Bc3, 4, 16); break;
    case VK_FORMAT_BC4_SNORM_BLOCK: f.snorm = true; [[fallthrough]];
    case VK_FORMAT_BC4_UNORM_BLOCK: bc(FormatKind::Bc4, 1, 8); break;
    case VK_FORMAT_BC5_SNORM_BLOCK: f.snorm = true; [[fallthrough]];
    case VK_FORMAT_BC5_UNORM_BLOCK: bc(FormatKind::Bc5, 2, 16); break;
    case VK_FORMAT_BC7_SRGB_BLOCK: f.srgb = true; [[fallthrough]];
    case VK_FORMAT_BC7_UNORM_BLOCK: bc(FormatKind::Bc7, 4, 16); break;
    default: {
      const PackedLayout* p = packed_layout(format);
      if (p == nullptr) return false;
      f.kind = FormatKind::Packed;
      f.components = p->order[0] == 'E' || p->order[3] == 0 ? 3 : 4;
      f.texel_bytes = p->bytes;
      f.block_bytes = 16 * p->bytes;
      break;
    }
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
    case VK_FORMAT_R16_UNORM: return "R16_UNORM";
    case VK_FORMAT_R16G16_UNORM: return "R16G16_UNORM";
    case VK_FORMAT_R16_SFLOAT: return "R16_SFLOAT";
    case VK_FORMAT_R16G16_SFLOAT: return "R16G16_SFLOAT";
    case VK_FORMAT_R16G16B16A16_SFLOAT: return "R16G16B16A16_SFLOAT";
    case VK_FORMAT_R32_SFLOAT: return "R32_SFLOAT";
    case VK_FORMAT_R32_UINT: return "R32_UINT";
    case VK_FORMAT_R32_SINT: return "R32_SINT";
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
    case VK_FORMAT_BC4_UNORM_BLOCK: return "BC4_UNORM_BLOCK";
    case VK_FORMAT_BC5_UNORM_BLOCK: return "BC5_UNORM_BLOCK";
    case VK_FORMAT_BC6H_UFLOAT_BLOCK: return "BC6H_UFLOAT_BLOCK";
    case VK_FORMAT_BC7_UNORM_BLOCK: return "BC7_UNORM_BLOCK";
    case VK_FORMAT_BC7_SRGB_BLOCK: return "BC7_SRGB_BLOCK";
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
float pattern(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

// Unsigned 10/11-bit floats (spec "Unsigned 11-Bit / 10-Bit Floating-Point Numbers"): 5-bit
// exponent (bias 15), `mantissa_bits` bits of mantissa, no sign.
float small_ufloat(uint32_t v, uint32_t mantissa_bits) {
  const uint32_t e = v >> mantissa_bits, m = v & ((1u << mantissa_bits) - 1);
  const float scale = static_cast<float>(1u << mantissa_bits);
  if (e == 0) return std::ldexp(static_cast<float>(m) / scale, -14);
  if (e == 31) return m ? NAN : INFINITY;
  return std::ldexp(1.0f + static_cast<float>(m) / scale, static_cast<int>(e) - 15);
}

// Signed normalized conversion (spec "Conversion from Normalized Fixed-Point to Floating-Point"):
// max(c / (2^(b-1) - 1), -1).
float snorm(int32_t v, uint32_t bits) {
  return std::max(static_cast<float>(v) / static_cast<float>((1u << (bits - 1)) - 1), -1.0f);
}

Rgba decode_packed(const FormatInfo& info, const uint8_t* p) {
  const PackedLayout& l = *packed_layout(info.format);
  const uint32_t word = l.bytes == 2 ? load16(p) : load32(p);
  Rgba c = {0.0f, 0.0f, 0.0f, 1.0f};
  uint32_t shift = 8 * l.bytes, exponent = 0;
  uint32_t raw[4] = {};
  for (uint32_t k = 0; k < 4 && l.order[k] != 0; ++k) {
    shift -= l.bits[k];
    raw[k] = (word >> shift) & ((1u << l.bits[k]) - 1);
    if (l.order[k] == 'E') exponent = raw[k];
  }
  for (uint32_t k = 0; k < 4 && l.order[k] != 0; ++k) {
    const char name = l.order[k];
    if (name == 'E') continue;
    const int channel = name == 'R' ? 0 : name == 'G' ? 1 : name == 'B' ? 2 : 3;
    float v;
    if (l.ufloat) {
      v = small_ufloat(raw[k], l.bits[k] - 5);
    } else if (l.order[0] == 'E') {
      // Shared exponent (spec "Shared Exponent to RGB"): mantissa * 2^(E - 15 - 9).
      v = std::ldexp(static_cast<float>(raw[k]), static_cast<int>(exponent) - 15 - 9);
    } else {
      v = static_cast<float>(raw[k]) / static_cast<float>((1u << l.bits[k]) - 1);
    }
    c[channel] = v;
  }
  return c;
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

// One 8-byte interpolated single-channel block: BC3 alpha and BC4/BC5 channels (Khronos Data
// Format spec "BC4 unsigned"/"BC4 signed"). Unsigned: two endpoints and 3-bit indices; 8
// interpolated values when a0 > a1, otherwise 6 interpolated plus 0 and 1. Signed: the endpoints
// are two's complement (-128 reads as -127), the extremes -1 and 1.
void decode_bc_channel(const uint8_t* block, bool is_signed, float out[16]) {
  const float a0 = is_signed ? snorm(static_cast<int8_t>(block[0]), 8) : static_cast<float>(block[0]) / 255.0f;
  const float a1 = is_signed ? snorm(static_cast<int8_t>(block[1]), 8) : static_cast<float>(block[1]) / 255.0f;
  float palette[8] = {a0, a1, 0, 0, 0, 0, 0, 0};
  if (a0 > a1) {
    for (int i = 2; i < 8; ++i) palette[i] = (static_cast<float>(8 - i) * a0 + static_cast<float>(i - 1) * a1) / 7.0f;
  } else {
    for (int i = 2; i < 6; ++i) palette[i] = (static_cast<float>(6 - i) * a0 + static_cast<float>(i - 1) * a1) / 5.0f;
    palette[6] = is_signed ? -1.0f : 0.0f;
    palette[7] = 1.0f;
  }
  uint64_t bits = 0;
  for (int i = 0; i < 6; ++i) bits |= static_cast<uint64_t>(block[2 + i]) << (8 * i);
  for (uint32_t t = 0; t < 16; ++t) out[t] = palette[(bits >> (3 * t)) & 7u];
}

}  // namespace

Rgba decode_texel(const FormatInfo& info, const uint8_t* p) {
  Rgba c = {0.0f, 0.0f, 0.0f, 1.0f};
  const uint32_t n = info.components;
  switch (info.kind) {
    case FormatKind::Unorm8:
      for (uint32_t i = 0; i < n; ++i) c[i] = static_cast<float>(p[i]) / 255.0f;
      if (info.bgra) std::swap(c[0], c[2]);
      break;
    case FormatKind::Snorm8:
      for (uint32_t i = 0; i < n; ++i) c[i] = snorm(static_cast<int8_t>(p[i]), 8);
      break;
    case FormatKind::Unorm16:
      for (uint32_t i = 0; i < n; ++i) c[i] = static_cast<float>(load16(p + 2 * i)) / 65535.0f;
      break;
    case FormatKind::Snorm16:
      for (uint32_t i = 0; i < n; ++i) c[i] = snorm(static_cast<int16_t>(load16(p + 2 * i)), 16);
      break;
    case FormatKind::Float16:
      for (uint32_t i = 0; i < n; ++i) c[i] = half_to_float(load16(p + 2 * i));
      break;
    case FormatKind::Float32: std::memcpy(c.data(), p, 4 * n); break;
    case FormatKind::Uint:
    case FormatKind::Sint: {
      // Integer formats carry bit patterns, not values; missing components are the integers
      // 0, 0, 0, 1 ("one = 1 for integer formats").
      const uint32_t bytes = info.texel_bytes / n;
      c = {pattern(0), pattern(0), pattern(0), pattern(1)};
      for (uint32_t i = 0; i < n; ++i) {
        const uint8_t* q = p + bytes * i;
        uint32_t v = bytes == 1 ? q[0] : bytes == 2 ? load16(q) : load32(q);
        if (info.kind == FormatKind::Sint && bytes < 4) {
          const uint32_t sign = 1u << (8 * bytes - 1);
          v = (v ^ sign) - sign;  // sign-extend ("Signed integer components ... are sign-extended")
        }
        c[i] = pattern(v);
      }
      return c;
    }
    case FormatKind::Unorm16Depth: c[0] = static_cast<float>(load16(p)) / 65535.0f; break;
    case FormatKind::Packed: c = decode_packed(info, p); break;
    case FormatKind::Bc1:
    case FormatKind::Bc2:
    case FormatKind::Bc3:
    case FormatKind::Bc4:
    case FormatKind::Bc5:
    case FormatKind::Bc7: break;  // decoded per block by decode_bc_block
  }
  apply_srgb(info, &c);
  return c;
}

void decode_bc_block(const FormatInfo& info, const uint8_t* block, Rgba out[16]) {
  float channel[16];
  switch (info.kind) {
    case FormatKind::Bc1:
      decode_bc_color(block, true, info.components == 4, out);
      break;
    case FormatKind::Bc2: {
      decode_bc_color(block + 8, false, false, out);
      uint64_t alpha;
      std::memcpy(&alpha, block, 8);
      for (uint32_t t = 0; t < 16; ++t) out[t][3] = static_cast<float>((alpha >> (4 * t)) & 15u) / 15.0f;
      break;
    }
    case FormatKind::Bc3:
      decode_bc_color(block + 8, false, false, out);
      decode_bc_channel(block, false, channel);
      for (uint32_t t = 0; t < 16; ++t) out[t][3] = channel[t];
      break;
    case FormatKind::Bc4:
    case FormatKind::Bc5:
      decode_bc_channel(block, info.snorm, channel);
      for (uint32_t t = 0; t < 16; ++t) out[t] = {channel[t], 0.0f, 0.0f, 1.0f};
      if (info.kind == FormatKind::Bc5) {
        decode_bc_channel(block + 8, info.snorm, channel);
        for (uint32_t t = 0; t < 16; ++t) out[t][1] = channel[t];
      }
      break;
    case FormatKind::Bc7: {
      Rgba8 texels[16];
      decode_bc7_block(block, texels);
      for (uint32_t t = 0; t < 16; ++t)
        for (uint32_t k = 0; k < 4; ++k) out[t][k] = static_cast<float>(texels[t][k]) / 255.0f;
      break;
    }
    default: return;
  }
  for (uint32_t t = 0; t < 16; ++t) apply_srgb(info, &out[t]);
}

}  // namespace tessera::texture
