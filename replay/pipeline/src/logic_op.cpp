#include "tessera/pipeline/logic_op.h"

#include <vulkan/vulkan_core.h>

#include <cstring>

namespace tessera::pipeline {

uint32_t logic_op(uint32_t op, uint32_t s, uint32_t d) {
  switch (op) {
    case VK_LOGIC_OP_CLEAR: return 0;
    case VK_LOGIC_OP_AND: return s & d;
    case VK_LOGIC_OP_AND_REVERSE: return s & ~d;
    case VK_LOGIC_OP_COPY: return s;
    case VK_LOGIC_OP_AND_INVERTED: return ~s & d;
    case VK_LOGIC_OP_NO_OP: return d;
    case VK_LOGIC_OP_XOR: return s ^ d;
    case VK_LOGIC_OP_OR: return s | d;
    case VK_LOGIC_OP_NOR: return ~(s | d);
    case VK_LOGIC_OP_EQUIVALENT: return ~(s ^ d);
    case VK_LOGIC_OP_INVERT: return ~d;
    case VK_LOGIC_OP_OR_REVERSE: return s | ~d;
    case VK_LOGIC_OP_COPY_INVERTED: return ~s;
    case VK_LOGIC_OP_OR_INVERTED: return ~s | d;
    case VK_LOGIC_OP_NAND: return ~(s & d);
    case VK_LOGIC_OP_SET: return ~0u;
    default: return s;
  }
}

bool logic_op_applies(const PixelFormat& format) {
  return format.bytes != 0 && !format.depth && !format.stencil && !format.is_float && !format.srgb;
}

void logic_op_color(uint32_t op, const PixelFormat& format, uint32_t write_mask, const float src[4],
                    float dst_inout[4]) {
  // The op is bitwise, so applying it to the pixel's bytes word by word is applying it to every
  // component's bits; only the write mask needs the components apart.
  uint8_t s[16] = {}, d[16] = {};
  encode_color(format, src, s);
  encode_color(format, dst_inout, d);
  for (uint32_t i = 0; i < format.bytes; i += 4) {
    uint32_t sw = 0, dw = 0;
    const uint32_t n = format.bytes - i < 4 ? format.bytes - i : 4;
    std::memcpy(&sw, s + i, n);
    std::memcpy(&dw, d + i, n);
    const uint32_t r = logic_op(op, sw, dw);
    std::memcpy(d + i, &r, n);
  }
  float result[4];
  decode_color(format, d, result);
  for (uint32_t c = 0; c < 4; ++c)
    if (write_mask & (1u << c)) dst_inout[c] = result[c];
}

}  // namespace tessera::pipeline
