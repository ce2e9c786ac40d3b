#include "tessera/pipeline/blend.h"

#include <vulkan/vulkan_core.h>

#include <algorithm>

namespace tessera::pipeline {
namespace {

bool factor_supported(uint32_t factor) { return factor <= VK_BLEND_FACTOR_ONE_MINUS_SRC1_ALPHA; }

bool op_supported(uint32_t op) { return op <= VK_BLEND_OP_MAX; }

// Blend factor for component `i` (0..2 colour, 3 alpha), spec "Blend Factors" table.
float factor_value(uint32_t factor, int i, const float constants[4], const float s[4], const float s1[4],
                   const float d[4]) {
  switch (factor) {
    case VK_BLEND_FACTOR_ZERO: return 0;
    case VK_BLEND_FACTOR_ONE: return 1;
    case VK_BLEND_FACTOR_SRC_COLOR: return s[i];
    case VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR: return 1 - s[i];
    case VK_BLEND_FACTOR_DST_COLOR: return d[i];
    case VK_BLEND_FACTOR_ONE_MINUS_DST_COLOR: return 1 - d[i];
    case VK_BLEND_FACTOR_SRC_ALPHA: return s[3];
    case VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA: return 1 - s[3];
    case VK_BLEND_FACTOR_DST_ALPHA: return d[3];
    case VK_BLEND_FACTOR_ONE_MINUS_DST_ALPHA: return 1 - d[3];
    case VK_BLEND_FACTOR_CONSTANT_COLOR: return constants[i];
    case VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_COLOR: return 1 - constants[i];
    case VK_BLEND_FACTOR_CONSTANT_ALPHA: return constants[3];
    case VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_ALPHA: return 1 - constants[3];
    // (f, f, f, 1) with f = min(As, 1 - Ad).
    case VK_BLEND_FACTOR_SRC_ALPHA_SATURATE: return i == 3 ? 1.0f : std::min(s[3], 1 - d[3]);
    case VK_BLEND_FACTOR_SRC1_COLOR: return s1[i];
    case VK_BLEND_FACTOR_ONE_MINUS_SRC1_COLOR: return 1 - s1[i];
    case VK_BLEND_FACTOR_SRC1_ALPHA: return s1[3];
    case VK_BLEND_FACTOR_ONE_MINUS_SRC1_ALPHA: return 1 - s1[3];
    default: return 0;
  }
}

void blend_clamped(const BlendState& state, BlendRange range, const float constants[4], const float src[4],
                   const float src1[4], float dst_inout[4]) {
  const float lo = range == BlendRange::Snorm ? -1.0f : 0.0f;
  auto clamp = [&](float v) { return range == BlendRange::Unbounded ? v : std::clamp(v, lo, 1.0f); };
  float c[4], s[4], s1[4], d[4], result[4];
  for (int i = 0; i < 4; ++i) {
    c[i] = clamp(constants[i]);
    s[i] = clamp(src[i]);
    s1[i] = clamp(src1[i]);
    d[i] = clamp(dst_inout[i]);
  }
  for (int i = 0; i < 4; ++i) {
    if (!state.enable) {
      result[i] = src[i];
      continue;
    }
    const bool alpha = i == 3;
    const uint32_t op = alpha ? state.alpha_op : state.color_op;
    const float sf = clamp(factor_value(alpha ? state.src_alpha : state.src_color, i, c, s, s1, d));
    const float df = clamp(factor_value(alpha ? state.dst_alpha : state.dst_color, i, c, s, s1, d));
    switch (op) {
      case VK_BLEND_OP_SUBTRACT: result[i] = s[i] * sf - d[i] * df; break;
      case VK_BLEND_OP_REVERSE_SUBTRACT: result[i] = d[i] * df - s[i] * sf; break;
      case VK_BLEND_OP_MIN: result[i] = std::min(s[i], d[i]); break;
      case VK_BLEND_OP_MAX: result[i] = std::max(s[i], d[i]); break;
      default: result[i] = s[i] * sf + d[i] * df; break;  // VK_BLEND_OP_ADD
    }
  }
  for (int i = 0; i < 4; ++i)
    if (state.write_mask & (1u << i)) dst_inout[i] = result[i];
}

}  // namespace

bool blend_state_supported(const BlendState& state) {
  return factor_supported(state.src_color) && factor_supported(state.dst_color) &&
         factor_supported(state.src_alpha) && factor_supported(state.dst_alpha) && op_supported(state.color_op) &&
         op_supported(state.alpha_op);
}

void blend(const BlendState& state, const float constants[4], const float src[4], const float src1[4],
           float dst_inout[4]) {
  blend_clamped(state, BlendRange::Unbounded, constants, src, src1, dst_inout);
}

void blend_normalized(const BlendState& state, BlendRange range, const float constants[4], const float src[4],
                      const float src1[4], float dst_inout[4]) {
  blend_clamped(state, range, constants, src, src1, dst_inout);
}

}  // namespace tessera::pipeline
