// Clipping of a triangle in clip space, Vulkan spec section "Primitive Clipping".
//
// Only the planes that must be clipped exactly are clipped: the depth planes 0 <= z <= w (the
// Vulkan view volume's z range; near-plane clipping also guarantees w > 0 for the perspective
// divide). The x and y planes are handled by a guard band: the rasterizer clips to the scissor
// and the framebuffer per pixel, so a triangle only has to be clipped in x or y when it reaches
// beyond |x| <= guard_band * w (and likewise y), which keeps the 8-fractional-bit fixed-point
// edge functions of the raster stage within int64. With the default guard band of 8 (eight
// times the viewport half-extent on each side) a 4096-pixel viewport spans +-16384 pixels.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "tessera/pipeline/vertex.h"

namespace tessera::pipeline {

struct ClipConfig {
  float guard_band = 8.0f;  // in NDC units, see above
  bool depth_clip = true;   // false models depthClampEnable without depthClipEnable
};

using ClipTriangle = std::array<ClipVertex, 3>;

enum class ClipOutcome {
  Inside,     // passed through unchanged
  Clipped,    // replaced by the triangles of the clipped polygon
  Discarded,  // wholly outside one plane of the view volume
};

// Appends to `out` the triangles that replace `in` (none, the same one, or a fan of the clipped
// polygon, which keeps the winding of `in`). New vertices interpolate the position and the first
// `varying_count` varyings linearly in clip space, which is what makes them perspective-correct.
ClipOutcome clip_triangle(const ClipTriangle& in, uint32_t varying_count, const ClipConfig& config,
                          std::vector<ClipTriangle>& out);

}  // namespace tessera::pipeline
