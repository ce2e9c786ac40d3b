// Rasterization of points and line segments (raster.h): the coverage region of points and of
// rectangular and parallelogram lines, Bresenham's diamond-exit rule, smooth lines, line stipple.
#include <algorithm>
#include <cmath>

#include "raster_internal.h"
#include "tessera/pipeline/edge.h"

namespace tessera::pipeline {

namespace {

constexpr double kOne = static_cast<double>(kSubPixelOne);

double line_length(const ScreenTriangle& t) {
  return std::hypot(static_cast<double>(t.fx[1] - t.fx[0]), static_cast<double>(t.fy[1] - t.fy[0])) / kOne;
}

// Spec "Line Stipple": with counter s, the fragment is kept when bit floor(s / factor) mod 16 of
// the pattern is set.
bool stipple_keeps(const ScreenTriangle& t, double s) {
  if (t.stipple_factor == 0) return true;
  const auto n = static_cast<int64_t>(std::floor(std::max(s, 0.0)));
  return ((t.stipple_pattern >> ((n / t.stipple_factor) % 16)) & 1u) != 0;
}

// Distance along a line from v[0] to the projection of (x, y), in pixels (not clamped).
double along(const ScreenTriangle& t, double x, double y) {
  const double ax = static_cast<double>(t.fx[0]) / kOne, ay = static_cast<double>(t.fy[0]) / kOne;
  const double dx = static_cast<double>(t.fx[1] - t.fx[0]) / kOne, dy = static_cast<double>(t.fy[1] - t.fy[0]) / kOne;
  const double len = std::hypot(dx, dy);
  return len > 0 ? ((x - ax) * dx + (y - ay) * dy) / len : 0.0;
}

// Pixel data at the pixel centres of a quad, from the primitive's interpolation rule.
void fill_quad(const ScreenTriangle& t, Quad& q) {
  for (int i = 0; i < 4; ++i) {
    const double x = q.x + (i & 1) + 0.5, y = q.y + (i >> 1) + 0.5;
    float l[3] = {1.0f, 0.0f, 0.0f};
    if (t.kind == PrimitiveKind::Line) {
      const double tl = line_parameter(t, x, y);
      l[0] = static_cast<float>(1.0 - tl);
      l[1] = static_cast<float>(tl);
    }
    set_pixel(t, l, q, i);
  }
}

// Depth of a line or point at (x, y): linear along the line (spec "Basic Line Segment
// Rasterization": "The depth value z for a sample is determined using linear interpolation").
float depth_at(const ScreenTriangle& t, double x, double y) {
  if (t.kind != PrimitiveKind::Line) return t.v[0].z;
  const double tl = line_parameter(t, x, y);
  return static_cast<float>((1.0 - tl) * t.v[0].z + tl * t.v[1].z);
}

// Quads of a per-pixel coverage map over `rect` (whole pixels: Bresenham and smooth lines cover
// every sample of the pixels they produce; their samples' depth is the pixel centre's, which the
// spec allows: "sample locations may all be treated as being at the pixel center").
uint32_t emit_pixels(const ScreenTriangle& t, const PixelRect& rect, const std::vector<uint8_t>& map,
                     const SampleGrid& g, std::vector<Quad>& out, std::vector<QuadSamples>& samples) {
  const int64_t w = rect.x1 - rect.x0;
  uint32_t emitted = 0;
  for (int64_t qy = rect.y0 & ~int64_t{1}; qy < rect.y1; qy += 2)
    for (int64_t qx = rect.x0 & ~int64_t{1}; qx < rect.x1; qx += 2) {
      uint8_t mask = 0;
      for (int i = 0; i < 4; ++i) {
        const int64_t px = qx + (i & 1), py = qy + (i >> 1);
        if (px >= rect.x0 && px < rect.x1 && py >= rect.y0 && py < rect.y1 &&
            map[static_cast<size_t>((py - rect.y0) * w + (px - rect.x0))])
          mask = static_cast<uint8_t>(mask | (1u << i));
      }
      if (!mask) continue;
      Quad& q = new_quad(out, qx, qy, mask);
      fill_quad(t, q);
      if (g.count > 1) {
        QuadSamples& qs = samples.emplace_back();
        for (int i = 0; i < 4; ++i) {
          if (!((mask >> i) & 1u)) continue;
          qs.covered[i] = static_cast<uint16_t>((1u << g.count) - 1);
          std::fill_n(qs.depth[i], g.count, q.depth[i]);
        }
      }
      ++emitted;
    }
  return emitted;
}

// A Bresenham line in major (u) / minor (v) coordinates (x-major: u = x; y-major: u = y), its
// endpoints moved (w - 1) / 2 pixels towards smaller minor coordinates (spec: "the segment with
// endpoints (x0, y0 - (w-1)/2) and (x1, y1 - (w-1)/2) is rasterized, but instead of a single
// fragment, a column of fragments of height w ... is produced"). The spec's perturbation of the
// endpoints by (-e, -e^2) decides every tie exactly, see row() and in_diamond().
struct Bresenham {
  bool x_major = true;
  int64_t ua = 0, va = 0, ub = 0, vb = 0;  // sub-pixel units
  int dir = 1;                              // travel direction along u
  bool empty = true;
  int64_t first = 0, last = 0;  // produced columns (pixel index along u), in travel order
  bool start_pixel = false;     // the first column is the start pixel's, not a crossing
  int64_t start_row = 0;

