// Perspective divide, viewport transform and face culling, Vulkan spec sections "Coordinate
// Transformations" (VkViewport) and "Basic Polygon Rasterization" (facingness, culling).
#pragma once

#include <cstddef>
#include <cstdint>

#include "tessera/pipeline/clip.h"
#include "tessera/pipeline/vertex.h"

namespace tessera::pipeline {

// Same fields and meaning as VkViewport; height may be negative (VK_KHR_maintenance1 / 1.1),
// which flips y.
struct Viewport {
  float x = 0, y = 0, width = 0, height = 0, min_depth = 0, max_depth = 1;
  // VK_EXT_depth_clip_control negativeOneToOne: zd in [-1, 1] maps to [min_depth, max_depth]
  // (pz = (max - min) / 2, oz = (max + min) / 2) instead of [0, 1].
  bool negative_one_to_one = false;
};

// Values of VkCullModeFlagBits and VkFrontFace.
enum CullMode : uint32_t { kCullNone = 0, kCullFront = 1, kCullBack = 2, kCullFrontAndBack = 3 };
enum class FrontFace : uint32_t { CounterClockwise = 0, Clockwise = 1 };

enum class SetupOutcome { Kept, Culled, Degenerate };

// Divides by w, applies the viewport transform
//   xf = (width/2) xd + (x + width/2),  yf = (height/2) yd + (y + height/2),
//   zf = (max_depth - min_depth) zd + min_depth,
// snaps x, y to the sub-pixel grid, and decides facingness from the sign of the signed area
//   a = -1/2 sum_i (xf_i yf_{i+1} - xf_{i+1} yf_i)
// (a > 0 is front-facing for VK_FRONT_FACE_COUNTER_CLOCKWISE, a < 0 for CLOCKWISE). The area is
// taken on the snapped coordinates, the ones the rasterizer uses, so a triangle that snaps to zero
// area is removed as degenerate rather than rasterized with an undefined orientation.
// Snaps v[].x, v[].y to the sub-pixel grid (fx, fy) and computes area2 from the snapped values.
// The guard band of the clip stage bounds |x|, |y| so the products stay within int64.
void snap(ScreenTriangle& triangle);

// Divide by w and viewport transform of one vertex (and its first `varying_count` varyings);
// false when w <= 0 or a coordinate is not finite (nothing can be rasterized from it).
bool to_screen(const ClipVertex& in, uint32_t varying_count, const Viewport& viewport, ScreenVertex& out);

// Twice the Vulkan signed area of a polygon of `n` screen vertices (spec "Basic Polygon
// Rasterization"), on the snapped coordinates: what decides the facing of a clipped polygon
// drawn in polygon mode LINE or POINT.
int64_t polygon_area2(const ScreenVertex* v, size_t n);

// Maximum depth slope m = max(|dz/dx|, |dz/dy|) of the plane through a triangle's three
// screen vertices (spec "Depth Bias", the allowed approximation); 0 for a degenerate one.
float max_depth_slope(const ScreenTriangle& triangle);

SetupOutcome setup_triangle(const ClipTriangle& in, uint32_t varying_count, const Viewport& viewport,
                            uint32_t cull_mode, FrontFace front_face, ScreenTriangle& out);

}  // namespace tessera::pipeline
