// Depth and stencil tests and the stencil update: Vulkan spec "Depth Test" / "Depth Comparison",
// "Stencil Test" (VkCompareOp, VkStencilOp, compare and write masks).
#pragma once

#include <cstdint>

namespace tessera::pipeline {

// `incoming` (the fragment's quantized depth, see quantize_depth) op `stored`, with
// VkCompareOp NEVER, LESS, EQUAL, LESS_OR_EQUAL, GREATER, NOT_EQUAL, GREATER_OR_EQUAL, ALWAYS.
// Comparisons follow IEEE 754 (a NaN operand fails all but NOT_EQUAL and ALWAYS). An op outside
// VkCompareOp returns false (the fragment fails).
bool depth_compare(uint32_t vk_compare_op, float incoming, float stored);

// (reference & compare_mask) op (stored & compare_mask): the reference is the first operand, so
// VK_COMPARE_OP_LESS passes when the masked reference is less than the masked stored value.
// An op outside VkCompareOp returns false.
bool stencil_compare(uint32_t vk_compare_op, uint32_t reference, uint32_t stored, uint32_t compare_mask);

// The new 8-bit stencil value after VkStencilOp `vk_stencil_op` (KEEP, ZERO, REPLACE with the
// reference's low 8 bits, INCREMENT_AND_CLAMP / DECREMENT_AND_CLAMP saturating at 255 / 0, INVERT,
// INCREMENT_AND_WRAP / DECREMENT_AND_WRAP modulo 256), merged through `write_mask`: bits set in the
// mask come from the new value, the others keep `stored`. An op outside VkStencilOp acts as KEEP.
uint8_t stencil_update(uint32_t vk_stencil_op, uint8_t stored, uint32_t reference, uint32_t write_mask);

}  // namespace tessera::pipeline