  // Pixel (x, y) of (major, minor).
  void xy(int64_t u, int64_t v, int64_t& x, int64_t& y) const {
    x = x_major ? u : v;
    y = x_major ? v : u;
  }

  // Minor pixel index of the fragment at column u: the row whose centre is within half a pixel
  // of the (perturbed) line where it crosses the column's centre (a |slope| <= 1 line meets a
  // diamond exactly when it does so there).
  int64_t row(int64_t u) const {
    if (start_pixel && u == first) return start_row;
    const int64_t uc = u * kSubPixelOne + kSubPixelOne / 2;
    int64_t du = ub - ua, n = va * du + (uc - ua) * (vb - va);
    if (du < 0) du = -du, n = -n;
    const int64_t q = floor_div(n, kSubPixelOne * du);
    if (n != q * kSubPixelOne * du) return q;
    // Exactly on a row boundary: the perturbed line lies just above it when it rises in x
    // (x-major, slope > 0: the -e shift in x moves it up), just below otherwise.
    const bool rises = x_major && (vb - va) * (ub - ua) > 0;
    return rises ? q : q - 1;
  }
};

// Whether p (sub-pixel x, y) perturbed by (-e, -e^2) lies in the open diamond of pixel (px, py):
// |x - xc| + |y - yc| < 1/2. On the boundary the x perturbation decides: inside when p is right
// of the centre.
bool in_diamond(int64_t x, int64_t y, int64_t px, int64_t py) {
  const int64_t u = x - (px * kSubPixelOne + kSubPixelOne / 2), v = y - (py * kSubPixelOne + kSubPixelOne / 2);
  const int64_t d = (u < 0 ? -u : u) + (v < 0 ? -v : v);
  return d < kSubPixelOne / 2 || (d == kSubPixelOne / 2 && u > 0);
}

Bresenham make_bresenham(const ScreenTriangle& t) {
  Bresenham b;
  const int64_t dx = t.fx[1] - t.fx[0], dy = t.fy[1] - t.fy[0];
  // x-major: slope in [-1, 1].
  b.x_major = (dx < 0 ? -dx : dx) >= (dy < 0 ? -dy : dy);
  const int64_t off = int64_t{t.bresenham_width - 1} * kSubPixelOne / 2;
  b.ua = b.x_major ? t.fx[0] : t.fy[0];
  b.ub = b.x_major ? t.fx[1] : t.fy[1];
  b.va = (b.x_major ? t.fy[0] : t.fx[0]) - off;
  b.vb = (b.x_major ? t.fy[1] : t.fx[1]) - off;
  if (b.ua == b.ub) return b;  // no length
  b.dir = b.ub > b.ua ? 1 : -1;
  // Columns whose centre the perturbed segment crosses: min <= uc < max.
  const int64_t lo_u = std::min(b.ua, b.ub), hi_u = std::max(b.ua, b.ub);
  int64_t lo = ceil_div(lo_u - kSubPixelOne / 2, kSubPixelOne);
  int64_t hi = ceil_div(hi_u - kSubPixelOne / 2, kSubPixelOne) - 1;
  // The start pixel: the diamond containing the (perturbed) first endpoint, if any; produced
  // when its column is not crossed (the segment starts inside it and leaves it).
  int64_t ax, ay, bx, by;
  b.xy(b.ua, b.va, ax, ay);
  b.xy(b.ub, b.vb, bx, by);
  for (int64_t py = floor_div(ay, kSubPixelOne) - 1; py <= floor_div(ay, kSubPixelOne) && !b.start_pixel; ++py)
    for (int64_t px = floor_div(ax, kSubPixelOne) - 1; px <= floor_div(ax, kSubPixelOne); ++px) {
      if (!in_diamond(ax, ay, px, py)) continue;
      const int64_t su = b.x_major ? px : py;
      if (su < lo || su > hi) {
        b.start_pixel = true;
        b.start_row = b.x_major ? py : px;
        if (b.dir > 0) lo = su;
        else hi = su;
      }
      break;
    }
  if (lo > hi) return b;
  b.first = b.dir > 0 ? lo : hi;
  b.last = b.dir > 0 ? hi : lo;
  // Diamond exit: the fragment whose diamond contains the last endpoint is not produced.
  int64_t ex, ey;
  b.xy(b.last, b.row(b.last), ex, ey);
  if (in_diamond(bx, by, ex, ey)) {
    if (b.last == b.first) return b;
    b.last -= b.dir;
  }
  b.empty = false;
  return b;
}

}  // namespace

double line_parameter(const ScreenTriangle& t, double x, double y) {
  const double ax = static_cast<double>(t.fx[0]) / kOne, ay = static_cast<double>(t.fy[0]) / kOne;
  const double dx = static_cast<double>(t.fx[1] - t.fx[0]) / kOne, dy = static_cast<double>(t.fy[1] - t.fy[0]) / kOne;
  const double len2 = dx * dx + dy * dy;
  const double u = len2 > 0 ? ((x - ax) * dx + (y - ay) * dy) / len2 : 0.0;
  return std::clamp(u, 0.0, 1.0);
}

double line_stipple_advance(const ScreenTriangle& t) {
  if (t.line_mode != LineMode::Bresenham) return line_length(t);
  const Bresenham b = make_bresenham(t);
  return b.empty ? 0.0 : static_cast<double>((b.last - b.first) * b.dir + 1);
}

// Points (their square) and rectangular or parallelogram lines: a sample is covered when it
// lies inside the quadrilateral (top-left rule on its edges, as the spec asks for samples on
// the edge of a non-strict line's parallelogram: "follow the polygon rasterization rules").
uint32_t rasterize_region(const ScreenTriangle& t, const PixelRect& rect, const SampleGrid& g,
                          std::vector<Quad>& out, std::vector<QuadSamples>& samples) {
  if (rect.x0 >= rect.x1 || rect.y0 >= rect.y1) return 0;
  const RegionEdges re = make_region_edges(t.qx, t.qy, 4);
  const PixelRange r = region_pixels(t, rect);
  if (r.empty()) return 0;
  const bool stipple = t.kind == PrimitiveKind::Line && t.stipple_factor != 0;
  uint32_t emitted = 0;
  for (int64_t qy = r.y0 & ~int64_t{1}; qy <= r.y1; qy += 2)
    for (int64_t qx = r.x0 & ~int64_t{1}; qx <= r.x1; qx += 2) {
      QuadSamples qs;
      uint8_t mask = 0;
      for (int i = 0; i < 4; ++i) {
        const int64_t px = qx + (i & 1), py = qy + (i >> 1);
        if (px < rect.x0 || px >= rect.x1 || py < rect.y0 || py >= rect.y1) continue;
        for (uint32_t s = 0; s < g.count; ++s) {
          const int64_t sx = px * kSubPixelOne + g.x[s], sy = py * kSubPixelOne + g.y[s];
          bool in = true;
          for (int k = 0; k < 4 && in; ++k) in = re.e[k].eval(sx, sy) + re.e[k].bias() > 0;
          if (!in) continue;
          const double x = static_cast<double>(sx) / kOne, y = static_cast<double>(sy) / kOne;
          // The stipple's unit-length rectangles along the line (spec "Line Stipple").
          if (stipple && !stipple_keeps(t, t.stipple_start + along(t, x, y))) continue;
          qs.covered[i] = static_cast<uint16_t>(qs.covered[i] | (1u << s));
          if (g.count > 1) qs.depth[i][s] = depth_at(t, x, y);
        }
        if (qs.covered[i]) mask = static_cast<uint8_t>(mask | (1u << i));
      }
      if (!mask) continue;
      Quad& q = new_quad(out, qx, qy, mask);
      fill_quad(t, q);
      if (g.count > 1) samples.push_back(qs);
      ++emitted;
    }
  return emitted;
}

// Spec "Bresenham Line Segment Rasterization": the fragments whose diamond the segment crosses
// and leaves, one per column of an x-major line (row of a y-major one), widened to w fragments
// along the minor axis; stipple counts fragments from the start.
uint32_t rasterize_bresenham(const ScreenTriangle& t, const PixelRect& rect, const SampleGrid& g,
                             std::vector<Quad>& out, std::vector<QuadSamples>& samples) {
  if (rect.x0 >= rect.x1 || rect.y0 >= rect.y1) return 0;
  const Bresenham b = make_bresenham(t);
  if (b.empty) return 0;
  const int64_t u_lo = std::max(std::min(b.first, b.last), int64_t{b.x_major ? rect.x0 : rect.y0});
  const int64_t u_hi = std::min(std::max(b.first, b.last), int64_t{b.x_major ? rect.x1 : rect.y1} - 1);
  if (u_lo > u_hi) return 0;
  thread_local std::vector<uint8_t> map;
  const int64_t w = rect.x1 - rect.x0;
  map.assign(static_cast<size_t>(w * (rect.y1 - rect.y0)), 0);
  bool any = false;
  // The tile's rows (columns of a y-major line): a wide line's run is cut to them first.
  const int64_t v_lo = b.x_major ? rect.y0 : rect.x0, v_hi = b.x_major ? rect.y1 : rect.x1;
  for (int64_t u = u_lo; u <= u_hi; ++u) {
    if (!stipple_keeps(t, t.stipple_start + static_cast<double>((u - b.first) * b.dir))) continue;
    const int64_t v0 = b.row(u);
    for (int64_t v = std::max(v0, v_lo); v < std::min(v0 + t.bresenham_width, v_hi); ++v) {
      int64_t x, y;
      b.xy(u, v, x, y);
      map[static_cast<size_t>((y - rect.y0) * w + (x - rect.x0))] = 1;
      any = true;
    }
  }
  return any ? emit_pixels(t, rect, map, g, out, samples) : 0;
}

// Spec "Smooth Lines": the pixels the rectangle touches (here: where one of 16 evenly spread
// points of the pixel is inside it); the fragment shader's location 0 alpha is then scaled by
// smooth_line_coverage(). `qx`, `qy` hold the rectangle grown by half a pixel diagonal.
uint32_t rasterize_smooth(const ScreenTriangle& t, const PixelRect& rect, const SampleGrid& g,
                          std::vector<Quad>& out, std::vector<QuadSamples>& samples) {
  if (rect.x0 >= rect.x1 || rect.y0 >= rect.y1) return 0;
  const PixelRange r = region_pixels(t, rect);
  if (r.empty()) return 0;
  thread_local std::vector<uint8_t> map;
  const int64_t w = rect.x1 - rect.x0;
  map.assign(static_cast<size_t>(w * (rect.y1 - rect.y0)), 0);
  bool any = false;
  for (int64_t py = r.y0; py <= r.y1; ++py)
    for (int64_t px = r.x0; px <= r.x1; ++px) {
      if (smooth_line_coverage(t, static_cast<int32_t>(px), static_cast<int32_t>(py)) <= 0.0f) continue;
      if (t.stipple_factor != 0 && !stipple_keeps(t, t.stipple_start + along(t, px + 0.5, py + 0.5))) continue;
      map[static_cast<size_t>((py - rect.y0) * w + (px - rect.x0))] = 1;
      any = true;
    }
  return any ? emit_pixels(t, rect, map, g, out, samples) : 0;
}

float smooth_line_coverage(const ScreenTriangle& t, int32_t px, int32_t py) {
  const double ax = static_cast<double>(t.fx[0]) / kOne, ay = static_cast<double>(t.fy[0]) / kOne;
  const double dx = static_cast<double>(t.fx[1] - t.fx[0]) / kOne, dy = static_cast<double>(t.fy[1] - t.fy[0]) / kOne;
  const double len = std::hypot(dx, dy);
  if (len == 0) return 0.0f;
  const double half = t.size / 2.0;
  int inside = 0;
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < 4; ++i) {
      const double x = px + (i + 0.5) / 4 - ax, y = py + (j + 0.5) / 4 - ay;
      const double a = (x * dx + y * dy) / len, n = (x * dy - y * dx) / len;
      if (a >= 0 && a <= len && std::fabs(n) <= half) ++inside;
    }
  return static_cast<float>(inside) / 16.0f;
}

}  // namespace tessera::pipeline
