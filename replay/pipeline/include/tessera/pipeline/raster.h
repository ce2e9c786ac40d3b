// Rasterization of one primitive inside one tile into 2x2 quads: Vulkan spec "Basic Polygon
// Rasterization" (top-left rule), "Basic Point Rasterization", "Basic Line Segment
// Rasterization" (rectangles and non-strict parallelograms), "Bresenham Line Segment
// Rasterization" (diamond exit), "Smooth Lines", "Line Stipple", "Barycentric Interpolation"
// (perspective-correct and NoPerspective), and "Multisampling" (coverage at the standard sample
// locations).
#pragma once

#include <cstdint>
#include <vector>

#include "tessera/pipeline/binning.h"
#include "tessera/pipeline/vertex.h"

namespace tessera::pipeline {

inline constexpr uint32_t kMaxSamples = 16;

// Sample locations of a rasterizationSamples count (spec table "Standard sample locations"),
// in sub-pixel units from the pixel's upper left corner, sample i at (x[i], y[i]).
struct SampleGrid {
  uint32_t count = 1;
  int32_t x[kMaxSamples] = {kSubPixelOne / 2}, y[kMaxSamples] = {kSubPixelOne / 2};
  SampleExtent extent;  // the outermost samples, for binning
};

// The standard grid of 1, 2, 4, 8 or 16 samples; nullptr for any other count.
const SampleGrid* standard_samples(uint32_t count);

// A 2x2 quad at even framebuffer coordinates. Pixel i of the quad is (x + i % 2, y + i / 2).
// Pixels whose bit is clear in `coverage` are helper pixels: they still carry barycentrics and
// depth (extrapolated from the plane equations) so the fragment shader can take derivatives
// across the whole quad (spec "Helper Invocations").
struct Quad {
  int32_t x = 0, y = 0;
  uint8_t coverage = 0;          // pixel i covered when any of its samples is
  float bary[4][3] = {};         // perspective-correct barycentrics (default interpolation)
  float linear_bary[4][3] = {};  // screen-space barycentrics (NoPerspective)
  float depth[4] = {};           // z interpolated linearly in screen space
};

// What a quad of a multisampled rasterization adds per sample (raster with count > 1).
struct QuadSamples {
  uint16_t covered[4] = {};           // bit s: sample s of pixel i is covered
  float depth[4][kMaxSamples] = {};   // z at each covered sample's location
};

// Appends to `out` the quads of `primitive` whose pixels lie in `rect` (a tile clipped to the
// framebuffer and scissor) and that cover at least one pixel there, sampled at the pixel centre
// (one sample). Pixels outside `rect` are never covered. Returns the number of quads appended.
//
// Triangle coverage is decided on the snapped fixed-point edge functions (8 fractional bits,
// exact int64 arithmetic) with the top-left rule, so two triangles sharing an edge never both
// cover, nor both miss, a sample on it. The quadrilaterals of points and rectangular and
// parallelogram lines use the same rule.
uint32_t rasterize(const ScreenTriangle& primitive, const PixelRect& rect, std::vector<Quad>& out);

// The same at the sample locations of `grid`; for more than one sample `samples` receives one
// entry per quad appended (coverage and depth of each sample).
uint32_t rasterize(const ScreenTriangle& primitive, const PixelRect& rect, const SampleGrid& grid,
                   std::vector<Quad>& out, std::vector<QuadSamples>& samples);

// Barycentrics (perspective and linear) and depth of a primitive at framebuffer position (x, y)
// in pixels, as the rasterizer computes them at a pixel centre: a triangle's plane equations,
// a line's parameter t (the position projected onto the segment, clamped to [0, 1]), a
// point's single vertex. For interpolation at sample locations (sample shading).
void interpolate_at(const ScreenTriangle& primitive, double x, double y, float bary[3],
                    float linear_bary[3], float* depth);

// Fraction of pixel (px, py) a RECTANGULAR_SMOOTH line's rectangle covers, from 16 evenly spread
// points: the factor its fragment's alpha is multiplied by (spec "Smooth Lines").
float smooth_line_coverage(const ScreenTriangle& line, int32_t px, int32_t py);

// How far the line stipple counter s advances over a segment (spec "Line Stipple"): its length
// in pixels, or for a Bresenham line the fragments it produces along its major axis. A strip
// carries the counter on to its next segment.
double line_stipple_advance(const ScreenTriangle& line);

// Value of varying `index` at a pixel from its barycentrics (perspective or linear).
float interpolate(const ScreenTriangle& triangle, const float bary[3], uint32_t index);

}  // namespace tessera::pipeline
