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

// Clamp of spec "Blend Operations" for a fixed-point attachment (none for Unbounded).
template <BlendRange kRange>
inline float clamp_to(float v) {
  if constexpr (kRange == BlendRange::Unbounded) return v;
  else return std::clamp(v, kRange == BlendRange::Snorm ? -1.0f : 0.0f, 1.0f);
}

// Factors of components [i0, i1), clamped: factor_value() per component, its switch taken once
// for the group (the colour factor covers RGB, the alpha factor A), the same values. `s` and `d`
// come clamped; the constants `c` and the second source `s1` unclamped (most factors never read
// them).
template <BlendRange kRange>
[[gnu::always_inline]] inline void group_factors(uint32_t factor, int i0, int i1, const float c[4], const float s[4],
                                                 const float s1[4], const float d[4], float out[4]) {
  switch (factor) {
    case VK_BLEND_FACTOR_ZERO: for (int i = i0; i < i1; ++i) out[i] = 0; break;
    case VK_BLEND_FACTOR_ONE: for (int i = i0; i < i1; ++i) out[i] = 1; break;
    case VK_BLEND_FACTOR_SRC_ALPHA: for (int i = i0; i < i1; ++i) out[i] = s[3]; break;
    case VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA: for (int i = i0; i < i1; ++i) out[i] = 1 - s[3]; break;
    case VK_BLEND_FACTOR_SRC_COLOR: for (int i = i0; i < i1; ++i) out[i] = s[i]; break;
    case VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR: for (int i = i0; i < i1; ++i) out[i] = 1 - s[i]; break;
    case VK_BLEND_FACTOR_DST_COLOR: for (int i = i0; i < i1; ++i) out[i] = d[i]; break;
    case VK_BLEND_FACTOR_ONE_MINUS_DST_COLOR: for (int i = i0; i < i1; ++i) out[i] = 1 - d[i]; break;
    case VK_BLEND_FACTOR_DST_ALPHA: for (int i = i0; i < i1; ++i) out[i] = d[3]; break;
    case VK_BLEND_FACTOR_ONE_MINUS_DST_ALPHA: for (int i = i0; i < i1; ++i) out[i] = 1 - d[3]; break;
    default: {
      // The constant, SRC1 and saturate factors: their inputs clamped here, where they are read.
      float cc[4], cs1[4];
      for (int i = 0; i < 4; ++i) {
        cc[i] = clamp_to<kRange>(c[i]);
        cs1[i] = clamp_to<kRange>(s1[i]);
      }
      for (int i = i0; i < i1; ++i) out[i] = factor_value(factor, i, cc, s, cs1, d);
      break;
    }
  }
  for (int i = i0; i < i1; ++i) out[i] = clamp_to<kRange>(out[i]);
}

// The op on components [i0, i1) (spec "Blend Operations").
[[gnu::always_inline]] inline void group_op(uint32_t op, int i0, int i1, const float s[4], const float d[4],
                                            const float sf[4], const float df[4], float result[4]) {
  switch (op) {
    case VK_BLEND_OP_SUBTRACT: for (int i = i0; i < i1; ++i) result[i] = s[i] * sf[i] - d[i] * df[i]; break;
    case VK_BLEND_OP_REVERSE_SUBTRACT: for (int i = i0; i < i1; ++i) result[i] = d[i] * df[i] - s[i] * sf[i]; break;
    case VK_BLEND_OP_MIN: for (int i = i0; i < i1; ++i) result[i] = std::min(s[i], d[i]); break;
    case VK_BLEND_OP_MAX: for (int i = i0; i < i1; ++i) result[i] = std::max(s[i], d[i]); break;
    default: for (int i = i0; i < i1; ++i) result[i] = s[i] * sf[i] + d[i] * df[i]; break;  // VK_BLEND_OP_ADD
  }
}

template <BlendRange kRange>
void blend_clamped(const BlendState& state, const float constants[4], const float src[4], const float src1[4],
                   float dst_inout[4]) {
  float result[4];
  if (!state.enable) {
    for (int i = 0; i < 4; ++i) result[i] = src[i];
  } else {
    float s[4], d[4], sf[4], df[4];
    for (int i = 0; i < 4; ++i) {
      s[i] = clamp_to<kRange>(src[i]);
      d[i] = clamp_to<kRange>(dst_inout[i]);
    }
    group_factors<kRange>(state.src_color, 0, 3, constants, s, src1, d, sf);
    group_factors<kRange>(state.src_alpha, 3, 4, constants, s, src1, d, sf);
    group_factors<kRange>(state.dst_color, 0, 3, constants, s, src1, d, df);
    group_factors<kRange>(state.dst_alpha, 3, 4, constants, s, src1, d, df);
    group_op(state.color_op, 0, 3, s, d, sf, df, result);
    group_op(state.alpha_op, 3, 4, s, d, sf, df, result);
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
  blend_clamped<BlendRange::Unbounded>(state, constants, src, src1, dst_inout);
}

void blend_normalized(const BlendState& state, BlendRange range, const float constants[4], const float src[4],
                      const float src1[4], float dst_inout[4]) {
  switch (range) {
    case BlendRange::Unorm: blend_clamped<BlendRange::Unorm>(state, constants, src, src1, dst_inout); break;
    case BlendRange::Snorm: blend_clamped<BlendRange::Snorm>(state, constants, src, src1, dst_inout); break;
    default: blend_clamped<BlendRange::Unbounded>(state, constants, src, src1, dst_inout); break;
  }
}

}  // namespace tessera::pipeline
