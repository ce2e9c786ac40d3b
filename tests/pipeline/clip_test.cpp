// Clipping: near-plane clipping with interpolated varyings, guard band, trivial reject, user clip
// distances and cull distances.
#include "tessera/pipeline/clip.h"

#include <gtest/gtest.h>

#include <cmath>
#include <initializer_list>
#include <limits>
#include <vector>

namespace tessera::pipeline {
namespace {

ClipVertex vtx(float x, float y, float z, float w, float varying) {
  ClipVertex v;
  v.position = {x, y, z, w};
  v.varyings[0] = varying;
  return v;
}

void expect_vertex(const ClipVertex& v, float x, float y, float z, float w, float varying) {
  EXPECT_FLOAT_EQ(v.position.x, x);
  EXPECT_FLOAT_EQ(v.position.y, y);
  EXPECT_FLOAT_EQ(v.position.z, z);
  EXPECT_FLOAT_EQ(v.position.w, w);
  EXPECT_FLOAT_EQ(v.varyings[0], varying);
}

// Twice the signed area after the perspective divide.
float ndc_area(const ClipTriangle& t) {
  auto px = [&](int i) { return t[static_cast<size_t>(i)].position.x / t[static_cast<size_t>(i)].position.w; };
  auto py = [&](int i) { return t[static_cast<size_t>(i)].position.y / t[static_cast<size_t>(i)].position.w; };
  return (px(1) - px(0)) * (py(2) - py(0)) - (py(1) - py(0)) * (px(2) - px(0));
}

TEST(Clip, InsideTrianglePassesUnchanged) {
  const ClipTriangle in = {vtx(0, 0, 0.5f, 1, 0), vtx(0.5f, 0, 0.5f, 1, 1), vtx(0, 0.5f, 0.5f, 1, 2)};
  std::vector<ClipTriangle> out;
  EXPECT_EQ(clip_triangle(in, 1, {}, out), ClipOutcome::Inside);
  ASSERT_EQ(out.size(), 1u);
  expect_vertex(out[0][1], 0.5f, 0, 0.5f, 1, 1);
}

// One vertex behind the near plane: the polygon becomes a quad (two triangles) whose new
// vertices lie on z = 0 at the midpoints of the two crossing edges, varyings interpolated.
TEST(Clip, OneVertexBehindNearPlaneGivesQuad) {
  const ClipTriangle in = {vtx(0, 0, -0.5f, 1, 0), vtx(0.5f, 0, 0.5f, 1, 1), vtx(-0.5f, 0.5f, 0.5f, 1, 2)};
  std::vector<ClipTriangle> out;
  EXPECT_EQ(clip_triangle(in, 1, {}, out), ClipOutcome::Clipped);
  ASSERT_EQ(out.size(), 2u);
  expect_vertex(out[0][0], 0.25f, 0, 0, 1, 0.5f);
  expect_vertex(out[0][1], 0.5f, 0, 0.5f, 1, 1);
  expect_vertex(out[0][2], -0.5f, 0.5f, 0.5f, 1, 2);
  expect_vertex(out[1][0], 0.25f, 0, 0, 1, 0.5f);
  expect_vertex(out[1][1], -0.5f, 0.5f, 0.5f, 1, 2);
  expect_vertex(out[1][2], -0.25f, 0.25f, 0, 1, 1);
  // Winding is preserved.
  EXPECT_GT(ndc_area(in), 0);
  EXPECT_GT(ndc_area(out[0]), 0);
  EXPECT_GT(ndc_area(out[1]), 0);
}

// Two vertices behind: one triangle. With w varying the intersection is found in clip space:
// on edge v0 (z=1, w=2) -> v1 (z=-1, w=1) the distance to z >= 0 is z, t = 1 / (1 - -1) = 0.5.
TEST(Clip, TwoVerticesBehindNearPlaneGiveOneTriangle) {
  const ClipTriangle in = {vtx(0, 0, 1, 2, 10), vtx(1, 0, -1, 1, 20), vtx(0, 1, -3, 1, 30)};
  std::vector<ClipTriangle> out;
  EXPECT_EQ(clip_triangle(in, 1, {}, out), ClipOutcome::Clipped);
  ASSERT_EQ(out.size(), 1u);
  expect_vertex(out[0][0], 0, 0, 1, 2, 10);
  expect_vertex(out[0][1], 0.5f, 0, 0, 1.5f, 15);
  // v2 -> v0: from inside v0 with distance 1 to v2 with distance -3: t = 1/4.
  expect_vertex(out[0][2], 0, 0.25f, 0, 1.75f, 15);
}

TEST(Clip, WhollyOutsideIsDiscarded) {
  std::vector<ClipTriangle> out;
  const ClipTriangle behind = {vtx(0, 0, -1, 1, 0), vtx(1, 0, -0.5f, 1, 0), vtx(0, 1, -2, 1, 0)};
  EXPECT_EQ(clip_triangle(behind, 1, {}, out), ClipOutcome::Discarded);
  const ClipTriangle beyond_far = {vtx(0, 0, 2, 1, 0), vtx(1, 0, 1.5f, 1, 0), vtx(0, 1, 3, 1, 0)};
  EXPECT_EQ(clip_triangle(beyond_far, 1, {}, out), ClipOutcome::Discarded);
  const ClipTriangle right = {vtx(1.5f, 0, 0.5f, 1, 0), vtx(3, 0, 0.5f, 1, 0), vtx(2, 1, 0.5f, 1, 0)};
  EXPECT_EQ(clip_triangle(right, 1, {}, out), ClipOutcome::Discarded);
  EXPECT_TRUE(out.empty());
}

// Outside the view volume in x but inside the guard band: not clipped (raster scissors it).
TEST(Clip, GuardBandAvoidsXYClipping) {
  const ClipTriangle in = {vtx(-5, 0, 0.5f, 1, 0), vtx(5, 0, 0.5f, 1, 0), vtx(0, 5, 0.5f, 1, 0)};
  std::vector<ClipTriangle> out;
  EXPECT_EQ(clip_triangle(in, 1, {}, out), ClipOutcome::Inside);
  // Beyond the guard band it is clipped, and every vertex then lies within it.
  const ClipTriangle huge = {vtx(-100, 0, 0.5f, 1, 0), vtx(100, 0, 0.5f, 1, 0), vtx(0, 100, 0.5f, 1, 0)};
  out.clear();
  EXPECT_EQ(clip_triangle(huge, 1, {}, out), ClipOutcome::Clipped);
  ASSERT_FALSE(out.empty());
  for (const ClipTriangle& t : out)
    for (const ClipVertex& v : t) {
      EXPECT_LE(std::fabs(v.position.x), 8.0f * v.position.w + 1e-4f);
      EXPECT_LE(std::fabs(v.position.y), 8.0f * v.position.w + 1e-4f);
    }
}

TEST(Clip, DepthClampSkipsDepthPlanesButKeepsPositiveW) {
  ClipConfig clamp;
  clamp.depth_clip = false;
  std::vector<ClipTriangle> out;
  const ClipTriangle in = {vtx(0, 0, -0.5f, 1, 0), vtx(0.5f, 0, 0.5f, 1, 1), vtx(-0.5f, 0.5f, 2, 1, 2)};
  EXPECT_EQ(clip_triangle(in, 1, clamp, out), ClipOutcome::Inside);
  out.clear();
  const ClipTriangle behind_eye = {vtx(0, 0, 0, -1, 0), vtx(0.5f, 0, 0, 1, 1), vtx(-0.5f, 0.5f, 0, 1, 2)};
  EXPECT_EQ(clip_triangle(behind_eye, 1, clamp, out), ClipOutcome::Clipped);
  for (const ClipTriangle& t : out)
    for (const ClipVertex& v : t) EXPECT_GT(v.position.w, 0);
}

// A vertex inside the view volume with clip (or cull) distances d.
ClipVertex with_distances(float x, float y, float varying, std::initializer_list<float> d) {
  ClipVertex v = vtx(x, y, 0.5f, 1, varying);
  size_t i = 0;
  for (float f : d) v.distances[i++] = f;
  return v;
}

// Spec "Primitive Clipping": a triangle is clipped to where its interpolated clip distance is
// >= 0. Distances 1, 1, -1: the crossing edges are cut at their midpoints (t = 1 / (1 + 1)), so
// the kept region is a quad of two triangles, its new vertices with distance 0 and the varying
// and position interpolated there.
TEST(Clip, ClipDistanceCutsTheTriangleWhereItTurnsNegative) {
  const ClipTriangle in = {with_distances(0, 0, 0, {1}), with_distances(0.5f, 0, 1, {1}),
                           with_distances(0, 0.5f, 2, {-1})};
  ClipConfig config;
  config.clip_distances = 1;
  std::vector<ClipTriangle> out;
  EXPECT_EQ(clip_triangle(in, 1, config, out), ClipOutcome::Clipped);
  ASSERT_EQ(out.size(), 2u);
  expect_vertex(out[0][0], 0, 0, 0.5f, 1, 0);
  expect_vertex(out[0][1], 0.5f, 0, 0.5f, 1, 1);
  expect_vertex(out[0][2], 0.25f, 0.25f, 0.5f, 1, 1.5f);
  EXPECT_FLOAT_EQ(out[0][2].distances[0], 0);
  expect_vertex(out[1][2], 0, 0.25f, 0.5f, 1, 1);
  EXPECT_FLOAT_EQ(out[1][2].distances[0], 0);
  EXPECT_GT(ndc_area(out[0]), 0);
  EXPECT_GT(ndc_area(out[1]), 0);
  // Without the distance enabled the same triangle is inside; all negative discards it.
  out.clear();
  EXPECT_EQ(clip_triangle(in, 1, {}, out), ClipOutcome::Inside);
  const ClipTriangle below = {with_distances(0, 0, 0, {-1}), with_distances(0.5f, 0, 1, {-2}),
                              with_distances(0, 0.5f, 2, {-0.5f})};
  out.clear();
  EXPECT_EQ(clip_triangle(below, 1, config, out), ClipOutcome::Discarded);
  EXPECT_TRUE(out.empty());
}

// The second of two clip distances clips independently of the first; a cull distance after them
// culls only when every vertex is negative, and never cuts.
TEST(Clip, CullDistanceCullsOnlyWhenEveryVertexIsNegative) {
  ClipConfig config;
  config.clip_distances = 2;
  config.cull_distances = 1;
  std::vector<ClipTriangle> out;
  // Clip distances all positive, cull distance negative at two vertices: kept whole.
  const ClipTriangle some = {with_distances(0, 0, 0, {1, 1, -1}), with_distances(0.5f, 0, 1, {1, 1, -1}),
                             with_distances(0, 0.5f, 2, {1, 1, 0.5f})};
  EXPECT_EQ(clip_triangle(some, 1, config, out), ClipOutcome::Inside);
  EXPECT_EQ(out.size(), 1u);
  const ClipTriangle all = {with_distances(0, 0, 0, {1, 1, -1}), with_distances(0.5f, 0, 1, {1, 1, -1}),
                            with_distances(0, 0.5f, 2, {1, 1, -0.1f})};
  out.clear();
  EXPECT_EQ(clip_triangle(all, 1, config, out), ClipOutcome::Discarded);
  // The second clip distance cuts (vertex 0 negative): one vertex outside gives a quad.
  const ClipTriangle second = {with_distances(0, 0, 0, {1, -1, 1}), with_distances(0.5f, 0, 1, {1, 1, 1}),
                               with_distances(0, 0.5f, 2, {1, 1, 1})};
  out.clear();
  EXPECT_EQ(clip_triangle(second, 1, config, out), ClipOutcome::Clipped);
  EXPECT_EQ(out.size(), 2u);
}

TEST(Clip, LinesAndPointsHonourClipAndCullDistances) {
  ClipConfig config;
  config.clip_distances = 1;
  // Distance 1 at a, -3 at b: b moves to t = 1 / (1 + 3) along the segment.
  ClipVertex a = with_distances(0, 0, 0, {1}), b = with_distances(0.8f, 0, 4, {-3});
  EXPECT_EQ(clip_line(a, b, 1, config), ClipOutcome::Clipped);
  expect_vertex(b, 0.2f, 0, 0.5f, 1, 1);
  ClipVertex c = with_distances(0, 0, 0, {-1}), d = with_distances(0.8f, 0, 4, {-3});
  EXPECT_EQ(clip_line(c, d, 1, config), ClipOutcome::Discarded);
  ClipConfig cull;
  cull.cull_distances = 1;
  ClipVertex e = with_distances(0, 0, 0, {-1}), f = with_distances(0.8f, 0, 4, {2});
  EXPECT_EQ(clip_line(e, f, 1, cull), ClipOutcome::Inside);  // a cull distance never cuts
  f.distances[0] = -2;
  EXPECT_EQ(clip_line(e, f, 1, cull), ClipOutcome::Discarded);
  // A point is kept whole or dropped: a negative clip or cull distance drops it.
  EXPECT_TRUE(point_kept(with_distances(0, 0, 0, {0}), config, false));
  EXPECT_FALSE(point_kept(with_distances(0, 0, 0, {-0.01f}), config, false));
  EXPECT_FALSE(point_kept(with_distances(0, 0, 0, {-1}), cull, true));
  EXPECT_TRUE(point_kept(with_distances(0, 0, 0, {-1}), ClipConfig{}, true));  // not enabled
}

// A NaN or infinite distance is outside, as lavapipe's clipper takes it (Mesa's draw module:
// "clipdist < 0 || inf or nan" for clipping, cull_distance_is_out for culling).
TEST(Clip, NonFiniteDistancesAreOutside) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  ClipConfig clip;
  clip.clip_distances = 1;
  std::vector<ClipTriangle> out;
  const ClipTriangle one_nan = {with_distances(0, 0, 0, {1}), with_distances(0.5f, 0, 1, {1}),
                                with_distances(0, 0.5f, 2, {nan})};
  EXPECT_EQ(clip_triangle(one_nan, 1, clip, out), ClipOutcome::Clipped);
  ASSERT_EQ(out.size(), 2u);
  for (const ClipTriangle& t : out) {
    for (const ClipVertex& v : t) EXPECT_TRUE(std::isfinite(v.position.x) && std::isfinite(v.position.y));
  }
  const ClipTriangle all_inf = {with_distances(0, 0, 0, {inf}), with_distances(0.5f, 0, 1, {nan}),
                                with_distances(0, 0.5f, 2, {-inf})};
  out.clear();
  EXPECT_EQ(clip_triangle(all_inf, 1, clip, out), ClipOutcome::Discarded);
  ClipConfig cull;
  cull.cull_distances = 1;
  const ClipTriangle cull_nan = {with_distances(0, 0, 0, {nan}), with_distances(0.5f, 0, 1, {inf}),
                                 with_distances(0, 0.5f, 2, {-1})};
  out.clear();
  EXPECT_EQ(clip_triangle(cull_nan, 1, cull, out), ClipOutcome::Discarded);
  ClipVertex a = with_distances(0, 0, 0, {1}), b = with_distances(0.8f, 0, 4, {nan});
  EXPECT_EQ(clip_line(a, b, 1, clip), ClipOutcome::Clipped);
  EXPECT_TRUE(std::isfinite(b.position.x));
  EXPECT_FALSE(point_kept(with_distances(0, 0, 0, {inf}), clip, false));
  EXPECT_FALSE(point_kept(with_distances(0, 0, 0, {nan}), cull, false));
}

}  // namespace
}  // namespace tessera::pipeline
