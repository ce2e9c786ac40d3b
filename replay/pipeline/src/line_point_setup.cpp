#include "tessera/pipeline/line_point_setup.h"

#include <cmath>

#include "tessera/pipeline/viewport_cull.h"

namespace tessera::pipeline {

namespace {

int64_t snap_coordinate(double pixels) { return std::llround(pixels * static_cast<double>(kSubPixelOne)); }

void set_corner(ScreenTriangle& t, int i, double x, double y) {
  t.qx[i] = snap_coordinate(x);
  t.qy[i] = snap_coordinate(y);
}

// The region between the segment a -> b offset by +-(nx, ny), each end moved by (ex, ey)
// outwards: corners a - e + n, b + e + n, b + e - n, a - e - n.
void set_band(ScreenTriangle& t, double ax, double ay, double bx, double by, double nx, double ny,
              double ex, double ey) {
  set_corner(t, 0, ax - ex + nx, ay - ey + ny);
  set_corner(t, 1, bx + ex + nx, by + ey + ny);
  set_corner(t, 2, bx + ex - nx, by + ey - ny);
  set_corner(t, 3, ax - ex - nx, ay - ey - ny);
}

}  // namespace

bool setup_line(const ScreenVertex& a, const ScreenVertex& b, uint32_t varying_count,
                const LineState& state, ScreenTriangle& t) {
  t = ScreenTriangle{};
  t.kind = PrimitiveKind::Line;
  t.v[0] = a;
  t.v[1] = t.v[2] = b;
  t.varying_count = varying_count;
  snap(t);  // fx, fy of both endpoints (area2 is 0: not a triangle)
  const int64_t fdx = t.fx[1] - t.fx[0], fdy = t.fy[1] - t.fy[0];
  if (fdx == 0 && fdy == 0) return false;
  t.line_mode = state.mode;
  t.size = state.width;
  t.stipple_factor = state.stipple_factor;
  t.stipple_pattern = state.stipple_pattern;
  const double one = static_cast<double>(kSubPixelOne);
  const double ax = static_cast<double>(t.fx[0]) / one, ay = static_cast<double>(t.fy[0]) / one;
  const double bx = static_cast<double>(t.fx[1]) / one, by = static_cast<double>(t.fy[1]) / one;
  const double dx = bx - ax, dy = by - ay, len = std::hypot(dx, dy);
  const bool x_major = std::fabs(dx) >= std::fabs(dy);
  switch (state.mode) {
    case LineMode::Rectangle: {
      // Two edges parallel to the segment at half the width, two through the endpoints.
      const double h = state.width / 2.0;
      set_band(t, ax, ay, bx, by, -dy / len * h, dx / len * h, 0, 0);
      break;
    }
    case LineMode::Parallelogram: {
      // Edges 2 and 3 along the minor axis, centred on the endpoints, lineWidth long.
      const double h = state.width / 2.0;
      set_band(t, ax, ay, bx, by, x_major ? 0 : h, x_major ? h : 0, 0, 0);
      break;
    }
    case LineMode::Smooth: {
      // Every pixel the rectangle touches has its centre within half a pixel diagonal of it.
      const double g = std::sqrt(0.5) + 1.0 / one, h = state.width / 2.0 + g;
      set_band(t, ax, ay, bx, by, -dy / len * h, dx / len * h, dx / len * g, dy / len * g);
      break;
    }
    case LineMode::Bresenham: {
      // Width: lineWidth rounded, at least 1 (the caller clamps to the rounded range). The
      // stored region only bins the line: it holds every fragment's centre, which lies within
      // half a pixel of the segment along the major axis and within w / 2 of it along the
      // minor axis (its row centres are within 1/2 of the offset line).
      t.bresenham_width = std::max(1, static_cast<int32_t>(std::lround(state.width)));
      const double h = t.bresenham_width / 2.0 + 2.0 / one, e = 0.5 + 2.0 / one;
      const double slope = x_major ? dy / dx : dx / dy;  // |slope| <= 1 along the major axis
      const double sgn = (x_major ? dx : dy) > 0 ? 1.0 : -1.0;
      set_band(t, ax, ay, bx, by, x_major ? 0 : h, x_major ? h : 0, x_major ? sgn * e : sgn * e * slope,
               x_major ? sgn * e * slope : sgn * e);
      break;
    }
  }
  return true;
}

bool setup_point(const ScreenVertex& v, uint32_t varying_count, float size, ScreenTriangle& t) {
  if (!(size > 0.0f)) return false;
  t = ScreenTriangle{};
  t.kind = PrimitiveKind::Point;
  t.v[0] = t.v[1] = t.v[2] = v;
  t.varying_count = varying_count;
  t.size = size;
  snap(t);
  // The square centred on the exact (unsnapped) vertex position, spec "Basic Point Rasterization".
  const double h = size / 2.0;
  set_corner(t, 0, v.x - h, v.y - h);
  set_corner(t, 1, v.x + h, v.y - h);
  set_corner(t, 2, v.x + h, v.y + h);
  set_corner(t, 3, v.x - h, v.y + h);
  return true;
}

}  // namespace tessera::pipeline
