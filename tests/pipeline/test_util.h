// Helpers shared by the pipeline tests: triangles built directly in framebuffer coordinates.
#pragma once

#include <cstdint>

#include "tessera/pipeline/viewport_cull.h"
#include "tessera/pipeline/vertex.h"

namespace tessera::pipeline::test {

inline ScreenTriangle screen_triangle(float x0, float y0, float x1, float y1, float x2, float y2,
                                      uint32_t varying_count = 0) {
  ScreenTriangle t;
  const float xs[3] = {x0, x1, x2}, ys[3] = {y0, y1, y2};
  for (int i = 0; i < 3; ++i) {
    t.v[i].x = xs[i];
    t.v[i].y = ys[i];
    t.v[i].z = 0.5f;
    t.v[i].inv_w = 1;
  }
  t.varying_count = varying_count;
  snap(t);
  return t;
}

}  // namespace tessera::pipeline::test
