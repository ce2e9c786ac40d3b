// Clipping of a triangle in clip space, Vulkan spec section "Primitive Clipping".
//
// Besides the view volume, a primitive is clipped to where each of its vertex shader's clip
// distances (ClipDistance, what GL's user clip planes become) interpolates to >= 0, the distances
// interpolated linearly in clip space as varyings are; and it is culled whole when, for some cull
// distance (CullDistance), every one of its vertices has a negative value.
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
  // VK_EXT_depth_clip_control negativeOneToOne: the depth planes are -w <= z <= w.
  bool negative_one_to_one = false;
  // ClipVertex::distances: the first clip_distances are clip distances, the next cull_distances
  // cull distances (together at most kMaxClipCullDistances).
  uint32_t clip_distances = 0, cull_distances = 0;
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

// Clips the segment a -> b against the same planes (spec: "If the primitive under consideration
// is a point or line segment, then clipping passes it unchanged if its vertices lie entirely
// within the clip volume", otherwise it is cut where it leaves the volume). Endpoints outside
// are moved onto the plane, their varyings and point size interpolated in clip space.
ClipOutcome clip_line(ClipVertex& a, ClipVertex& b, uint32_t varying_count, const ClipConfig& config);

// A point is not clipped: it is drawn or discarded whole. With `view_volume`
// (VK_POINT_CLIPPING_BEHAVIOR_ALL_CLIP_PLANES) a vertex outside any plane of the view volume
// discards it; otherwise only w <= 0 (or one beyond the guard band, where no point can reach the
// viewport) does. A negative clip or cull distance discards it either way.
bool point_kept(const ClipVertex& v, const ClipConfig& config, bool view_volume);

}  // namespace tessera::pipeline
