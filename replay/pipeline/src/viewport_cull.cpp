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

SetupOutcome setup_triangle(const ClipTriangle& in, uint32_t varying_count, const Viewport& viewport,
                            uint32_t cull_mode, FrontFace front_face, ScreenTriangle& out) {
  varying_count = std::min(varying_count, kMaxVaryingFloats);
  const float px = viewport.width, py = viewport.height;
  const float ox = viewport.x + viewport.width / 2, oy = viewport.y + viewport.height / 2;
  const float pz = viewport.max_depth - viewport.min_depth, oz = viewport.min_depth;
  for (int i = 0; i < 3; ++i) {
    const Vec4& c = in[static_cast<size_t>(i)].position;
    // Clipping leaves w > 0; anything else (or NaN/inf from the shader) cannot be rasterized.
    if (!(c.w > 0) || !std::isfinite(c.x) || !std::isfinite(c.y) || !std::isfinite(c.z) ||
        !std::isfinite(c.w))
      return SetupOutcome::Degenerate;
    const float inv_w = 1.0f / c.w;
    ScreenVertex& s = out.v[i];
    s.x = px / 2 * (c.x * inv_w) + ox;
    s.y = py / 2 * (c.y * inv_w) + oy;
    s.z = pz * (c.z * inv_w) + oz;
    s.inv_w = inv_w;
    std::copy_n(in[static_cast<size_t>(i)].varyings.begin(), varying_count, s.varyings.begin());
  }
  out.varying_count = varying_count;
  snap(out);
  if (out.area2 == 0) return SetupOutcome::Degenerate;
  out.front_facing = front_face == FrontFace::CounterClockwise ? out.area2 > 0 : out.area2 < 0;
  if ((cull_mode & kCullFront) && out.front_facing) return SetupOutcome::Culled;
  if ((cull_mode & kCullBack) && !out.front_facing) return SetupOutcome::Culled;
  return SetupOutcome::Kept;
}

}  // namespace tessera::pipeline
