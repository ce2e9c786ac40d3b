#include "tessera/pipeline/vertex_fetch.h"

#include <bit>

#include "format_layout.h"
#include "tessera/pipeline/numeric.h"

namespace tessera::pipeline {
namespace {

using detail::Numeric;

const detail::FormatLayout* vertex_layout(uint32_t vk_format) {
  const detail::FormatLayout* layout = detail::format_layout(vk_format);
  if (layout == nullptr || layout->numeric == Numeric::Srgb) return nullptr;
  return layout;
}

uint32_t sign_extend(uint32_t field, uint32_t bits) {
  if (bits >= 32) return field;
  const uint32_t sign = 1u << (bits - 1);
  return (field ^ sign) - sign;
}

uint32_t convert(Numeric numeric, uint32_t field, uint32_t bits) {
  switch (numeric) {
    case Numeric::Unorm:
    case Numeric::Srgb:
      return std::bit_cast<uint32_t>(unorm_to_float(field, bits));
    case Numeric::Snorm:
      return std::bit_cast<uint32_t>(snorm_to_float(field, bits));
    case Numeric::Uscaled:
      return std::bit_cast<uint32_t>(static_cast<float>(field));
    case Numeric::Sscaled:
      return std::bit_cast<uint32_t>(static_cast<float>(static_cast<int32_t>(sign_extend(field, bits))));
    case Numeric::Uint:
      return field;
    case Numeric::Sint:
      return sign_extend(field, bits);
    case Numeric::Sfloat:
      return bits == 16 ? std::bit_cast<uint32_t>(half_to_float(static_cast<uint16_t>(field))) : field;
  }
  return 0;
}

}  // namespace

uint32_t vertex_format_bytes(uint32_t vk_format) {
  const detail::FormatLayout* layout = vertex_layout(vk_format);
  return layout ? layout->bytes : 0;
}

bool fetch_vertex_attribute(uint32_t vk_format, const std::byte* src, uint32_t out[4]) {
  const detail::FormatLayout* layout = vertex_layout(vk_format);
  if (layout == nullptr || src == nullptr) return false;
  const bool integer = layout->numeric == Numeric::Uint || layout->numeric == Numeric::Sint;
  uint32_t value[4] = {0, 0, 0, integer ? 1u : std::bit_cast<uint32_t>(1.0f)};
  const auto* bytes = reinterpret_cast<const uint8_t*>(src);
  for (uint32_t i = 0; i < layout->components; ++i) {
    const detail::ComponentLayout& c = layout->component[i];
    value[c.channel] = convert(layout->numeric, detail::read_field(bytes, c.bit_offset, c.bits), c.bits);
  }
  for (int i = 0; i < 4; ++i) out[i] = value[i];
  return true;
}

}  // namespace tessera::pipeline
