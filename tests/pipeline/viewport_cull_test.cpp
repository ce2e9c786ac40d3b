// Perspective divide, viewport transform (incl. negative height), facingness and culling per the
// Vulkan spec, degenerate removal.
#include "tessera/pipeline/viewport_cull.h"

#include <gtest/gtest.h>

namespace tessera::pipeline {
namespace {

ClipVertex vtx(float x, float y, float z, float w) {
  ClipVertex v;
  v.position = {x, y, z, w};
  return v;
}

TEST(Viewport, TransformMapsNdcCornersAndDepthRange) {
  const Viewport vp{10, 20, 200, 100, 0.25f, 0.75f};
  // Clip-space vertices with w = 2 so the divide matters: NDC (-1,-1,0), (1,-1,1), (-1,1,0.5).
  const ClipTriangle in = {vtx(-2, -2, 0, 2), vtx(2, -2, 2, 2), vtx(-2, 2, 1, 2)};
  ScreenTriangle t;
  ASSERT_EQ(setup_triangle(in, 0, vp, kCullNone, FrontFace::CounterClockwise, t), SetupOutcome::Kept);
  EXPECT_FLOAT_EQ(t.v[0].x, 10);
  EXPECT_FLOAT_EQ(t.v[0].y, 20);
  EXPECT_FLOAT_EQ(t.v[0].z, 0.25f);
  EXPECT_FLOAT_EQ(t.v[1].x, 210);
  EXPECT_FLOAT_EQ(t.v[1].z, 0.75f);
  EXPECT_FLOAT_EQ(t.v[2].y, 120);
  EXPECT_FLOAT_EQ(t.v[2].z, 0.5f);
  EXPECT_FLOAT_EQ(t.v[0].inv_w, 0.5f);
  EXPECT_EQ(t.fx[1], 210 * 256);
  EXPECT_EQ(t.fy[2], 120 * 256);
}

TEST(Viewport, NegativeHeightFlipsY) {
  // VK_KHR_maintenance1: y = height, height = -height puts NDC y = -1 at the bottom.
  const Viewport vp{0, 100, 200, -100, 0, 1};
  const ClipTriangle in = {vtx(-1, -1, 0, 1), vtx(1, -1, 0, 1), vtx(-1, 1, 0, 1)};
  ScreenTriangle t;
  ASSERT_EQ(setup_triangle(in, 0, vp, kCullNone, FrontFace::CounterClockwise, t), SetupOutcome::Kept);
  EXPECT_FLOAT_EQ(t.v[0].y, 100);
  EXPECT_FLOAT_EQ(t.v[2].y, 0);
}

// Framebuffer triangle (0,0), (10,0), (0,10): a = -1/2 (0 - 0 + 100 - 0 + 0 - 0) = -50 < 0, so it
// is back-facing for COUNTER_CLOCKWISE and front-facing for CLOCKWISE. A negative viewport height
// mirrors y and flips every answer.
TEST(Cull, FacingnessFollowsSignedAreaFrontFaceAndViewportFlip) {
  // NDC for a 100x100 viewport: pixel p -> p / 50 - 1.
  const ClipTriangle in = {vtx(-1, -1, 0, 1), vtx(-0.8f, -1, 0, 1), vtx(-1, -0.8f, 0, 1)};
  const Viewport up{0, 0, 100, 100, 0, 1};
  const Viewport flipped{0, 100, 100, -100, 0, 1};
  struct Case {
    Viewport vp;
    FrontFace ff;
    bool front;
  };
  const Case cases[] = {{up, FrontFace::CounterClockwise, false},
                        {up, FrontFace::Clockwise, true},
                        {flipped, FrontFace::CounterClockwise, true},
                        {flipped, FrontFace::Clockwise, false}};
  for (const Case& c : cases) {
    ScreenTriangle t;
    ASSERT_EQ(setup_triangle(in, 0, c.vp, kCullNone, c.ff, t), SetupOutcome::Kept);
    EXPECT_EQ(t.front_facing, c.front);
    EXPECT_EQ(t.area2 < 0, c.vp.height > 0);
    EXPECT_EQ(setup_triangle(in, 0, c.vp, kCullBack, c.ff, t),
              c.front ? SetupOutcome::Kept : SetupOutcome::Culled);
    EXPECT_EQ(setup_triangle(in, 0, c.vp, kCullFront, c.ff, t),
              c.front ? SetupOutcome::Culled : SetupOutcome::Kept);
    EXPECT_EQ(setup_triangle(in, 0, c.vp, kCullFrontAndBack, c.ff, t), SetupOutcome::Culled);
  }
}

TEST(Cull, DegenerateTrianglesAreRemoved) {
  const Viewport vp{0, 0, 100, 100, 0, 1};
  ScreenTriangle t;
  const ClipTriangle collinear = {vtx(-1, -1, 0, 1), vtx(0, 0, 0, 1), vtx(1, 1, 0, 1)};
  EXPECT_EQ(setup_triangle(collinear, 0, vp, kCullNone, FrontFace::CounterClockwise, t),
            SetupOutcome::Degenerate);
  // Non-zero area in float, but all three vertices snap to the same 1/256-pixel grid point.
  const ClipTriangle tiny = {vtx(0, 0, 0, 1), vtx(1e-6f, 0, 0, 1), vtx(0, 1e-6f, 0, 1)};
  EXPECT_EQ(setup_triangle(tiny, 0, vp, kCullNone, FrontFace::CounterClockwise, t),
            SetupOutcome::Degenerate);
  // A vertex with w <= 0 never reaches the rasterizer.
  const ClipTriangle bad_w = {vtx(0, 0, 0, 0), vtx(1, 0, 0, 1), vtx(0, 1, 0, 1)};
  EXPECT_EQ(setup_triangle(bad_w, 0, vp, kCullNone, FrontFace::CounterClockwise, t),
            SetupOutcome::Degenerate);
}

}  // namespace
}  // namespace tessera::pipeline
