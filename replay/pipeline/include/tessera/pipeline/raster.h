// Rasterization of one triangle inside one tile into 2x2 quads, Vulkan spec "Basic Polygon
// Rasterization" (single sample at the pixel centre, top-left rule) and "Barycentric
// Interpolation" (perspective-correct and NoPerspective).
#pragma once

#include <cstdint>
#include <vector>

#include "tessera/pipeline/binning.h"
#include "tessera/pipeline/vertex.h"

namespace tessera::pipeline {

// A 2x2 quad at even framebuffer coordinates. Pixel i of the quad is (x + i % 2, y + i / 2).
// Pixels whose bit is clear in `coverage` are helper pixels: they still carry barycentrics and
// depth (extrapolated from the plane equations) so the fragment shader can take derivatives
// across the whole quad (spec "Helper Invocations").
struct Quad {
  int32_t x = 0, y = 0;
  uint8_t coverage = 0;
  float bary[4][3] = {};         // perspective-correct barycentrics (default interpolation)
  float linear_bary[4][3] = {};  // screen-space barycentrics (NoPerspective)
  float depth[4] = {};           // z interpolated linearly in screen space
};

// Appends to `out` the quads of `triangle` whose pixels lie in `rect` (a tile clipped to the
// framebuffer and scissor) and that cover at least one pixel there. Pixels outside `rect` are
// never covered. Returns the number of quads appended.
//
// Coverage is decided on the snapped fixed-point edge functions (8 fractional bits, exact int64
// arithmetic) with the top-left rule, so two triangles sharing an edge never both cover, nor both
// miss, a sample on it.
uint32_t rasterize(const ScreenTriangle& triangle, const PixelRect& rect, std::vector<Quad>& out);

// Value of varying `index` at a pixel from its barycentrics (perspective or linear).
float interpolate(const ScreenTriangle& triangle, const float bary[3], uint32_t index);

}  // namespace tessera::pipeline
