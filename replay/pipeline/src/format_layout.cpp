#include "format_layout.h"

#include <vulkan/vulkan_core.h>

#include <vector>

namespace tessera::pipeline::detail {
namespace {

// VkFormat numbers each family's numeric formats consecutively, in this order; the static_asserts
// below check it against the registry header for every family used.
constexpr Numeric kEightBit[] = {Numeric::Unorm, Numeric::Snorm, Numeric::Uscaled, Numeric::Sscaled,
                                 Numeric::Uint,  Numeric::Sint,  Numeric::Srgb};
constexpr Numeric kPacked10[] = {Numeric::Unorm, Numeric::Snorm, Numeric::Uscaled,
                                 Numeric::Sscaled, Numeric::Uint, Numeric::Sint};
constexpr Numeric kSixteenBit[] = {Numeric::Unorm, Numeric::Snorm, Numeric::Uscaled, Numeric::Sscaled,
                                   Numeric::Uint,  Numeric::Sint,  Numeric::Sfloat};
constexpr Numeric kThirtyTwoBit[] = {Numeric::Uint, Numeric::Sint, Numeric::Sfloat};

static_assert(VK_FORMAT_R8_SRGB == VK_FORMAT_R8_UNORM + 6);
static_assert(VK_FORMAT_R8G8_SRGB == VK_FORMAT_R8G8_UNORM + 6);
static_assert(VK_FORMAT_R8G8B8_SRGB == VK_FORMAT_R8G8B8_UNORM + 6);
static_assert(VK_FORMAT_B8G8R8_SRGB == VK_FORMAT_B8G8R8_UNORM + 6);
static_assert(VK_FORMAT_R8G8B8A8_SRGB == VK_FORMAT_R8G8B8A8_UNORM + 6);
static_assert(VK_FORMAT_B8G8R8A8_SRGB == VK_FORMAT_B8G8R8A8_UNORM + 6);
static_assert(VK_FORMAT_A8B8G8R8_SRGB_PACK32 == VK_FORMAT_A8B8G8R8_UNORM_PACK32 + 6);
static_assert(VK_FORMAT_A2R10G10B10_SINT_PACK32 == VK_FORMAT_A2R10G10B10_UNORM_PACK32 + 5);
static_assert(VK_FORMAT_A2B10G10R10_SINT_PACK32 == VK_FORMAT_A2B10G10R10_UNORM_PACK32 + 5);
static_assert(VK_FORMAT_R16_SFLOAT == VK_FORMAT_R16_UNORM + 6);
static_assert(VK_FORMAT_R16G16_SFLOAT == VK_FORMAT_R16G16_UNORM + 6);
static_assert(VK_FORMAT_R16G16B16_SFLOAT == VK_FORMAT_R16G16B16_UNORM + 6);
static_assert(VK_FORMAT_R16G16B16A16_SFLOAT == VK_FORMAT_R16G16B16A16_UNORM + 6);
static_assert(VK_FORMAT_R32_SFLOAT == VK_FORMAT_R32_UINT + 2);
static_assert(VK_FORMAT_R32G32_SFLOAT == VK_FORMAT_R32G32_UINT + 2);
static_assert(VK_FORMAT_R32G32B32_SFLOAT == VK_FORMAT_R32G32B32_UINT + 2);
static_assert(VK_FORMAT_R32G32B32A32_SFLOAT == VK_FORMAT_R32G32B32A32_UINT + 2);

// Components in memory order: consecutive `bits`-wide fields from bit 0, channel[i] naming the
// i-th one. For the packed formats the name lists the most significant component first, so the
// memory order is the name reversed (A2B10G10R10: R at bit 0, A at bit 30).
struct Family {
  VkFormat first;
  uint32_t count;
  const Numeric* numerics;
  uint32_t components;
  uint8_t bits[4];
  uint8_t channel[4];
  bool bgra;
};

constexpr uint8_t R = 0, G = 1, B = 2, A = 3;

constexpr Family kFamilies[] = {
    {VK_FORMAT_R8_UNORM, 7, kEightBit, 1, {8}, {R}, false},
    {VK_FORMAT_R8G8_UNORM, 7, kEightBit, 2, {8, 8}, {R, G}, false},
    {VK_FORMAT_R8G8B8_UNORM, 7, kEightBit, 3, {8, 8, 8}, {R, G, B}, false},
    {VK_FORMAT_B8G8R8_UNORM, 7, kEightBit, 3, {8, 8, 8}, {B, G, R}, true},
    {VK_FORMAT_R8G8B8A8_UNORM, 7, kEightBit, 4, {8, 8, 8, 8}, {R, G, B, A}, false},
    {VK_FORMAT_B8G8R8A8_UNORM, 7, kEightBit, 4, {8, 8, 8, 8}, {B, G, R, A}, true},
    // A8B8G8R8_PACK32 in a little-endian word has the byte layout of R8G8B8A8.
    {VK_FORMAT_A8B8G8R8_UNORM_PACK32, 7, kEightBit, 4, {8, 8, 8, 8}, {R, G, B, A}, false},
    {VK_FORMAT_A2R10G10B10_UNORM_PACK32, 6, kPacked10, 4, {10, 10, 10, 2}, {B, G, R, A}, true},
    {VK_FORMAT_A2B10G10R10_UNORM_PACK32, 6, kPacked10, 4, {10, 10, 10, 2}, {R, G, B, A}, false},
    {VK_FORMAT_R16_UNORM, 7, kSixteenBit, 1, {16}, {R}, false},
    {VK_FORMAT_R16G16_UNORM, 7, kSixteenBit, 2, {16, 16}, {R, G}, false},
    {VK_FORMAT_R16G16B16_UNORM, 7, kSixteenBit, 3, {16, 16, 16}, {R, G, B}, false},
    {VK_FORMAT_R16G16B16A16_UNORM, 7, kSixteenBit, 4, {16, 16, 16, 16}, {R, G, B, A}, false},
    {VK_FORMAT_R32_UINT, 3, kThirtyTwoBit, 1, {32}, {R}, false},
    {VK_FORMAT_R32G32_UINT, 3, kThirtyTwoBit, 2, {32, 32}, {R, G}, false},
    {VK_FORMAT_R32G32B32_UINT, 3, kThirtyTwoBit, 3, {32, 32, 32}, {R, G, B}, false},
    {VK_FORMAT_R32G32B32A32_UINT, 3, kThirtyTwoBit, 4, {32, 32, 32, 32}, {R, G, B, A}, false},
    // R5G6B5: R in bits 11..15, G 5..10, B 0..4; B5G6R5 the other way round.
    {VK_FORMAT_R5G6B5_UNORM_PACK16, 1, kEightBit, 3, {5, 6, 5}, {B, G, R}, false},
    {VK_FORMAT_B5G6R5_UNORM_PACK16, 1, kEightBit, 3, {5, 6, 5}, {R, G, B}, true},
};

std::vector<FormatLayout> build_table() {
  std::vector<FormatLayout> table;
  for (const Family& family : kFamilies) {
    for (uint32_t n = 0; n < family.count; ++n) {
      FormatLayout layout;
      layout.format = static_cast<uint32_t>(family.first) + n;
      layout.numeric = family.numerics[n];
      layout.components = family.components;
      layout.bgra = family.bgra;
      uint32_t offset = 0;
      for (uint32_t i = 0; i < family.components; ++i) {
        layout.component[i] = {family.channel[i], static_cast<uint8_t>(offset), family.bits[i]};
        offset += family.bits[i];
      }
      layout.bytes = offset / 8;
      table.push_back(layout);
    }
  }
  return table;
}

}  // namespace

const FormatLayout* format_layout(uint32_t vk_format) {
  static const std::vector<FormatLayout> table = build_table();
  for (const FormatLayout& layout : table)
    if (layout.format == vk_format) return &layout;
  return nullptr;
}

uint32_t read_field(const uint8_t* src, uint32_t bit_offset, uint32_t bits) {
  // Gather the (at most 5) bytes the field touches into a 64-bit little-endian window.
  const uint32_t first = bit_offset / 8, last = (bit_offset + bits - 1) / 8;
  uint64_t window = 0;
  for (uint32_t i = first; i <= last; ++i) window |= static_cast<uint64_t>(src[i]) << (8 * (i - first));
  const uint64_t mask = bits >= 32 ? 0xffffffffull : ((1ull << bits) - 1);
  return static_cast<uint32_t>((window >> (bit_offset % 8)) & mask);
}

void write_field(uint8_t* dst, uint32_t bit_offset, uint32_t bits, uint32_t value) {
  const uint32_t first = bit_offset / 8, last = (bit_offset + bits - 1) / 8;
  uint64_t window = 0;
  for (uint32_t i = first; i <= last; ++i) window |= static_cast<uint64_t>(dst[i]) << (8 * (i - first));
  const uint64_t mask = (bits >= 32 ? 0xffffffffull : ((1ull << bits) - 1)) << (bit_offset % 8);
  window = (window & ~mask) | ((static_cast<uint64_t>(value) << (bit_offset % 8)) & mask);
  for (uint32_t i = first; i <= last; ++i) dst[i] = static_cast<uint8_t>(window >> (8 * (i - first)));
}

}  // namespace tessera::pipeline::detail
