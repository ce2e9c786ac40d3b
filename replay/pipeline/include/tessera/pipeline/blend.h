// Colour blending of one fragment's output with the attachment's value: Vulkan spec "Blend
// Factors" (VkBlendFactor, incl. SRC_ALPHA_SATURATE and the dual-source SRC1 factors), "Blend
// Operations" (VkBlendOp ADD, SUBTRACT, REVERSE_SUBTRACT, MIN, MAX) and the colour write mask.
#pragma once

#include <cstdint>

namespace tessera::pipeline {

// The fields of VkPipelineColorBlendAttachmentState, as their Vulkan enum values.
struct BlendState {
  bool enable = false;
  uint32_t src_color = 0, dst_color = 0, color_op = 0, src_alpha = 0, dst_alpha = 0, alpha_op = 0;
  uint32_t write_mask = 0xf;  // VkColorComponentFlags: R = 1, G = 2, B = 4, A = 8
};

// True when every factor and op of `state` is one blend() implements (the core VkBlendFactor and
// the five core VkBlendOp; not the VK_EXT_blend_operation_advanced ops).
bool blend_state_supported(const BlendState& state);

// dst_inout = write_mask(blend(src, dst_inout)). With blending enabled, RGB = op(S * Sf, D * Df)
// using the colour factors and A likewise with the alpha factors; MIN and MAX take min/max(S, D)
// and ignore the factors. With blending disabled the result is `src`. Components whose write-mask
// bit is clear keep their dst_inout value. `src1` is the second (dual-source, index 1) output,
// only read by the SRC1 factors; `constants` is the blend constant (vkCmdSetBlendConstants).
// Values are used as given: for a UNORM (SNORM) attachment the spec clamps source, destination,
// constants and factors to [0, 1] ([-1, 1]) first; that is blend_normalized() below.
// Unsupported factors act as ZERO, unsupported ops as ADD (check blend_state_supported).
void blend(const BlendState& state, const float constants[4], const float src[4], const float src1[4],
           float dst_inout[4]);

// Range of a fixed-point colour attachment, for the clamp of spec "Blend Operations": "If the color
// attachment is fixed-point, the components of the source and destination values and blend
// factors are each clamped to [0,1] or [-1,1] respectively for an unsigned normalized or signed
// normalized color attachment prior to evaluating the blend operations."
enum class BlendRange : uint8_t { Unbounded, Unorm, Snorm };

// blend() with that clamp applied (Unbounded = blend() itself, for float attachments).
void blend_normalized(const BlendState& state, BlendRange range, const float constants[4], const float src[4],
                      const float src1[4], float dst_inout[4]);

}  // namespace tessera::pipeline
