// Points, lines and multisampling in the pipeline, exact pixel and sample sets: point squares
// (top-left rule on their edges), rectangular and non-strict parallelogram lines of width 1 and
// 3, Bresenham's diamond exit (half-open strips, width 3), line stipple, smooth line coverage,
// 4x coverage of a triangle edge at the standard sample locations, line and point clipping,
// logical operations.
#include <gtest/gtest.h>

#include <vulkan/vulkan_core.h>

#include <cmath>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "tessera/pipeline/clip.h"
#include "tessera/pipeline/line_point_setup.h"
#include "tessera/pipeline/logic_op.h"
#include "tessera/pipeline/raster.h"
#include "tessera/pipeline/tile_fetch.h"
#include "test_util.h"

namespace tessera::pipeline {
namespace {

using Pixels = std::set<std::pair<int, int>>;

ScreenVertex at(float x, float y, float z = 0.5f) {
  ScreenVertex v;
  v.x = x;
  v.y = y;
  v.z = z;
  v.inv_w = 1;
  return v;
}

ScreenTriangle line(float x0, float y0, float x1, float y1, LineMode mode, float width,
                    uint16_t stipple_factor = 0, uint16_t pattern = 0) {
  ScreenTriangle t;
  LineState s;
  s.mode = mode;
  s.width = width;
  s.stipple_factor = stipple_factor;
  s.stipple_pattern = pattern;
  EXPECT_TRUE(setup_line(at(x0, y0), at(x1, y1), 0, s, t));
  return t;
}

ScreenTriangle point(float x, float y, float size) {
  ScreenTriangle t;
  EXPECT_TRUE(setup_point(at(x, y), 0, size, t));
  return t;
}

using SampleMasks = std::map<std::pair<int, int>, uint32_t>;

// Covered samples of `prims` on a 32 x 32 framebuffer, per pixel, going through the tiler (8 x 8
// tiles, so most primitives cross tiles): no sample may be produced twice. `depths` receives
// each quad's per-sample data when the grid has more than one sample.
SampleMasks sample_masks(const std::vector<ScreenTriangle>& prims, const SampleGrid& grid,
                         std::vector<std::pair<Quad, QuadSamples>>* depths = nullptr) {
  TilingConfig c;
  c.width = c.height = 32;
  c.tile_width = c.tile_height = 8;
  c.samples = grid.extent;
  PolygonListBuilder pb(c);
  for (const ScreenTriangle& t : prims) pb.bin(t);
  SampleMasks out;
  std::vector<PbAccess> reads;
  fetch_tiles(pb, ScanlineOrder{}, [&](uint32_t tile, std::span<const uint32_t> list) {
    const PixelRect rect = tile_rect(c, tile);
    for (uint32_t p : list) {
      std::vector<Quad> quads;
      std::vector<QuadSamples> qs;
      rasterize(pb.primitives()[p], rect, grid, quads, qs);
      for (size_t k = 0; k < quads.size(); ++k) {
        if (depths && grid.count > 1) depths->push_back({quads[k], qs[k]});
        for (int i = 0; i < 4; ++i) {
          if (!(quads[k].coverage & (1 << i))) continue;
          const int x = quads[k].x + (i & 1), y = quads[k].y + (i >> 1);
          EXPECT_TRUE(x >= rect.x0 && x < rect.x1 && y >= rect.y0 && y < rect.y1);
          const uint32_t m = grid.count > 1 ? qs[k].covered[i] : 1u;
          EXPECT_NE(m, 0u);
          uint32_t& have = out[std::make_pair(x, y)];
          EXPECT_EQ(have & m, 0u) << "pixel " << x << "," << y << " sample twice";
          have |= m;
        }
      }
    }
  }, reads);
  return out;
}

Pixels covered(const std::vector<ScreenTriangle>& prims, const SampleGrid& grid = *standard_samples(1)) {
  Pixels p;
  for (const auto& [xy, m] : sample_masks(prims, grid)) p.insert(xy);
  return p;
}

Pixels square(int x0, int y0, int x1, int y1) {
  Pixels p;
  for (int y = y0; y < y1; ++y)
    for (int x = x0; x < x1; ++x) p.insert({x, y});
  return p;
}

// Spec "Basic Point Rasterization": the square of side PointSize centred on the vertex covers
// the pixel centres inside it; a centre on its left or top edge counts, on its right or bottom
// edge it does not (the polygon rule, applied to the square's edges).
TEST(PointRaster, SquareCoversTheCentresInsideIt) {
  EXPECT_EQ(covered({point(8, 8, 4)}), square(6, 6, 10, 10));
  EXPECT_EQ(covered({point(8.5f, 8.5f, 3)}), square(7, 7, 10, 10));
  EXPECT_EQ(covered({point(10.3f, 10.7f, 1)}), square(10, 10, 11, 11));
  // Square [7.5, 9.5]^2: centres 7.5 (left/top edge) in, 9.5 (right/bottom edge) out.
  EXPECT_EQ(covered({point(8.5f, 8.5f, 2)}), square(7, 7, 9, 9));
  // Crossing the 8 x 8 tile corner at (16, 16): binned to the four tiles, each pixel once.
  EXPECT_EQ(covered({point(16, 16, 6)}), square(13, 13, 19, 19));
}

TEST(PointRaster, EveryFragmentGetsThePointsVertexData) {
  ScreenTriangle p = point(5, 5, 2);
  std::vector<Quad> quads;
  rasterize(p, {0, 0, 32, 32}, quads);
  ASSERT_EQ(quads.size(), 1u);
  EXPECT_EQ(quads[0].coverage, 0xF);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(quads[0].bary[i][0], 1.0f);
    EXPECT_EQ(quads[0].bary[i][1], 0.0f);
    EXPECT_EQ(quads[0].depth[i], 0.5f);
  }
}

// Spec "Basic Line Segment Rasterization", rectangular (strictLines) lines: the rectangle w wide
// around the segment, its ends through the endpoints.
TEST(LineRaster, RectangularLinesOfWidthOneAndThree) {
  EXPECT_EQ(covered({line(2, 5.5f, 10, 5.5f, LineMode::Rectangle, 1)}), square(2, 5, 10, 6));
  EXPECT_EQ(covered({line(2, 5.5f, 10, 5.5f, LineMode::Rectangle, 3)}), square(2, 4, 10, 7));
  // A diagonal from pixel centre (1.5, 1.5) to (9.5, 9.5): the start centre lies on the end
  // edge through the first endpoint (a left edge: in), the last one on the edge through the
  // second (a right edge: out).
  Pixels diag;
  for (int i = 1; i < 9; ++i) diag.insert({i, i});
  EXPECT_EQ(covered({line(1.5f, 1.5f, 9.5f, 9.5f, LineMode::Rectangle, 1)}), diag);
  // Width 3: centres within 1.5 of the diagonal (|x - y| <= 2) and between the end edges
  // (2 <= x + y < 18).
  Pixels wide;
  for (int y = 0; y < 32; ++y)
    for (int x = 0; x < 32; ++x)
      if (std::abs(x - y) <= 2 && x + y >= 2 && x + y < 18) wide.insert({x, y});
  EXPECT_EQ(covered({line(1.5f, 1.5f, 9.5f, 9.5f, LineMode::Rectangle, 3)}), wide);
}

// Non-strict lines: a parallelogram whose ends are parallel to the minor axis (y for this
// x-major segment), so each column gets the centres within w / 2 of the line vertically.
TEST(LineRaster, NonStrictParallelogramLinesOfWidthOneAndThree) {
  const Pixels one = {{1, 1}, {2, 2}, {3, 2}, {4, 3}, {5, 3}, {6, 4}, {7, 4}, {8, 5}};
  EXPECT_EQ(covered({line(1.5f, 1.7f, 9.5f, 5.7f, LineMode::Parallelogram, 1)}), one);
  Pixels three;
  for (const auto& [x, y] : one)
    for (int d = -1; d <= 1; ++d) three.insert({x, y + d});
  EXPECT_EQ(covered({line(1.5f, 1.7f, 9.5f, 5.7f, LineMode::Parallelogram, 3)}), three);
}

// Spec "Bresenham Line Segment Rasterization": one fragment per column whose diamond the
// segment crosses and leaves; the diamond holding the last endpoint is not produced.
TEST(LineRaster, BresenhamDiamondExit) {
  // Slope 1/2 between pixel centres: where the line passes exactly between two rows (y = 1.0 at
  // x = 1.5) the spec's (e, e^2) perturbation puts it just above (it rises): the lower row.
  const Pixels one = {{0, 0}, {1, 1}, {2, 1}, {3, 2}, {4, 2}, {5, 3}, {6, 3}, {7, 4}};
  EXPECT_EQ(covered({line(0.5f, 0.5f, 8.5f, 4.5f, LineMode::Bresenham, 1)}), one);
  // Width 3: the segment moved up by (3 - 1) / 2 = 1 row, then 3 fragments per column.
  Pixels three;
  for (const auto& [x, y] : one)
    for (int d = -1; d <= 1; ++d)
      if (y + d >= 0) three.insert({x, y + d});
  EXPECT_EQ(covered({line(0.5f, 0.5f, 8.5f, 4.5f, LineMode::Bresenham, 3)}), three);
  // Both ends off the pixel centres: the start pixel (0, 0), whose centre the segment does not
  // cross, is produced (the segment starts in its diamond and leaves it); pixel (5, 0), whose
  // diamond holds the end point, is not.
  EXPECT_EQ(covered({line(0.7f, 0.5f, 5.7f, 0.5f, LineMode::Bresenham, 1)}), square(0, 0, 5, 1));
  EXPECT_EQ(covered({line(0.3f, 0.5f, 5.3f, 0.5f, LineMode::Bresenham, 1)}), square(0, 0, 5, 1));
  // Right to left: the same columns' rows, but the half-open end is now pixel (0, 0) and the
  // start pixel (8, 4), whose centre holds the first endpoint, is produced.
  const Pixels mirrored = {{1, 1}, {2, 1}, {3, 2}, {4, 2}, {5, 3}, {6, 3}, {7, 4}, {8, 4}};
  EXPECT_EQ(covered({line(8.5f, 4.5f, 0.5f, 0.5f, LineMode::Bresenham, 1)}), mirrored);
  // y-major: a tie (x exactly between two columns) goes to the left column (the -e shift in x
  // moves the line left).
  const Pixels y_major = {{0, 0}, {0, 1}, {1, 2}, {1, 3}, {2, 4}, {2, 5}, {3, 6}, {3, 7}};
  EXPECT_EQ(covered({line(0.5f, 0.5f, 4.5f, 8.5f, LineMode::Bresenham, 1)}), y_major);
}

TEST(LineRaster, BresenhamStripSegmentsMeetWithoutGapOrOverlap) {
  // A strip 2 -> 14 -> 26 along a row, then the same split differently: the half-open
  // segments produce each fragment exactly once (covered() fails on a duplicate).
  const Pixels row = square(2, 7, 26, 8);
  EXPECT_EQ(covered({line(2.5f, 7.5f, 14.5f, 7.5f, LineMode::Bresenham, 1), line(14.5f, 7.5f, 26.5f, 7.5f, LineMode::Bresenham, 1)}), row);
  EXPECT_EQ(covered({line(2.5f, 7.5f, 9.25f, 7.5f, LineMode::Bresenham, 1), line(9.25f, 7.5f, 26.5f, 7.5f, LineMode::Bresenham, 1)}), row);
}

// Spec "Line Stipple": bit floor(s / factor) mod 16 of the pattern keeps fragment s.
TEST(LineRaster, StippleCountsFragmentsAlongBresenhamLinesAndLengthAlongRectangles) {
  // 0x5555 with factor 2: fragments 0-1 on, 2-3 off, ...
  Pixels on;
  for (int x = 0; x < 20; ++x)
    if ((x / 2) % 2 == 0) on.insert({x, 3});
  EXPECT_EQ(covered({line(0.5f, 3.5f, 20.5f, 3.5f, LineMode::Bresenham, 1, 2, 0x5555)}), on);
  // A rectangle starting at x = 0: unit-length pieces along it, s = floor(x).
  EXPECT_EQ(covered({line(0, 3.5f, 20, 3.5f, LineMode::Rectangle, 1, 2, 0x5555)}), on);
  // The counter carried from an earlier segment of a strip shifts the pattern.
  ScreenTriangle carried = line(0.5f, 3.5f, 20.5f, 3.5f, LineMode::Bresenham, 1, 2, 0x5555);
  carried.stipple_start = 2;
  Pixels shifted;
  for (int x = 0; x < 20; ++x)
    if (((x + 2) / 2) % 2 == 0) shifted.insert({x, 3});
  EXPECT_EQ(covered({carried}), shifted);
  EXPECT_EQ(line_stipple_advance(carried), 20.0);
  EXPECT_DOUBLE_EQ(line_stipple_advance(line(0, 0, 3, 4, LineMode::Rectangle, 1)), 5.0);
}

TEST(LineRaster, InterpolationAlongTheSegmentAndDepth) {
  // From x = 2 (z 0.2, w 1) to x = 10 (z 0.6, w 2): at pixel centre x = 4.5, t = 2.5 / 8.
  ScreenTriangle t;
  ScreenVertex a = at(2, 5.5f, 0.2f), b = at(10, 5.5f, 0.6f);
  b.inv_w = 0.5f;
  ASSERT_TRUE(setup_line(a, b, 0, LineState{}, t));
  std::vector<Quad> quads;
  rasterize(t, {4, 5, 5, 6}, quads);
  ASSERT_EQ(quads.size(), 1u);
  ASSERT_EQ(quads[0].coverage, 0x4);  // pixel (4, 5) is pixel 2 of quad (4, 4)
  const double tl = 2.5 / 8.0;
  EXPECT_FLOAT_EQ(quads[0].depth[0 + 2], static_cast<float>(0.2 + tl * 0.4));
  EXPECT_FLOAT_EQ(quads[0].linear_bary[2][1], static_cast<float>(tl));
  // Perspective: (t / wb) / ((1 - t) / wa + t / wb).
  EXPECT_FLOAT_EQ(quads[0].bary[2][1], static_cast<float>(tl * 0.5 / ((1 - tl) + tl * 0.5)));
}

TEST(LineRaster, SmoothLinesCoverThePixelsTheyTouchWithTheirAreaAsAlpha) {
  ScreenTriangle t = line(2, 5.5f, 10, 5.5f, LineMode::Smooth, 1);
  // The rectangle y in [5, 6] covers row 5 fully; rows 4 and 6 not at all.
  EXPECT_EQ(covered({t}), square(2, 5, 10, 6));
  EXPECT_FLOAT_EQ(smooth_line_coverage(t, 5, 5), 1.0f);
  // Half a pixel lower: rows 5 and 6 each half covered.
  ScreenTriangle half = line(2, 6, 10, 6, LineMode::Smooth, 1);
  EXPECT_EQ(covered({half}), square(2, 5, 10, 7));
  EXPECT_FLOAT_EQ(smooth_line_coverage(half, 5, 5), 0.5f);
  EXPECT_FLOAT_EQ(smooth_line_coverage(half, 5, 6), 0.5f);
}

// Spec "Multisampling" with the standard 4-sample locations (0.375, 0.125), (0.875, 0.375),
// (0.125, 0.625), (0.625, 0.875): an edge at x = 10.5 covers samples 0 and 2 of pixel 10.
TEST(MultisampleRaster, FourSampleCoverageOfATriangleEdge) {
  const SampleGrid& g = *standard_samples(4);
  ASSERT_EQ(g.count, 4u);
  // Two triangles forming the rectangle x < 10.5, y < 16: every sample once (sample_masks()
  // checks), all four of pixels 0-9, samples 0 and 2 of pixel 10.
  const SampleMasks m = sample_masks({test::screen_triangle(0, 0, 10.5f, 0, 10.5f, 16), test::screen_triangle(0, 0, 10.5f, 16, 0, 16)}, g);
  EXPECT_EQ(m.size(), 11u * 16u);
  for (const auto& [xy, mask] : m) EXPECT_EQ(mask, xy.first == 10 ? 0b0101u : 0b1111u) << xy.first << "," << xy.second;
  // Samples exactly on a shared edge belong to one side only: the edge x = 10.375 passes
  // through sample 0 of pixel 10, which the triangle to its right owns (a left edge there).
  const SampleMasks left = sample_masks({test::screen_triangle(0, 0, 10.375f, 0, 10.375f, 16), test::screen_triangle(0, 0, 10.375f, 16, 0, 16)}, g);
  const SampleMasks right = sample_masks({test::screen_triangle(10.375f, 0, 20, 0, 20, 16), test::screen_triangle(10.375f, 0, 20, 16, 10.375f, 16)}, g);
  EXPECT_EQ(left.at({10, 4}), 0b0100u);
  EXPECT_EQ(right.at({10, 4}), 0b1011u);
}

TEST(MultisampleRaster, DepthAtEachSampleAndBinningBySamples) {
  const SampleGrid& g = *standard_samples(4);
  // z = x / 32 across the triangle: sample s of pixel 4 has depth (4 + x_s) / 32.
  ScreenTriangle t = test::screen_triangle(0, 0, 32, 0, 0, 32);
  t.v[0].z = 0;
  t.v[1].z = 1;
  t.v[2].z = 0;
  std::vector<Quad> quads;
  std::vector<QuadSamples> qs;
  rasterize(t, {4, 2, 5, 3}, g, quads, qs);
  ASSERT_EQ(quads.size(), 1u);
  ASSERT_EQ(qs.size(), 1u);
  ASSERT_EQ(qs[0].covered[0], 0b1111);  // pixel (4, 2) is pixel 0 of quad (4, 2)
  const float offsets[4] = {0.375f, 0.875f, 0.125f, 0.625f};
  for (int s = 0; s < 4; ++s) EXPECT_FLOAT_EQ(qs[0].depth[0][s], (4 + offsets[s]) / 32) << s;
  // A sliver between x = 7.9 and 8.2 covers sample 2 (x = 8.125) of pixel 8 but no pixel
  // centre: with one sample it reaches no tile, with four the tile of pixel 8.
  const ScreenTriangle sliver = test::screen_triangle(7.9f, 0, 8.2f, 0, 8.2f, 31);
  EXPECT_TRUE(covered({sliver}).empty());
  EXPECT_FALSE(covered({sliver}, g).empty());
  EXPECT_FALSE(overlaps(sliver, {8, 0, 16, 8}));
  EXPECT_TRUE(overlaps(sliver, {8, 0, 16, 8}, g.extent));
}

TEST(MultisampleRaster, StandardGridsAreTheSpecTables) {
  for (uint32_t n : {1u, 2u, 4u, 8u, 16u}) ASSERT_NE(standard_samples(n), nullptr) << n;
  EXPECT_EQ(standard_samples(3), nullptr);
  EXPECT_EQ(standard_samples(32), nullptr);
  const SampleGrid& g8 = *standard_samples(8);
  EXPECT_EQ(g8.x[0], 144);  // 0.5625 * 256
  EXPECT_EQ(g8.y[7], 16);   // 0.0625 * 256
  const SampleGrid& g2 = *standard_samples(2);
  EXPECT_EQ(g2.x[0], 192);
  EXPECT_EQ(g2.x[1], 64);
}

TEST(LinePointClip, SegmentsAreCutAtTheDepthPlanesAndPointsKeptOrDiscardedWhole) {
  ClipConfig cfg;
  ClipVertex a, b;
  a.position = {0, 0, -1, 1};  // behind the near plane z >= 0
  b.position = {0, 0, 1, 1};
  a.varyings[0] = 0;
  b.varyings[0] = 10;
  EXPECT_EQ(clip_line(a, b, 1, cfg), ClipOutcome::Clipped);
  EXPECT_FLOAT_EQ(a.position.z, 0.0f);
  EXPECT_FLOAT_EQ(a.varyings[0], 5.0f);
  // With negativeOneToOne the near plane is z >= -w: the segment is inside.
  a.position = {0, 0, -1, 1};
  cfg.negative_one_to_one = true;
  EXPECT_EQ(clip_line(a, b, 1, cfg), ClipOutcome::Inside);
  ClipVertex c = a, d = b;
  c.position = {0, 0, 2, 1}, d.position = {0, 0, 3, 1};
  EXPECT_EQ(clip_line(c, d, 0, cfg), ClipOutcome::Discarded);
  // Points: outside the view volume in x discards with ALL_CLIP_PLANES, not with
  // USER_CLIP_PLANES_ONLY; behind the eye always.
  ClipVertex p;
  p.position = {1.5f, 0, 0.5f, 1};
  EXPECT_FALSE(point_kept(p, cfg, true));
  EXPECT_TRUE(point_kept(p, cfg, false));
  p.position.w = -1;
  EXPECT_FALSE(point_kept(p, cfg, false));
}

// Spec table "Logical Operations" on 0b1100 (s) and 0b1010 (d).
TEST(LogicOp, TheSixteenOperations) {
  const uint32_t s = 0xC, d = 0xA, m = 0xF;
  const std::pair<uint32_t, uint32_t> table[] = {
      {VK_LOGIC_OP_CLEAR, 0x0},         {VK_LOGIC_OP_AND, 0x8},          {VK_LOGIC_OP_AND_REVERSE, 0x4},
      {VK_LOGIC_OP_COPY, 0xC},          {VK_LOGIC_OP_AND_INVERTED, 0x2}, {VK_LOGIC_OP_NO_OP, 0xA},
      {VK_LOGIC_OP_XOR, 0x6},           {VK_LOGIC_OP_OR, 0xE},           {VK_LOGIC_OP_NOR, 0x1},
      {VK_LOGIC_OP_EQUIVALENT, 0x9},    {VK_LOGIC_OP_INVERT, 0x5},       {VK_LOGIC_OP_OR_REVERSE, 0xD},
      {VK_LOGIC_OP_COPY_INVERTED, 0x3}, {VK_LOGIC_OP_OR_INVERTED, 0xB},  {VK_LOGIC_OP_NAND, 0x7},
      {VK_LOGIC_OP_SET, 0xF}};
  for (const auto& [op, want] : table) EXPECT_EQ(logic_op(op, s, d) & m, want) << op;
}

TEST(LogicOp, AppliesToTheFormatsBitsThroughTheWriteMask) {
  PixelFormat rgba8, srgb, f16;
  ASSERT_TRUE(pixel_format(VK_FORMAT_R8G8B8A8_UNORM, &rgba8));
  ASSERT_TRUE(pixel_format(VK_FORMAT_R8G8B8A8_SRGB, &srgb));
  ASSERT_TRUE(pixel_format(VK_FORMAT_R16G16B16A16_SFLOAT, &f16));
  EXPECT_TRUE(logic_op_applies(rgba8));
  EXPECT_FALSE(logic_op_applies(srgb));
  EXPECT_FALSE(logic_op_applies(f16));
  // XOR of 0xFF with 0x0F = 0xF0, per component; alpha masked out keeps its value.
  const float src[4] = {1, 1, 1, 1};
  float dst[4] = {15 / 255.0f, 0, 1, 0.5f};
  logic_op_color(VK_LOGIC_OP_XOR, rgba8, 0x7, src, dst);
  EXPECT_FLOAT_EQ(dst[0], 240 / 255.0f);
  EXPECT_FLOAT_EQ(dst[1], 1.0f);
  EXPECT_FLOAT_EQ(dst[2], 0.0f);
  EXPECT_FLOAT_EQ(dst[3], 0.5f);
  PixelFormat u32;
  ASSERT_TRUE(pixel_format(VK_FORMAT_R32_UINT, &u32));
  const float s2[4] = {12, 0, 0, 1};
  float d2[4] = {10, 0, 0, 1};
  logic_op_color(VK_LOGIC_OP_AND, u32, 0xF, s2, d2);
  EXPECT_EQ(d2[0], 8.0f);
}

}  // namespace
}  // namespace tessera::pipeline
