// Vertex data that flows between the geometry stages of the functional pipeline.
#pragma once

#include <array>
#include <cstdint>

namespace tessera::pipeline {

// Vulkan guarantees maxVertexOutputComponents >= 64 (spec table "Required Limits"), so a fixed
// array of 64 floats holds every vertex shader output without per-vertex allocation.
inline constexpr uint32_t kMaxVaryingFloats = 64;

struct Vec4 {
  float x = 0, y = 0, z = 0, w = 0;
};

// A post-vertex-shader vertex: clip-space position plus the vertex shader outputs (varyings),
// of which only the first `varying_count` floats (carried by the caller) are meaningful.
// Vulkan guarantees maxCombinedClipAndCullDistances >= 8 (spec table "Required Limits"), and
// lavapipe reports 8 (shader::kMaxClipCullDistances, which the shader loader enforces).
inline constexpr uint32_t kMaxClipCullDistances = 8;

struct ClipVertex {
  Vec4 position;
  float point_size = 1.0f;  // PointSize written by the vertex shader (1.0 when it writes none)
  std::array<float, kMaxVaryingFloats> varyings{};
  // The vertex shader's ClipDistance elements, then its CullDistance elements (ClipConfig says
  // how many of each; spec "Primitive Clipping" and "Built-In Variables").
  std::array<float, kMaxClipCullDistances> distances{};
};

}  // namespace tessera::pipeline

namespace tessera::pipeline {

// Sub-pixel precision of the rasterizer: framebuffer coordinates are snapped to 1/256 pixel
// (8 fractional bits; Vulkan requires subPixelPrecisionBits >= 4).
inline constexpr int kSubPixelBits = 8;
inline constexpr int64_t kSubPixelOne = int64_t{1} << kSubPixelBits;

// A vertex after the perspective divide and the viewport transform (framebuffer coordinates).
struct ScreenVertex {
  float x = 0, y = 0;  // framebuffer coordinates, pixels
  float z = 0;         // depth after the viewport depth transform
  float inv_w = 0;     // 1 / clip w, for perspective-correct interpolation
  std::array<float, kMaxVaryingFloats> varyings{};
};

enum class PrimitiveKind : uint8_t { Triangle, Line, Point };

// How a line segment covers samples (Vulkan spec "Basic Line Segment Rasterization",
// "Bresenham Line Segment Rasterization", "Smooth Lines").
enum class LineMode : uint8_t {
  Parallelogram,  // non-strictLines: end edges along the minor axis
  Rectangle,      // strictLines / RECTANGULAR: end edges perpendicular to the segment
  Bresenham,      // diamond-exit rule, whole pixels
  Smooth,         // RECTANGULAR_SMOOTH: pixels the rectangle touches, alpha scaled by the area
};

// A primitive ready for binning and rasterization, vertices in the order primitive assembly
// gave: a triangle, a line segment (v[0] -> v[1]; v[2] repeats v[1]) or a point (v[0]; v[1] and
// v[2] repeat it).
struct ScreenTriangle {
  ScreenVertex v[3];
  int64_t fx[3] = {}, fy[3] = {};  // snapped framebuffer coordinates, kSubPixelBits fractional bits
  int64_t area2 = 0;               // twice the signed area in snapped units (Vulkan sign convention)
  bool front_facing = true;
  uint32_t varying_count = 0;
  uint32_t primitive_id = 0;  // submission order, set by the caller

  // ---- Lines and points (line_point.h) ----
  PrimitiveKind kind = PrimitiveKind::Triangle;
  LineMode line_mode = LineMode::Rectangle;
  // The region a point (its square) or a non-Bresenham line (its rectangle or parallelogram)
  // covers: a convex quadrilateral, snapped corners in order around it.
  int64_t qx[4] = {}, qy[4] = {};
  float size = 1.0f;           // point size or line width, clamped to the device's range
  int32_t bresenham_width = 1;  // a Bresenham line's integer width (rows or columns per step)
  // Line stipple (VK_EXT_line_rasterization): on when factor != 0; `stipple_start` is the
  // stipple counter s at v[0] (a strip carries it from segment to segment).
  uint16_t stipple_pattern = 0, stipple_factor = 0;
  float stipple_start = 0.0f;
  // Maximum depth slope m of the polygon a line or point was drawn for (polygon mode LINE and
  // POINT, spec "Depth Bias": bias applies to triangles whatever their polygon mode); 0 for
  // line and point topologies.
  float depth_slope = 0.0f;
};

}  // namespace tessera::pipeline
