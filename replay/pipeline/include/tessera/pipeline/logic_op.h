// Logical operations of the colour attachment stage, Vulkan spec "Logical Operations": with
// logicOpEnable, each colour attachment of a normalized-integer or integer format receives
// op(source, destination) on the bits of the format's representation instead of blending, the
// write mask applied afterwards; floating-point and sRGB attachments pass the source through.
#pragma once

#include <cstdint>

#include "tessera/pipeline/pixel_format.h"

namespace tessera::pipeline {

// One VkLogicOp on 32-bit words (spec table "Logical Operations"): CLEAR 0, AND s & d,
// AND_REVERSE s & ~d, COPY s, AND_INVERTED ~s & d, NO_OP d, XOR s ^ d, OR s | d, NOR ~(s | d),
// EQUIVALENT ~(s ^ d), INVERT ~d, OR_REVERSE s | ~d, COPY_INVERTED ~s, OR_INVERTED ~s | d,
// NAND ~(s & d), SET all ones. An unknown op acts as COPY.
uint32_t logic_op(uint32_t op, uint32_t s, uint32_t d);

// Whether logical operations apply to attachments of `format` (UNORM, SNORM, UINT, SINT; not
// SFLOAT, not sRGB).
bool logic_op_applies(const PixelFormat& format);

// dst_inout = the attachment value after `op` between the source colour `src` and the value it
// holds (both as the format represents them: converted to its bits, combined, converted back),
// components outside `write_mask` (VkColorComponentFlags) keeping their value.
void logic_op_color(uint32_t op, const PixelFormat& format, uint32_t write_mask, const float src[4],
                    float dst_inout[4]);

}  // namespace tessera::pipeline
