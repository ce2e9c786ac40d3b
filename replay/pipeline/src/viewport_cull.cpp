#include "tessera/pipeline/viewport_cull.h"

#include <algorithm>
#include <cmath>

namespace tessera::pipeline {

void snap(ScreenTriangle& t) {
  for (int i = 0; i < 3; ++i) {
    t.fx[i] = std::llround(static_cast<double>(t.v[i].x) * kSubPixelOne);
    t.fy[i] = std::llround(static_cast<double>(t.v[i].y) * kSubPixelOne);
  }
  // Twice the Vulkan signed area a = -1/2 sum (x_i y_{i+1} - x_{i+1} y_i), exact in int64.
  int64_t sum = 0;
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3;
    sum += t.fx[i] * t.fy[j] - t.fx[j] * t.fy[i];
  }
  t.area2 = -sum;
}

bool to_screen(const ClipVertex& in, uint32_t varying_count, const Viewport& viewport, ScreenVertex& s) {
  const Vec4& c = in.position;
  // Clipping leaves w > 0; anything else (or NaN/inf from the shader) cannot be rasterized.
  if (!(c.w > 0) || !std::isfinite(c.x) || !std::isfinite(c.y) || !std::isfinite(c.z) || !std::isfinite(c.w))
    return false;
  const float px = viewport.width, py = viewport.height;
  const float ox = viewport.x + viewport.width / 2, oy = viewport.y + viewport.height / 2;
  const float inv_w = 1.0f / c.w;
  s.x = px / 2 * (c.x * inv_w) + ox;
  s.y = py / 2 * (c.y * inv_w) + oy;
  if (viewport.negative_one_to_one) {
    s.z = (viewport.max_depth - viewport.min_depth) / 2 * (c.z * inv_w) + (viewport.max_depth + viewport.min_depth) / 2;
  } else {
    s.z = (viewport.max_depth - viewport.min_depth) * (c.z * inv_w) + viewport.min_depth;
  }
  s.inv_w = inv_w;
  std::copy_n(in.varyings.begin(), std::min(varying_count, kMaxVaryingFloats), s.varyings.begin());
  return true;
}

int64_t polygon_area2(const ScreenVertex* v, size_t n) {
  const auto fx = [&](size_t i) { return std::llround(static_cast<double>(v[i].x) * kSubPixelOne); };
  const auto fy = [&](size_t i) { return std::llround(static_cast<double>(v[i].y) * kSubPixelOne); };
  int64_t sum = 0;
  for (size_t i = 0; i < n; ++i) {
    const size_t j = (i + 1) % n;
    sum += fx(i) * fy(j) - fx(j) * fy(i);
  }
  return -sum;
}

float max_depth_slope(const ScreenTriangle& t) {
  const float x1 = t.v[1].x - t.v[0].x, y1 = t.v[1].y - t.v[0].y, z1 = t.v[1].z - t.v[0].z;
  const float x2 = t.v[2].x - t.v[0].x, y2 = t.v[2].y - t.v[0].y, z2 = t.v[2].z - t.v[0].z;
  const float det = x1 * y2 - x2 * y1;
  if (det == 0.0f) return 0.0f;
  const float dzdx = (z1 * y2 - z2 * y1) / det, dzdy = (x1 * z2 - x2 * z1) / det;
  return std::max(std::fabs(dzdx), std::fabs(dzdy));
}

SetupOutcome setup_triangle(const ClipTriangle& in, uint32_t varying_count, const Viewport& viewport,
                            uint32_t cull_mode, FrontFace front_face, ScreenTriangle& out) {
  varying_count = std::min(varying_count, kMaxVaryingFloats);
  for (int i = 0; i < 3; ++i)
    if (!to_screen(in[static_cast<size_t>(i)], varying_count, viewport, out.v[i])) return SetupOutcome::Degenerate;
  out.varying_count = varying_count;
  snap(out);
  if (out.area2 == 0) return SetupOutcome::Degenerate;
  out.front_facing = front_face == FrontFace::CounterClockwise ? out.area2 > 0 : out.area2 < 0;
  if ((cull_mode & kCullFront) && out.front_facing) return SetupOutcome::Culled;
  if ((cull_mode & kCullBack) && !out.front_facing) return SetupOutcome::Culled;
  return SetupOutcome::Kept;
}

}  // namespace tessera::pipeline
