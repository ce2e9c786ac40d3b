// Fixed-point edge functions of a snapped triangle, shared by binning (triangle-vs-tile test)
// and raster (coverage), so both stages agree on exactly which samples a triangle owns.
#pragma once

#include <cstdint>

#include "tessera/pipeline/vertex.h"

namespace tessera::pipeline {

// E(px, py) = a px + b py + c over snapped coordinates (kSubPixelBits fractional bits), oriented
// so that the triangle's interior is E > 0 whatever its winding. Edge k is opposite vertex k.
struct Edge {
  int64_t a = 0, b = 0, c = 0;
  // Vulkan "Basic Polygon Rasterization": a sample exactly on an edge is covered only if the edge
  // is a top or a left edge. Framebuffer y grows downwards and (a, b) points into the triangle,
  // so a left edge has a > 0 (interior to its right) and a top edge is horizontal (a == 0) with
  // the interior below it (b > 0).
  bool top_left = false;
  // Covered iff E > 0, or E == 0 on a top-left edge: E + bias > 0 with bias 1 or 0.
  int64_t bias() const { return top_left ? 1 : 0; }
  int64_t eval(int64_t px, int64_t py) const { return a * px + b * py + c; }
};

struct EdgeFunctions {
  Edge e[3];
  int64_t sum = 0;  // E0 + E1 + E2 at any point: twice the unsigned area, the barycentric divisor
};

inline EdgeFunctions make_edges(const ScreenTriangle& t) {
  EdgeFunctions ef;
  // Shoelace sum S (y-up sense); E of edge i->j evaluated at the third vertex equals S.
  const int64_t s = t.area2 < 0 ? 1 : -1;  // area2 = -S
  for (int k = 0; k < 3; ++k) {
    const int i = (k + 1) % 3, j = (k + 2) % 3;
    Edge& e = ef.e[k];
    e.a = -s * (t.fy[j] - t.fy[i]);
    e.b = s * (t.fx[j] - t.fx[i]);
    e.c = -e.a * t.fx[i] - e.b * t.fy[i];
    e.top_left = e.a > 0 || (e.a == 0 && e.b > 0);
  }
  ef.sum = t.area2 < 0 ? -t.area2 : t.area2;
  return ef;
}

// Edges of a convex polygon of 3 or 4 snapped corners given in order around it (either way
// round): edge k runs from corner k to corner k + 1, oriented like make_edges (interior E > 0,
// top-left rule on ties). The coverage region of points and lines (line_point_setup.h).
struct RegionEdges {
  Edge e[4];
  int count = 0;
};

inline RegionEdges make_region_edges(const int64_t* x, const int64_t* y, int n) {
  RegionEdges r;
  r.count = n;
  int64_t shoelace = 0;  // S = sum x_i y_{i+1} - x_{i+1} y_i, as make_edges uses
  for (int i = 0; i < n; ++i) {
    const int j = (i + 1) % n;
    shoelace += x[i] * y[j] - x[j] * y[i];
  }
  const int64_t s = shoelace > 0 ? 1 : -1;
  for (int i = 0; i < n; ++i) {
    const int j = (i + 1) % n;
    Edge& e = r.e[i];
    e.a = -s * (y[j] - y[i]);
    e.b = s * (x[j] - x[i]);
    e.c = -e.a * x[i] - e.b * y[i];
    e.top_left = e.a > 0 || (e.a == 0 && e.b > 0);
  }
  return r;
}

// Fixed-point position of the centre of pixel p (the single sample of a 1x framebuffer).
inline int64_t pixel_center(int32_t p) { return int64_t{p} * kSubPixelOne + kSubPixelOne / 2; }

}  // namespace tessera::pipeline
