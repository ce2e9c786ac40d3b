// Rasterization: top-left fill rule with 8-bit sub-pixel precision (watertight shared edges),
// quads and helper pixels, perspective-correct and linear interpolation, depth.
#include "tessera/pipeline/raster.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <random>
#include <vector>

#include "tessera/pipeline/clip.h"
#include "tessera/pipeline/tile_fetch.h"
#include "tessera/pipeline/viewport_cull.h"
#include "test_util.h"

namespace tessera::pipeline {
namespace {

using test::screen_triangle;

// Per-pixel coverage counts of `tris` on a w x h framebuffer, going through the tiler: bin into
// 32 x 32 tiles (16 x 8 when `odd_tiles`), fetch tiles in scanline order, rasterize per tile.
std::vector<int> coverage(const std::vector<ScreenTriangle>& tris, uint32_t w, uint32_t h, bool odd_tiles = false) {
  TilingConfig c;
  c.width = w;
  c.height = h;
  if (odd_tiles) {
    c.tile_width = 16;
    c.tile_height = 8;
  }
  PolygonListBuilder pb(c);
  for (const ScreenTriangle& t : tris) pb.bin(t);
  std::vector<int> count(size_t{w} * h, 0);
  std::vector<PbAccess> reads;
  std::vector<Quad> quads;
  fetch_tiles(pb, ScanlineOrder{}, [&](uint32_t tile, std::span<const uint32_t> prims) {
    const PixelRect rect = tile_rect(c, tile);
    for (uint32_t p : prims) {
      quads.clear();
      rasterize(pb.primitives()[p], rect, quads);
      for (const Quad& q : quads)
        for (int i = 0; i < 4; ++i)
          if (q.coverage & (1 << i)) {
            const int x = q.x + (i & 1), y = q.y + (i >> 1);
            EXPECT_TRUE(x >= rect.x0 && x < rect.x1 && y >= rect.y0 && y < rect.y1);
            ++count[static_cast<size_t>(y) * w + static_cast<size_t>(x)];
          }
    }
  }, reads);
  return count;
}

// Two triangles forming a square whose diagonal runs through pixel centres: each pixel once.
TEST(Raster, SquareSplitOnItsDiagonalCoversEveryPixelOnce) {
  for (bool flip : {false, true}) {
    std::vector<ScreenTriangle> tris = {screen_triangle(0, 0, 40, 0, 40, 40), screen_triangle(0, 0, 40, 40, 0, 40)};
    if (flip) tris = {screen_triangle(0, 0, 40, 40, 40, 0), screen_triangle(0, 40, 40, 40, 0, 0)};
    const std::vector<int> c = coverage(tris, 64, 64);
    for (uint32_t y = 0; y < 64; ++y)
      for (uint32_t x = 0; x < 64; ++x) EXPECT_EQ(c[y * 64 + x], x < 40 && y < 40 ? 1 : 0) << x << "," << y;
  }
}

// Top-left rule on edges through pixel centres: a square (2.5, 2.5)-(6.5, 6.5) owns the pixel
// centres on its top and left edges only, 4 x 4 pixels; its upper-left triangle takes the 10
// pixels strictly above the diagonal (which is its right/bottom edge), the other one the 6 on or
// below it.
TEST(Raster, TopLeftRuleOnPixelCentreAlignedEdges) {
  const ScreenTriangle upper = screen_triangle(2.5f, 2.5f, 6.5f, 2.5f, 2.5f, 6.5f);
  const ScreenTriangle lower = screen_triangle(6.5f, 2.5f, 6.5f, 6.5f, 2.5f, 6.5f);
  const std::vector<int> cu = coverage({upper}, 16, 16), cl = coverage({lower}, 16, 16);
  int nu = 0, nl = 0;
  for (uint32_t y = 0; y < 16; ++y)
    for (uint32_t x = 0; x < 16; ++x) {
      nu += cu[y * 16 + x];
      nl += cl[y * 16 + x];
      const bool in_square = x >= 2 && x <= 5 && y >= 2 && y <= 5;
      EXPECT_EQ(cu[y * 16 + x] + cl[y * 16 + x], in_square ? 1 : 0) << x << "," << y;
      if (cu[y * 16 + x]) {
        EXPECT_LT(x + y, 8u);
      }
    }
  EXPECT_EQ(nu, 10);
  EXPECT_EQ(nl, 6);
  // The vertex order (winding) does not change which samples a triangle owns.
  const ScreenTriangle upper_cw = screen_triangle(2.5f, 2.5f, 2.5f, 6.5f, 6.5f, 2.5f);
  EXPECT_EQ(coverage({upper_cw}, 16, 16), cu);
}

// A fan of 16 triangles around a pixel centre: the centre, and every sample on the 16 shared
// spokes, is covered exactly once, and the union equals the samples inside the 16-gon.
TEST(Raster, FanOf16TrianglesIsWatertight) {
  const float cx = 32.5f, cy = 32.5f, r = 25.3f;
  std::vector<ScreenTriangle> tris;
  float px[17], py[17];
  for (int i = 0; i <= 16; ++i) {
    const double a = 2 * std::numbers::pi * (i % 16) / 16 + 0.1;
    px[i] = cx + static_cast<float>(r * std::cos(a));
    py[i] = cy + static_cast<float>(r * std::sin(a));
  }
  for (int i = 0; i < 16; ++i) tris.push_back(screen_triangle(cx, cy, px[i], py[i], px[i + 1], py[i + 1]));
  const std::vector<int> c = coverage(tris, 64, 64, true);
  // Reference on the snapped outline: a pixel centre is inside the convex 16-gon when it is on
  // the inner side of every outer edge (none passes exactly through a centre here).
  int covered = 0, inside = 0;
  for (int y = 0; y < 64; ++y)
    for (int x = 0; x < 64; ++x) {
      const int n = c[static_cast<size_t>(y * 64 + x)];
      EXPECT_LE(n, 1) << x << "," << y;
      covered += n;
      bool in = true;
      for (int i = 0; i < 16; ++i) {
        const double sx = std::round(px[i] * 256.0) / 256, sy = std::round(py[i] * 256.0) / 256;
        const double ex = std::round(px[i + 1] * 256.0) / 256 - sx, ey = std::round(py[i + 1] * 256.0) / 256 - sy;
        const double cross = ex * (y + 0.5 - sy) - ey * (x + 0.5 - sx);
        EXPECT_NE(cross, 0.0);
        if (cross < 0) in = false;
      }
      inside += in;
      EXPECT_EQ(n, in ? 1 : 0) << x << "," << y;
    }
  EXPECT_EQ(covered, inside);
  EXPECT_EQ(c[32 * 64 + 32], 1);
  EXPECT_GT(covered, 1800);  // ~ pi r^2
}

// Random meshes: a grid of 17 x 17 vertices over a 64 x 64 framebuffer, interior vertices jittered
// by up to 200/256 pixel (some exactly onto pixel centres; never enough to fold a cell), cells split on a random diagonal,
// vertex order randomly flipped. Coverage must equal the pixel count with every pixel once.
TEST(Raster, RandomMeshCoversEveryPixelExactlyOnce) {
  std::mt19937 rng(1234);
  for (int round = 0; round < 5; ++round) {
    float vx[17][17], vy[17][17];
    std::uniform_int_distribution<int> jitter(-200, 200);
    std::uniform_int_distribution<int> centre(0, 7);
    for (int j = 0; j <= 16; ++j)
      for (int i = 0; i <= 16; ++i) {
        vx[j][i] = static_cast<float>(i * 4);
        vy[j][i] = static_cast<float>(j * 4);
        if (i > 0 && i < 16 && j > 0 && j < 16) {
          if (centre(rng) == 0) {  // snap exactly onto a pixel centre
            vx[j][i] += 0.5f;
            vy[j][i] += 0.5f;
          } else {
            vx[j][i] += static_cast<float>(jitter(rng)) / 256.0f;
            vy[j][i] += static_cast<float>(jitter(rng)) / 256.0f;
          }
        }
      }
    std::vector<ScreenTriangle> tris;
    std::bernoulli_distribution coin(0.5);
    auto add = [&](int a0, int a1, int b0, int b1, int c0, int c1) {
      if (coin(rng)) tris.push_back(screen_triangle(vx[a0][a1], vy[a0][a1], vx[b0][b1], vy[b0][b1], vx[c0][c1], vy[c0][c1]));
      else tris.push_back(screen_triangle(vx[a0][a1], vy[a0][a1], vx[c0][c1], vy[c0][c1], vx[b0][b1], vy[b0][b1]));
    };
    for (int j = 0; j < 16; ++j)
      for (int i = 0; i < 16; ++i) {
        if (coin(rng)) {
          add(j, i, j, i + 1, j + 1, i + 1);
          add(j, i, j + 1, i + 1, j + 1, i);
        } else {
          add(j, i, j, i + 1, j + 1, i);
          add(j, i + 1, j + 1, i + 1, j + 1, i);
        }
      }
    const std::vector<int> c = coverage(tris, 64, 64, round % 2 == 1);
    int total = 0, wrong = 0;
    for (int n : c) {
      total += n;
      wrong += n != 1;
    }
    EXPECT_EQ(total, 64 * 64);
    EXPECT_EQ(wrong, 0);
  }
}

// A pixel-sized triangle makes one quad with one covered pixel; the three helper pixels still get
// barycentrics (summing to 1) and depth from the plane equations, for derivatives.
TEST(Raster, PartlyCoveredQuadCarriesHelperPixels) {
  const ScreenTriangle t = screen_triangle(4.2f, 6.2f, 5.0f, 6.2f, 4.2f, 7.0f);
  std::vector<Quad> quads;
  ASSERT_EQ(rasterize(t, PixelRect{0, 0, 16, 16}, quads), 1u);
  EXPECT_EQ(quads[0].x, 4);
  EXPECT_EQ(quads[0].y, 6);
  EXPECT_EQ(quads[0].coverage, 0b0001);
  for (int i = 0; i < 4; ++i) {
    EXPECT_NEAR(quads[0].bary[i][0] + quads[0].bary[i][1] + quads[0].bary[i][2], 1.0f, 1e-6f);
    EXPECT_NEAR(quads[0].depth[i], 0.5f, 1e-6f);
  }
  // Helper pixel (5, 7) lies outside: some barycentric is negative there.
  EXPECT_LT(std::min({quads[0].linear_bary[3][0], quads[0].linear_bary[3][1], quads[0].linear_bary[3][2]}), 0.0f);
  // A rect that excludes the pixel yields nothing.
  quads.clear();
  EXPECT_EQ(rasterize(t, PixelRect{5, 0, 16, 16}, quads), 0u);
}

// Two triangles on one plane but with different vertices (a decal on a wall) get the same depth
// at every pixel they share: depth comes from the plane through the unsnapped vertices, as
// lavapipe interpolates it. Through the snapped vertices the two planes differ by up to the depth
// slope times half a sub-pixel step, here more than 16 units of a 24-bit depth buffer, beyond
// what a decal's depth bias of a few units makes up for.
TEST(Raster, CoplanarTrianglesWithDifferentVerticesShareDepth) {
  const auto z_of = [](float x) { return 0.2f + 0.6f * (x + 1) / 2; };  // depth rises across x
  const auto triangle = [&](const float (*xy)[2]) {
    ClipTriangle in;
    for (size_t i = 0; i < 3; ++i) in[i].position = {xy[i][0], xy[i][1], z_of(xy[i][0]), 1};
    ScreenTriangle t;
    EXPECT_EQ(setup_triangle(in, 0, Viewport{0, 0, 640, 360, 0, 1}, kCullNone, FrontFace::CounterClockwise, t),
              SetupOutcome::Kept);
    return t;
  };
  const float wall[3][2] = {{-1, -1}, {1, -1}, {-1, 1}};
  const float decal[3][2] = {{-0.7013f, -0.6031f}, {0.2977f, -0.5507f}, {-0.6511f, 0.4023f}};
  const ScreenTriangle a = triangle(wall), b = triangle(decal);
  std::vector<Quad> qa, qb;
  rasterize(a, PixelRect{0, 0, 640, 360}, qa);
  rasterize(b, PixelRect{0, 0, 640, 360}, qb);
  std::map<std::pair<int, int>, float> depth;
  for (const Quad& q : qa)
    for (int i = 0; i < 4; ++i)
      if (q.coverage & (1 << i)) depth[{q.x + (i & 1), q.y + (i >> 1)}] = q.depth[i];
  int shared = 0;
  double worst = 0;
  for (const Quad& q : qb)
    for (int i = 0; i < 4; ++i) {
      if (!(q.coverage & (1 << i))) continue;
      const auto it = depth.find({q.x + (i & 1), q.y + (i >> 1)});
      if (it == depth.end()) continue;
      ++shared;
      worst = std::max(worst, std::fabs(double{q.depth[i]} - it->second));
    }
  EXPECT_GT(shared, 10000);
  EXPECT_LT(worst, 2.0 / 16777216);  // within 2 units of a 24-bit depth buffer
}

// A sliver whose third vertex is a fraction of a pixel off the line through the other two: the
// snapped triangle covers pixels where the unsnapped plane extrapolates far beyond the vertices'
// depths; depth stays within their range, as every barycentric combination of them does.
TEST(Raster, SliverDepthStaysWithinItsVerticesRange) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> pos(-0.9f, 0.9f), frac(0.0f, 1.0f), off(0.0005f, 0.025f);
  int covered = 0;
  for (int k = 0; k < 20000; ++k) {
    // Two vertices 30 to 60 pixels apart, the third on the segment between them moved 0.0005 to
    // 0.025 pixels off it (NDC: 2 / 64 per pixel).
    const float ax = pos(rng), ay = pos(rng), len = 0.9f + frac(rng) * 0.9f, angle = frac(rng) * 6.2831853f;
    const float bx = ax + len * std::cos(angle), by = ay + len * std::sin(angle), f = frac(rng);
    const float d = off(rng) * 2 / 64;
    const float cx = ax + f * (bx - ax) - d * std::sin(angle), cy = ay + f * (by - ay) + d * std::cos(angle);
    ClipTriangle in;
    const float xy[3][2] = {{ax, ay}, {bx, by}, {cx, cy}};
    const float z[3] = {0.1f, 0.9f, 0.5f};
    for (size_t i = 0; i < 3; ++i) in[i].position = {xy[i][0], xy[i][1], z[i], 1};
    ScreenTriangle t;
    if (setup_triangle(in, 0, Viewport{0, 0, 64, 64, 0, 1}, kCullNone, FrontFace::CounterClockwise, t) !=
        SetupOutcome::Kept)
      continue;
    std::vector<Quad> quads;
    rasterize(t, PixelRect{0, 0, 64, 64}, quads);
    for (const Quad& q : quads)
      for (int i = 0; i < 4; ++i)
        if (q.coverage & (1 << i)) {
          ++covered;
          ASSERT_GE(q.depth[i], 0.1f) << k;
          ASSERT_LE(q.depth[i], 0.9f) << k;
        }
  }
  EXPECT_GT(covered, 1000);
}

// Perspective-correct interpolation equals the 1/w-weighted reference at every covered pixel;
// NoPerspective and depth are linear in screen space.
TEST(Raster, PerspectiveCorrectInterpolationMatchesOneOverWReference) {
  ClipTriangle in;
  const float w[3] = {1, 2, 4};
  const float ndc[3][2] = {{-0.9f, -0.9f}, {0.9f, -0.7f}, {-0.6f, 0.9f}};
  const float z[3] = {0.1f, 0.5f, 0.9f};
  const float u[3] = {0, 1, 0.5f};
  for (size_t i = 0; i < 3; ++i) {
    in[i].position = {ndc[i][0] * w[i], ndc[i][1] * w[i], z[i] * w[i], w[i]};
    in[i].varyings[0] = u[i];
  }
  ScreenTriangle t;
  ASSERT_EQ(setup_triangle(in, 1, Viewport{0, 0, 64, 64, 0, 1}, kCullNone, FrontFace::CounterClockwise, t),
            SetupOutcome::Kept);
  std::vector<Quad> quads;
  rasterize(t, PixelRect{0, 0, 64, 64}, quads);
  int checked = 0;
  double max_gap = 0;  // how far perspective and linear results differ: the test must see it
  for (const Quad& q : quads)
    for (int i = 0; i < 4; ++i) {
      if (!(q.coverage & (1 << i))) continue;
      const double px = q.x + (i & 1) + 0.5, py = q.y + (i >> 1) + 0.5;
      // Screen-space barycentrics from the snapped vertices, in double.
      double sx[3], sy[3];
      for (int k = 0; k < 3; ++k) {
        sx[k] = static_cast<double>(t.fx[k]) / 256;
        sy[k] = static_cast<double>(t.fy[k]) / 256;
      }
      auto area = [](double ax, double ay, double bx, double by, double cx, double cy) {
        return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
      };
      const double total = area(sx[0], sy[0], sx[1], sy[1], sx[2], sy[2]);
      const double l0 = area(px, py, sx[1], sy[1], sx[2], sy[2]) / total;
      const double l1 = area(sx[0], sy[0], px, py, sx[2], sy[2]) / total;
      const double l2 = 1 - l0 - l1;
      const double persp = (l0 * u[0] / w[0] + l1 * u[1] / w[1] + l2 * u[2] / w[2]) /
                           (l0 / w[0] + l1 / w[1] + l2 / w[2]);
      const double linear = l0 * u[0] + l1 * u[1] + l2 * u[2];
      EXPECT_NEAR(interpolate(t, q.bary[i], 0), persp, 1e-5);
      EXPECT_NEAR(interpolate(t, q.linear_bary[i], 0), linear, 1e-5);
      // Depth: linear on the plane through the unsnapped vertices (raster_internal.h, DepthPlane).
      const double ux[3] = {t.v[0].x, t.v[1].x, t.v[2].x}, uy[3] = {t.v[0].y, t.v[1].y, t.v[2].y};
      const double utotal = area(ux[0], uy[0], ux[1], uy[1], ux[2], uy[2]);
      const double m0 = area(px, py, ux[1], uy[1], ux[2], uy[2]) / utotal;
      const double m1 = area(ux[0], uy[0], px, py, ux[2], uy[2]) / utotal;
      EXPECT_NEAR(q.depth[i], m0 * z[0] + m1 * z[1] + (1 - m0 - m1) * z[2], 1e-6);
      max_gap = std::max(max_gap, std::fabs(persp - linear));
      ++checked;
    }
  EXPECT_GT(checked, 800);
  EXPECT_GT(max_gap, 0.05);
}

// A ground-plane quad seen in perspective whose near edge lies behind the camera: both triangles are clipped at z = 0 independently, then set up, binned and
// rasterized. The new vertices on the shared diagonal are computed identically for both, so the
// union has no crack and no double coverage; it is convex, so the covered pixels are exactly the
// centres strictly inside the convex hull of the set-up vertices.
TEST(Raster, QuadClippedAtTheNearPlaneStaysWatertight) {
  // Clip space of a simple perspective: x, y as given, z = w_eye - 1 (near plane at w = 1).
  auto cv = [](float x, float y, float w) {
    ClipVertex v;
    v.position = {x, y, w - 1.0f, w};
    return v;
  };
  const ClipVertex a = cv(-3, 1.1f, 0.4f), b = cv(3.3f, 0.9f, 0.5f), c = cv(2.5f, -0.7f, 6), d = cv(-2, -0.8f, 5);
  std::vector<ClipTriangle> clipped;
  EXPECT_EQ(clip_triangle({a, b, c}, 0, {}, clipped), ClipOutcome::Clipped);
  EXPECT_EQ(clip_triangle({a, c, d}, 0, {}, clipped), ClipOutcome::Clipped);
  const Viewport vp{0, 0, 96, 64, 0, 1};
  std::vector<ScreenTriangle> tris;
  std::vector<std::pair<int64_t, int64_t>> pts;
  for (const ClipTriangle& t : clipped) {
    ScreenTriangle s;
    ASSERT_EQ(setup_triangle(t, 0, vp, kCullNone, FrontFace::CounterClockwise, s), SetupOutcome::Kept);
    tris.push_back(s);
    for (int k = 0; k < 3; ++k) pts.emplace_back(s.fx[k], s.fy[k]);
  }
  // Convex hull (monotone chain), counter-clockwise in y-up sense.
  std::sort(pts.begin(), pts.end());
  pts.erase(std::unique(pts.begin(), pts.end()), pts.end());
  auto cross = [](std::pair<int64_t, int64_t> o, std::pair<int64_t, int64_t> p, std::pair<int64_t, int64_t> q) {
    return (p.first - o.first) * (q.second - o.second) - (p.second - o.second) * (q.first - o.first);
  };
  std::vector<std::pair<int64_t, int64_t>> hull(2 * pts.size());
  size_t k = 0;
  for (size_t i = 0; i < pts.size(); ++i) {
    while (k >= 2 && cross(hull[k - 2], hull[k - 1], pts[i]) <= 0) --k;
    hull[k++] = pts[i];
  }
  for (size_t i = pts.size() - 1, lower = k + 1; i-- > 0;) {
    while (k >= lower && cross(hull[k - 2], hull[k - 1], pts[i]) <= 0) --k;
    hull[k++] = pts[i];
  }
  hull.resize(k - 1);
  const std::vector<int> cov = coverage(tris, 96, 64);
  int inside = 0, checked = 0;
  for (int y = 0; y < 64; ++y)
    for (int x = 0; x < 96; ++x) {
      const std::pair<int64_t, int64_t> p{int64_t{x} * 256 + 128, int64_t{y} * 256 + 128};
      int64_t min_cross = INT64_MAX;
      for (size_t i = 0; i < hull.size(); ++i)
        min_cross = std::min(min_cross, cross(hull[i], hull[(i + 1) % hull.size()], p));
      const int n = cov[static_cast<size_t>(y * 96 + x)];
      EXPECT_LE(n, 1) << x << "," << y;
      if (min_cross == 0) continue;  // exactly on the outline: owned per the fill rule
      ++checked;
      inside += min_cross > 0;
      EXPECT_EQ(n, min_cross > 0 ? 1 : 0) << x << "," << y;
    }
  EXPECT_GT(inside, 500);
  EXPECT_GT(checked - inside, 500);
}

}  // namespace
}  // namespace tessera::pipeline
