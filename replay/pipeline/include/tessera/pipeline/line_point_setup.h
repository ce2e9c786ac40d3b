// Setup of line segments and points after the viewport transform: the region each covers,
// Vulkan spec "Basic Point Rasterization" (a square of side PointSize centred on the vertex),
// "Basic Line Segment Rasterization" (a rectangle lineWidth wide, its ends through the endpoints;
// with strictLines false a parallelogram whose ends are parallel to the minor axis), "Bresenham
// Line Segment Rasterization" (integer width) and "Smooth Lines". The result is a
// ScreenTriangle of kind Line or Point for binning and raster (raster.h).
#pragma once

#include <cstdint>

#include "tessera/pipeline/vertex.h"

namespace tessera::pipeline {

struct LineState {
  LineMode mode = LineMode::Rectangle;
  float width = 1.0f;  // lineWidth, already clamped to the device's lineWidthRange
  // VK_EXT_line_rasterization stipple; factor 0 when stippling is off.
  uint16_t stipple_factor = 0, stipple_pattern = 0;
};

// A segment a -> b in framebuffer coordinates (varyings in a and b). False (nothing to draw)
// for a segment that snaps to zero length.
bool setup_line(const ScreenVertex& a, const ScreenVertex& b, uint32_t varying_count,
                const LineState& state, ScreenTriangle& out);

// A point of side `size` (PointSize clamped to the device's pointSizeRange) centred on `v`.
// False for a size that is not positive.
bool setup_point(const ScreenVertex& v, uint32_t varying_count, float size, ScreenTriangle& out);

}  // namespace tessera::pipeline
