#include "tessera/pipeline/raster.h"

#include <algorithm>

#include "raster_internal.h"
#include "tessera/pipeline/edge.h"

namespace tessera::pipeline {
namespace {

// Spec table "Standard sample locations", in 1/16 pixel, as sub-pixel offsets.
constexpr int32_t kSix = kSubPixelOne / 16;
SampleGrid make_grid(uint32_t count, std::initializer_list<std::pair<int32_t, int32_t>> sixteenths) {
  SampleGrid g;
  g.count = count;
  uint32_t i = 0;
  for (const auto& [x, y] : sixteenths) {
    g.x[i] = x * kSix;
    g.y[i] = y * kSix;
    ++i;
  }
  g.extent.min_x = *std::min_element(g.x, g.x + count);
  g.extent.max_x = *std::max_element(g.x, g.x + count);
  g.extent.min_y = *std::min_element(g.y, g.y + count);
  g.extent.max_y = *std::max_element(g.y, g.y + count);
  return g;
}

const SampleGrid kGrid1 = make_grid(1, {{8, 8}});
const SampleGrid kGrid2 = make_grid(2, {{12, 12}, {4, 4}});
const SampleGrid kGrid4 = make_grid(4, {{6, 2}, {14, 6}, {2, 10}, {10, 14}});
const SampleGrid kGrid8 = make_grid(8, {{9, 5}, {7, 11}, {13, 9}, {5, 3}, {3, 13}, {1, 7}, {11, 15}, {15, 1}});
const SampleGrid kGrid16 = make_grid(16, {{9, 9}, {7, 5}, {5, 10}, {12, 7}, {3, 6}, {10, 13}, {13, 11}, {11, 3},
                                          {6, 14}, {8, 1}, {4, 2}, {2, 12}, {0, 8}, {15, 4}, {14, 15}, {1, 0}});

// Triangle coverage at several samples per pixel: each sample tested on the exact edge
// functions, its depth from the triangle's depth plane at its location (DepthPlane); the quad's
// barycentrics and depth stay those of the pixel centres (shading once per pixel).
uint32_t rasterize_triangle_samples(const ScreenTriangle& t, const PixelRect& rect, const SampleGrid& g,
                                    std::vector<Quad>& out, std::vector<QuadSamples>& samples) {
  if (rect.x0 >= rect.x1 || rect.y0 >= rect.y1 || t.area2 == 0) return 0;
  const EdgeFunctions ef = make_edges(t);
  const PixelRange r = triangle_pixels(t, rect);
  if (r.empty()) return 0;
  const double inv_sum = 1.0 / static_cast<double>(ef.sum);
  const DepthPlane plane = depth_plane(t);
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
          int64_t w[3];
          bool in = true;
          for (int k = 0; k < 3; ++k) {
            w[k] = ef.e[k].eval(sx, sy);
            in = in && w[k] + ef.e[k].bias() > 0;
          }
          if (!in) continue;
          qs.covered[i] = static_cast<uint16_t>(qs.covered[i] | (1u << s));
          float z = 0;
          if (!plane.flat) {
            z = plane.at(static_cast<double>(sx) / kSubPixelOne, static_cast<double>(sy) / kSubPixelOne);
          } else {
            for (int k = 0; k < 3; ++k) z += static_cast<float>(static_cast<double>(w[k]) * inv_sum) * t.v[k].z;
          }
          qs.depth[i][s] = z;
        }
        if (qs.covered[i]) mask = static_cast<uint8_t>(mask | (1u << i));
      }
      if (!mask) continue;
      Quad& q = new_quad(out, qx, qy, mask);
      for (int i = 0; i < 4; ++i) {
        const int64_t cx = pixel_center(static_cast<int32_t>(qx + (i & 1)));
        const int64_t cy = pixel_center(static_cast<int32_t>(qy + (i >> 1)));
        float l[3];
        for (int k = 0; k < 3; ++k) l[k] = static_cast<float>(static_cast<double>(ef.e[k].eval(cx, cy)) * inv_sum);
        set_pixel(t, l, q, i);
        if (!plane.flat) q.depth[i] = plane.at(static_cast<double>(cx) / kSubPixelOne, static_cast<double>(cy) / kSubPixelOne);
      }
      samples.push_back(qs);
      ++emitted;
    }
  return emitted;
}

