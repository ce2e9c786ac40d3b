#include "tessera/pipeline/depth_stencil.h"

#include <vulkan/vulkan_core.h>

namespace tessera::pipeline {
namespace {

template <typename T>
bool compare(uint32_t op, T a, T b) {
  switch (op) {
    case VK_COMPARE_OP_NEVER: return false;
    case VK_COMPARE_OP_LESS: return a < b;
    case VK_COMPARE_OP_EQUAL: return a == b;
    case VK_COMPARE_OP_LESS_OR_EQUAL: return a <= b;
    case VK_COMPARE_OP_GREATER: return a > b;
    case VK_COMPARE_OP_NOT_EQUAL: return a != b;
    case VK_COMPARE_OP_GREATER_OR_EQUAL: return a >= b;
    case VK_COMPARE_OP_ALWAYS: return true;
    default: return false;
  }
}

}  // namespace

bool depth_compare(uint32_t vk_compare_op, float incoming, float stored) {
  return compare(vk_compare_op, incoming, stored);
}

bool stencil_compare(uint32_t vk_compare_op, uint32_t reference, uint32_t stored, uint32_t compare_mask) {
  return compare(vk_compare_op, reference & compare_mask, stored & compare_mask);
}

uint8_t stencil_update(uint32_t vk_stencil_op, uint8_t stored, uint32_t reference, uint32_t write_mask) {
  uint32_t value = stored;
  switch (vk_stencil_op) {
    case VK_STENCIL_OP_KEEP: break;
    case VK_STENCIL_OP_ZERO: value = 0; break;
    case VK_STENCIL_OP_REPLACE: value = reference; break;
    case VK_STENCIL_OP_INCREMENT_AND_CLAMP: value = stored == 0xff ? 0xffu : stored + 1u; break;
    case VK_STENCIL_OP_DECREMENT_AND_CLAMP: value = stored == 0 ? 0u : stored - 1u; break;
    case VK_STENCIL_OP_INVERT: value = ~static_cast<uint32_t>(stored); break;
    case VK_STENCIL_OP_INCREMENT_AND_WRAP: value = stored + 1u; break;
    case VK_STENCIL_OP_DECREMENT_AND_WRAP: value = stored - 1u; break;
    default: break;
  }
  // The write mask selects which bits of the attachment the new value replaces (spec "Stencil
  // Test": writeMask).
  return static_cast<uint8_t>((stored & ~write_mask) | (value & write_mask));
}

}  // namespace tessera::pipeline
