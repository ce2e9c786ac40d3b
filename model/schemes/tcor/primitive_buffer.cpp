#include "tcor/primitive_buffer.h"

#include <stdexcept>
#include <string>

namespace tessera::model::tcor {

PrimitiveBuffer::PrimitiveBuffer(uint32_t sets, uint32_t ways, uint32_t line_bytes)
    : sets_(sets),
      ways_(ways),
      set_bits_(static_cast<uint32_t>(std::countr_zero(sets))),
      line_shift_(static_cast<uint32_t>(std::countr_zero(line_bytes))) {
  if (sets == 0 || !std::has_single_bit(sets) || ways == 0 || !std::has_single_bit(line_bytes)) {
    throw std::invalid_argument("Primitive Buffer of " + std::to_string(sets) + " sets x " + std::to_string(ways) +
                                " ways, " + std::to_string(line_bytes) +
                                " B lines (sets and line size must be powers of two)");
  }
  lines_.resize(static_cast<size_t>(sets) * ways);
}

uint32_t PrimitiveBuffer::find(uint64_t primitive_id) const {
  const uint64_t tag = tag_of(primitive_id);
  const uint32_t base = set_of(primitive_id) * ways_;
  for (uint32_t w = 0; w < ways_; ++w) {
    const PrimitiveBufferLine& l = lines_[base + w];
    if (l.valid && l.tag == tag) return base + w;
  }
  return primitive_set::kNone;
}

uint32_t PrimitiveBuffer::free_line(uint32_t set) const {
  const uint32_t base = set * ways_;
  for (uint32_t w = 0; w < ways_; ++w) {
    if (!lines_[base + w].valid) return base + w;
  }
  return primitive_set::kNone;
}

}  // namespace tessera::model::tcor
