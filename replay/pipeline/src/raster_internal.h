// Pieces raster.cpp (triangles, dispatch) and raster_line_point.cpp (points and lines) share.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "tessera/pipeline/raster.h"

namespace tessera::pipeline {

inline int64_t floor_div(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
inline int64_t ceil_div(int64_t a, int64_t b) { return -floor_div(-a, b); }

// The pixels inside `rect` whose square meets a bounding box given in sub-pixel units (every
// sample location lies in its pixel's square): [x0, x1] x [y0, y1], empty when x0 > x1 or
// y0 > y1.
struct PixelRange {
  int64_t x0, y0, x1, y1;
  bool empty() const { return x0 > x1 || y0 > y1; }
};
inline PixelRange pixel_range(int64_t minx, int64_t maxx, int64_t miny, int64_t maxy, const PixelRect& rect) {
  return {std::max<int64_t>(floor_div(minx, kSubPixelOne), rect.x0), std::max<int64_t>(floor_div(miny, kSubPixelOne), rect.y0),
          std::min<int64_t>(floor_div(maxx, kSubPixelOne), rect.x1 - 1), std::min<int64_t>(floor_div(maxy, kSubPixelOne), rect.y1 - 1)};
}
inline PixelRange triangle_pixels(const ScreenTriangle& t, const PixelRect& rect) {
  return pixel_range(std::min({t.fx[0], t.fx[1], t.fx[2]}), std::max({t.fx[0], t.fx[1], t.fx[2]}),
                     std::min({t.fy[0], t.fy[1], t.fy[2]}), std::max({t.fy[0], t.fy[1], t.fy[2]}), rect);
}
// Of the quadrilateral of a line or point (ScreenTriangle::qx, qy).
inline PixelRange region_pixels(const ScreenTriangle& t, const PixelRect& rect) {
  return pixel_range(std::min({t.qx[0], t.qx[1], t.qx[2], t.qx[3]}), std::max({t.qx[0], t.qx[1], t.qx[2], t.qx[3]}),
                     std::min({t.qy[0], t.qy[1], t.qy[2], t.qy[3]}), std::max({t.qy[0], t.qy[1], t.qy[2], t.qy[3]}), rect);
}

// A new quad at (qx, qy) with coverage `mask` appended to `out`.
inline Quad& new_quad(std::vector<Quad>& out, int64_t qx, int64_t qy, uint8_t mask) {
  Quad& q = out.emplace_back();
  q.x = static_cast<int32_t>(qx);
  q.y = static_cast<int32_t>(qy);
  q.coverage = mask;
  return q;
}

// Pixel i of `q` from the screen-space barycentrics l of its location: perspective-correct
// weights (spec "Barycentric Interpolation": the screen-space ones scaled by 1/w of each vertex
// and renormalised) and the linearly interpolated depth.
inline void set_pixel(const ScreenTriangle& t, const float l[3], Quad& q, int i) {
  float p[3], denom = 0;
  for (int k = 0; k < 3; ++k) denom += (p[k] = l[k] * t.v[k].inv_w);
  const float rcp = 1.0f / denom;
  for (int k = 0; k < 3; ++k) {
    q.bary[i][k] = p[k] * rcp;
    q.linear_bary[i][k] = l[k];
  }
  q.depth[i] = l[0] * t.v[0].z + l[1] * t.v[1].z + l[2] * t.v[2].z;
}

// A triangle's depth as a plane through its vertices as the viewport transform gave them, before
// their positions were snapped to sub-pixel precision: z(x, y) = z0 + dzdx (x - x0) + dzdy (y - y0)
// at framebuffer position (x, y) pixels. Coverage uses the snapped vertices (spec "Polygon
// Rasterization": sub-pixel precision); lavapipe sets up its interpolation coefficients from the
// vertices' floating-point positions (llvmpipe's triangle setup), so two coplanar triangles with
// different vertices get the same depth at a pixel, where through the snapped vertices they would
// differ by up to the depth slope times half a sub-pixel step: more than a depth bias of a few
// units (a decal) makes up for. Depth only: varyings keep the snapped barycentrics. llvmpipe
// evaluates its plane from the origin in single precision; this one is relative to a vertex in
// double, so it agrees with lavapipe to within lavapipe's own rounding. A sample inside the
// snapped triangle may lie outside the unsnapped one, where the plane extrapolates (far, on a
// sliver whose unsnapped vertices are nearly collinear): depth is kept within the vertices'
// range, as any barycentric combination of them is. `flat`: the unsnapped vertices are collinear;
// depth then comes from the snapped barycentrics.
struct DepthPlane {
  double x0 = 0, y0 = 0, z0 = 0, dzdx = 0, dzdy = 0;
  float zmin = 0, zmax = 0;
  bool flat = true;
  float at(double x, double y) const {
    return std::clamp(static_cast<float>(z0 + dzdx * (x - x0) + dzdy * (y - y0)), zmin, zmax);
  }
};
inline DepthPlane depth_plane(const ScreenTriangle& t) {
  DepthPlane p;
  p.x0 = t.v[0].x, p.y0 = t.v[0].y, p.z0 = t.v[0].z;
  p.zmin = std::min({t.v[0].z, t.v[1].z, t.v[2].z});
  p.zmax = std::max({t.v[0].z, t.v[1].z, t.v[2].z});
  const double x1 = double{t.v[1].x} - p.x0, y1 = double{t.v[1].y} - p.y0, z1 = double{t.v[1].z} - p.z0;
  const double x2 = double{t.v[2].x} - p.x0, y2 = double{t.v[2].y} - p.y0, z2 = double{t.v[2].z} - p.z0;
  const double det = x1 * y2 - x2 * y1;
  if (det == 0.0) return p;
  p.dzdx = (z1 * y2 - z2 * y1) / det;
  p.dzdy = (x1 * z2 - x2 * z1) / det;
  p.flat = false;
  return p;
}

// A line's t at framebuffer position (x, y) pixels: spec "Basic Line Segment Rasterization",
// t = ((p - pa) . (pb - pa)) / |pb - pa|^2 on the snapped endpoints, clamped to [0, 1].
double line_parameter(const ScreenTriangle& line, double x, double y);

uint32_t rasterize_region(const ScreenTriangle& t, const PixelRect& rect, const SampleGrid& g,
                          std::vector<Quad>& out, std::vector<QuadSamples>& samples);
uint32_t rasterize_bresenham(const ScreenTriangle& t, const PixelRect& rect, const SampleGrid& g,
                             std::vector<Quad>& out, std::vector<QuadSamples>& samples);
uint32_t rasterize_smooth(const ScreenTriangle& t, const PixelRect& rect, const SampleGrid& g,
                          std::vector<Quad>& out, std::vector<QuadSamples>& samples);

}  // namespace tessera::pipeline
