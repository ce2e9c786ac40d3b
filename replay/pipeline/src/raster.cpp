#include "tessera/pipeline/raster.h"

#include <algorithm>

#include "tessera/pipeline/edge.h"

namespace tessera::pipeline {
namespace {

int64_t floor_div(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

}  // namespace

uint32_t rasterize(const ScreenTriangle& t, const PixelRect& rect, std::vector<Quad>& out) {
  if (rect.x0 >= rect.x1 || rect.y0 >= rect.y1 || t.area2 == 0) return 0;
  const EdgeFunctions ef = make_edges(t);
  // Pixel range of the bounding box inside rect, widened to whole quads.
  const int64_t minx = std::min({t.fx[0], t.fx[1], t.fx[2]}), maxx = std::max({t.fx[0], t.fx[1], t.fx[2]});
  const int64_t miny = std::min({t.fy[0], t.fy[1], t.fy[2]}), maxy = std::max({t.fy[0], t.fy[1], t.fy[2]});
  const int64_t px0 = std::max<int64_t>(floor_div(minx, kSubPixelOne), rect.x0);
  const int64_t py0 = std::max<int64_t>(floor_div(miny, kSubPixelOne), rect.y0);
  const int64_t px1 = std::min<int64_t>(floor_div(maxx, kSubPixelOne), rect.x1 - 1);
  const int64_t py1 = std::min<int64_t>(floor_div(maxy, kSubPixelOne), rect.y1 - 1);
  if (px0 > px1 || py0 > py1) return 0;
  const int64_t qx0 = px0 & ~int64_t{1}, qy0 = py0 & ~int64_t{1};

  const double inv_sum = 1.0 / static_cast<double>(ef.sum);
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
      Quad& q = out.emplace_back();
      q.x = static_cast<int32_t>(qx);
      q.y = static_cast<int32_t>(qy);
      q.coverage = mask;
      for (int i = 0; i < 4; ++i) {
        float l[3], p[3];
        for (int k = 0; k < 3; ++k) l[k] = static_cast<float>(static_cast<double>(w[i][k]) * inv_sum);
        // Spec "Barycentric Interpolation": perspective-correct weights are the screen-space
        // ones scaled by 1/w of each vertex and renormalised.
        float denom = 0;
        for (int k = 0; k < 3; ++k) denom += (p[k] = l[k] * t.v[k].inv_w);
        const float rcp = 1.0f / denom;
        for (int k = 0; k < 3; ++k) {
          q.bary[i][k] = p[k] * rcp;
          q.linear_bary[i][k] = l[k];
        }
        q.depth[i] = l[0] * t.v[0].z + l[1] * t.v[1].z + l[2] * t.v[2].z;
      }
      ++emitted;
    }
  }
  return emitted;
}

float interpolate(const ScreenTriangle& t, const float bary[3], uint32_t index) {
  return bary[0] * t.v[0].varyings[index] + bary[1] * t.v[1].varyings[index] +
         bary[2] * t.v[2].varyings[index];
}

}  // namespace tessera::pipeline