// One sample at the pixel centre: the triangle path every single-sampled draw takes.
uint32_t rasterize_triangle(const ScreenTriangle& t, const PixelRect& rect, std::vector<Quad>& out) {
  if (rect.x0 >= rect.x1 || rect.y0 >= rect.y1 || t.area2 == 0) return 0;
  const EdgeFunctions ef = make_edges(t);
  // Pixel range of the bounding box inside rect, widened to whole quads.
  const PixelRange r = triangle_pixels(t, rect);
  if (r.empty()) return 0;
  const int64_t px1 = r.x1, py1 = r.y1;
  const int64_t qx0 = r.x0 & ~int64_t{1}, qy0 = r.y0 & ~int64_t{1};

  const double inv_sum = 1.0 / static_cast<double>(ef.sum);
  const DepthPlane plane = depth_plane(t);
  const Edge& e0 = ef.e[0];
  const Edge& e1 = ef.e[1];
  const Edge& e2 = ef.e[2];
  uint32_t emitted = 0;
  // Edge values step by a per pixel in x and b per pixel in y: evaluate once per quad row and
  // walk incrementally (exact: integer arithmetic).
  const int64_t off[4][3] = {{0, 0, 0}, {e0.a, e1.a, e2.a}, {e0.b, e1.b, e2.b},
                             {e0.a + e0.b, e1.a + e1.b, e2.a + e2.b}};
  const int64_t bias[3] = {e0.bias(), e1.bias(), e2.bias()};
  for (int64_t qy = qy0; qy <= py1; qy += 2) {
    const int64_t sy = qy * kSubPixelOne + kSubPixelOne / 2;
    const int64_t sx0 = qx0 * kSubPixelOne + kSubPixelOne / 2;
    int64_t row[3] = {e0.eval(sx0, sy), e1.eval(sx0, sy), e2.eval(sx0, sy)};
    const int64_t step[3] = {2 * e0.a * kSubPixelOne, 2 * e1.a * kSubPixelOne, 2 * e2.a * kSubPixelOne};
    // Pixels of this quad row inside rect (bit i of the quad mask).
    const bool row_in[2] = {qy >= rect.y0 && qy < rect.y1, qy + 1 >= rect.y0 && qy + 1 < rect.y1};
    for (int64_t qx = qx0; qx <= px1; qx += 2, row[0] += step[0], row[1] += step[1], row[2] += step[2]) {
      int64_t w[4][3];
      uint8_t mask = 0;
      const bool col_in[2] = {qx >= rect.x0 && qx < rect.x1, qx + 1 >= rect.x0 && qx + 1 < rect.x1};
      for (int i = 0; i < 4; ++i) {
        bool in = row_in[i >> 1] && col_in[i & 1];
        for (int k = 0; k < 3; ++k) {
          w[i][k] = row[k] + off[i][k] * kSubPixelOne;
          in = in && w[i][k] + bias[k] > 0;
        }
        if (in) mask = static_cast<uint8_t>(mask | (1u << i));
      }
      if (!mask) continue;
      Quad& q = new_quad(out, qx, qy, mask);
      for (int i = 0; i < 4; ++i) {
        float l[3];
        for (int k = 0; k < 3; ++k) l[k] = static_cast<float>(static_cast<double>(w[i][k]) * inv_sum);
        set_pixel(t, l, q, i);
        if (!plane.flat) q.depth[i] = plane.at(static_cast<double>(qx + (i & 1)) + 0.5, static_cast<double>(qy + (i >> 1)) + 0.5);
      }
      ++emitted;
    }
  }
  return emitted;
}

}  // namespace

const SampleGrid* standard_samples(uint32_t count) {
  switch (count) {
    case 1: return &kGrid1;
    case 2: return &kGrid2;
    case 4: return &kGrid4;
    case 8: return &kGrid8;
    case 16: return &kGrid16;
    default: return nullptr;
  }
}

uint32_t rasterize(const ScreenTriangle& t, const PixelRect& rect, std::vector<Quad>& out) {
  if (t.kind == PrimitiveKind::Triangle) return rasterize_triangle(t, rect, out);
  std::vector<QuadSamples> none;  // not filled for one sample
  return rasterize(t, rect, kGrid1, out, none);
}

uint32_t rasterize(const ScreenTriangle& t, const PixelRect& rect, const SampleGrid& grid,
                   std::vector<Quad>& out, std::vector<QuadSamples>& samples) {
  switch (t.kind) {
    case PrimitiveKind::Triangle:
      return grid.count == 1 ? rasterize_triangle(t, rect, out)
                             : rasterize_triangle_samples(t, rect, grid, out, samples);
    case PrimitiveKind::Point:
      return rasterize_region(t, rect, grid, out, samples);
    case PrimitiveKind::Line:
      break;
  }
  switch (t.line_mode) {
    case LineMode::Bresenham: return rasterize_bresenham(t, rect, grid, out, samples);
    case LineMode::Smooth: return rasterize_smooth(t, rect, grid, out, samples);
    case LineMode::Rectangle:
    case LineMode::Parallelogram: break;
  }
  return rasterize_region(t, rect, grid, out, samples);
}

void interpolate_at(const ScreenTriangle& t, double x, double y, float bary[3], float linear[3], float* depth) {
  if (t.kind == PrimitiveKind::Point) {
    bary[0] = linear[0] = 1.0f;
    bary[1] = bary[2] = linear[1] = linear[2] = 0.0f;
    *depth = t.v[0].z;
    return;
  }
  float l[3];
  if (t.kind == PrimitiveKind::Line) {
    const double tl = line_parameter(t, x, y);
    l[0] = static_cast<float>(1.0 - tl);
    l[1] = static_cast<float>(tl);
    l[2] = 0.0f;
  } else {
    const EdgeFunctions ef = make_edges(t);
    const double sx = x * kSubPixelOne, sy = y * kSubPixelOne;
    const double inv_sum = 1.0 / static_cast<double>(ef.sum);
    for (int k = 0; k < 3; ++k)
      l[k] = static_cast<float>((static_cast<double>(ef.e[k].a) * sx + static_cast<double>(ef.e[k].b) * sy +
                                 static_cast<double>(ef.e[k].c)) * inv_sum);
  }
  Quad q;
  set_pixel(t, l, q, 0);
  std::copy_n(q.bary[0], 3, bary);
  std::copy_n(q.linear_bary[0], 3, linear);
  *depth = q.depth[0];
  if (t.kind == PrimitiveKind::Triangle) {
    const DepthPlane plane = depth_plane(t);
    if (!plane.flat) *depth = plane.at(x, y);
  }
}

float interpolate(const ScreenTriangle& t, const float bary[3], uint32_t index) {
  return bary[0] * t.v[0].varyings[index] + bary[1] * t.v[1].varyings[index] +
         bary[2] * t.v[2].varyings[index];
}

}  // namespace tessera::pipeline
