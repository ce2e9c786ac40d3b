// Bit layout of the uncompressed colour VkFormats, shared by vertex fetch and the attachment
// formats (Vulkan spec "Formats": packed formats list their components from the most significant
// bit down; the others store components in name order at increasing addresses, little-endian).
// Internal to tessera_pipeline.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tessera::pipeline::detail {

// The numeric format of a VkFormat name's suffix (spec "Identification of Formats").
enum class Numeric : uint8_t { Unorm, Snorm, Uscaled, Sscaled, Uint, Sint, Sfloat, Srgb };

struct ComponentLayout {
  uint8_t channel = 0;  // 0 = R, 1 = G, 2 = B, 3 = A
  uint8_t bit_offset = 0;  // from bit 0 of the element (little-endian bytes)
  uint8_t bits = 0;
};

struct FormatLayout {
  uint32_t format = 0;
  uint32_t bytes = 0;
  uint32_t components = 0;
  Numeric numeric = Numeric::Unorm;
  ComponentLayout component[4];
  bool bgra = false;  // B comes before R in the name (B8G8R8A8, A2R10G10B10, B5G6R5)
};

// nullptr when `vk_format` is not an uncompressed colour format listed in format_layout.cpp.
const FormatLayout* format_layout(uint32_t vk_format);

// The `bits`-wide field at `bit_offset` of the little-endian element at `src` (bits <= 32).
uint32_t read_field(const uint8_t* src, uint32_t bit_offset, uint32_t bits);
// Replaces that field with the low `bits` of `value`, leaving the other bits of `dst` alone.
void write_field(uint8_t* dst, uint32_t bit_offset, uint32_t bits, uint32_t value);

}  // namespace tessera::pipeline::detail
