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
struct ClipVertex {
  Vec4 position;
  std::array<float, kMaxVaryingFloats> varyings{};
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

// A triangle ready for binning and rasterization, vertices in the order primitive assembly gave.
struct ScreenTriangle {
  ScreenVertex v[3];
  int64_t fx[3] = {}, fy[3] = {};  // snapped framebuffer coordinates, kSubPixelBits fractional bits
  int64_t area2 = 0;               // twice the signed area in snapped units (Vulkan sign convention)
  bool front_facing = true;
  uint32_t varying_count = 0;
  uint32_t primitive_id = 0;  // submission order, set by the caller
};

}  // namespace tessera::pipeline
