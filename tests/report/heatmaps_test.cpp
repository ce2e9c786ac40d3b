// The report's heat maps as the page receives them (report/heatmaps.h): a constructed HeatMaps
// packed, its buffer inflated here with zlib as the browser's DecompressionStream('deflate') does,
// and the levels, ranges, shared offsets and absent metrics read back.
#include <gtest/gtest.h>
#include <zlib.h>

#include <cmath>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "heatmaps.h"

namespace tessera::report {
namespace {

const std::string kMinus = " \u2212 ";

Grid grid(uint32_t w, uint32_t h, std::map<std::pair<uint32_t, uint32_t>, double> cells) {
  Grid g;
  g.width = w;
  g.height = h;
  g.cells = std::move(cells);
  return g;
}

std::string inflate(const PackedCapture& p) {
  std::string out(p.levels_bytes, '\0');
  uLongf size = static_cast<uLongf>(out.size());
  const int rc = uncompress(reinterpret_cast<Bytef*>(out.data()), &size,
                            reinterpret_cast<const Bytef*>(p.deflated.data()), static_cast<uLong>(p.deflated.size()));
  EXPECT_EQ(rc, Z_OK);
  EXPECT_EQ(size, p.levels_bytes);
  return out;
}

const PackedView& view(const PackedCapture& p, const std::string& name) {
  for (const auto& v : p.views)
    if (v.name == name) return v;
  throw std::out_of_range("no view " + name);
}

// The level of tile (x, y) of a view's metric.
int level(const PackedCapture& p, const std::string& levels, const std::string& v, const std::string& metric,
          uint32_t x, uint32_t y) {
  const PackedGrid& g = view(p, v).grids.at(metric);
  return static_cast<uint8_t>(levels.at(g.offset + size_t(y) * p.width + x));
}

TEST(HeatMaps, LevelsQuantiseTheGridsOwnRangeTo256) {
  // Levels are the points lo + q (hi - lo) / steps; a value takes the nearest.
  EXPECT_EQ(heat_map_level(10, 10, 50, 255), 0);
  EXPECT_EQ(heat_map_level(50, 10, 50, 255), 255);  // hi is the top level exactly
  EXPECT_EQ(heat_map_level(30, 10, 50, 255), 128);   // 127.5 rounds up
  EXPECT_EQ(heat_map_level(10 + 40.0 / 255 * 0.49, 10, 50, 255), 0);
  EXPECT_EQ(heat_map_level(10 + 40.0 / 255 * 0.51, 10, 50, 255), 1);
  EXPECT_EQ(heat_map_level(-1, 10, 50, 255), 0);     // outside the range: clamped
  EXPECT_EQ(heat_map_level(99, 10, 50, 255), 255);
  EXPECT_EQ(heat_map_level(7, 7, 7, 255), 0);        // a constant grid: one level
  EXPECT_EQ(heat_map_level(NAN, 0, 1, 255), 0);
  // A difference over [-span, span] in 254 steps: 0 is level 127 exactly, the ends 0 and 254.
  EXPECT_EQ(heat_map_level(0, -1000, 1000, 254), 127);
  EXPECT_EQ(heat_map_level(-1000, -1000, 1000, 254), 0);
  EXPECT_EQ(heat_map_level(1000, -1000, 1000, 254), 254);
  EXPECT_DOUBLE_EQ(-1000 + 127 * 2000.0 / 254, 0);
}

TEST(HeatMaps, ARoundTripThroughTheDeflatedBuffer) {
  HeatMaps h;
  auto& views = h.captures["out/a.tcap"];
  // 3 x 2 tiles; tile (2, 1) has no row: 0.
  const Grid cycles = grid(3, 2, {{{0, 0}, 10}, {{1, 0}, 20}, {{2, 0}, 40}, {{0, 1}, 30}, {{1, 1}, 40}});
  views["mobile4"]["cycles"] = cycles;
  views["mobile4"]["quads"] =
      grid(3, 2, {{{0, 0}, 5}, {{1, 0}, 5}, {{2, 0}, 5}, {{0, 1}, 5}, {{1, 1}, 5}, {{2, 1}, 5}});
  views["mobile4"]["core.0.busy_cycles"] = grid(3, 2, {{{0, 0}, 10}, {{0, 1}, 30}});
  views["mobile4"]["core.1.busy_cycles"] = grid(3, 2, {{{1, 0}, 20}, {{2, 0}, 40}, {{1, 1}, 40}});
  // The same cycles as mobile4: one copy of the levels.
  views["mobile4+x"]["cycles"] = cycles;
  views["mobile4+x"]["quads"] = views["mobile4"]["quads"];
  views["mobile4+x"]["core.0.busy_cycles"] = views["mobile4"]["core.0.busy_cycles"];
  views["mobile4+x"]["core.1.busy_cycles"] = views["mobile4"]["core.1.busy_cycles"];
  // Twice mobile4's cycles: the same levels over another range.
  Grid doubled = cycles;
  for (auto& [xy, v] : doubled.cells) v *= 2;
  views["mobile1"]["cycles"] = doubled;
  views["mobile1"]["quads"] = views["mobile4"]["quads"];
  views["mobile1"]["core.0.busy_cycles"] = doubled;  // one core: no core.1
  views["mobile4+x" + kMinus + "mobile4"]["cycles"] = grid(3, 2, {{{0, 0}, -5}, {{1, 0}, 10}, {{2, 0}, 2.5}});
  views["mobile4+x" + kMinus + "mobile4"]["quads"] = grid(3, 2, {});

  const std::vector<PackedCapture> packed = pack_heat_maps(h);
  ASSERT_EQ(packed.size(), 1u);
  const PackedCapture& p = packed[0];
  EXPECT_EQ(p.capture, "out/a.tcap");
  EXPECT_EQ(p.width, 3u);
  EXPECT_EQ(p.height, 2u);
  EXPECT_EQ(p.metrics, (std::vector<std::string>{"cycles", "quads", "core.0.busy_cycles", "core.1.busy_cycles"}));
  ASSERT_EQ(p.views.size(), 4u);  // the configurations by name, then the difference
  EXPECT_EQ(p.views[0].name, "mobile1");
  EXPECT_EQ(p.views[1].name, "mobile4");
  EXPECT_EQ(p.views[2].name, "mobile4+x");
  EXPECT_EQ(p.views[3].name, "mobile4+x" + kMinus + "mobile4");
  EXPECT_FALSE(p.views[2].diff);
  EXPECT_TRUE(p.views[3].diff);
  ASSERT_GE(p.deflated.size(), 2u);
  EXPECT_EQ(static_cast<uint8_t>(p.deflated[0]) & 0x0f, 8);  // a zlib stream (deflate), as the page reads it

  const std::string levels = inflate(p);
  // Stored once: mobile4's cycles (shared with mobile4+x and, at another range, mobile1's), its
  // quads (a constant, shared with the difference's all-zero quads), core.0 and core.1 of
  // mobile4, and the difference's cycles.
  EXPECT_EQ(p.levels_bytes, 5u * 6);

  // mobile4's cycles over [0, 40] (the missing tile is 0).
  const PackedGrid& c4 = view(p, "mobile4").grids.at("cycles");
  EXPECT_EQ(c4.lo, 0);
  EXPECT_EQ(c4.hi, 40);
  EXPECT_EQ(level(p, levels, "mobile4", "cycles", 0, 0), 64);   // 10 / 40 * 255 = 63.75
  EXPECT_EQ(level(p, levels, "mobile4", "cycles", 1, 0), 128);  // 20: 127.5
  EXPECT_EQ(level(p, levels, "mobile4", "cycles", 2, 0), 255);  // 40, the top
  EXPECT_EQ(level(p, levels, "mobile4", "cycles", 0, 1), 191);  // 30: 191.25
  EXPECT_EQ(level(p, levels, "mobile4", "cycles", 2, 1), 0);    // no row: 0
  // Identical grids share their offset; the same levels over another range share the bytes.
  EXPECT_EQ(view(p, "mobile4+x").grids.at("cycles").offset, c4.offset);
  EXPECT_EQ(view(p, "mobile4+x").grids.at("cycles").hi, 40);
  const PackedGrid& c1 = view(p, "mobile1").grids.at("cycles");
  EXPECT_EQ(c1.offset, c4.offset);
  EXPECT_EQ(c1.lo, 0);
  EXPECT_EQ(c1.hi, 80);
  // A constant grid: one level, lo == hi.
  const PackedGrid& q4 = view(p, "mobile4").grids.at("quads");
  EXPECT_EQ(q4.lo, 5);
  EXPECT_EQ(q4.hi, 5);
  for (uint32_t y = 0; y < 2; ++y)
    for (uint32_t x = 0; x < 3; ++x) EXPECT_EQ(level(p, levels, "mobile4", "quads", x, y), 0);
  // core.0 over [0, 30]: tile (0, 1) is the top level.
  EXPECT_EQ(level(p, levels, "mobile4", "core.0.busy_cycles", 0, 1), 255);
  EXPECT_EQ(level(p, levels, "mobile4", "core.0.busy_cycles", 0, 0), 85);  // 10 / 30 * 255
  EXPECT_NE(view(p, "mobile4").grids.at("core.0.busy_cycles").offset,
            view(p, "mobile4").grids.at("core.1.busy_cycles").offset);
  // The difference over [-10, 10], symmetric about 0 as its colour scale.
  const std::string diff = "mobile4+x" + kMinus + "mobile4";
  const PackedGrid& d = view(p, diff).grids.at("cycles");
  EXPECT_EQ(d.lo, -10);
  EXPECT_EQ(d.hi, 10);
  EXPECT_EQ(level(p, levels, diff, "cycles", 0, 0), 64);   // -5: 5 / 20 * 254 = 63.5
  EXPECT_EQ(level(p, levels, diff, "cycles", 1, 0), 254);  // 10: the top of 254 steps
  EXPECT_EQ(level(p, levels, diff, "cycles", 2, 0), 159);  // 2.5: 158.75
  EXPECT_EQ(level(p, levels, diff, "cycles", 0, 1), 127);  // 0, exactly the middle level
  const PackedGrid& dq = view(p, diff).grids.at("quads");  // no change: all zero
  EXPECT_EQ(dq.lo, 0);
  EXPECT_EQ(dq.hi, 0);
  EXPECT_EQ(dq.offset, q4.offset);
  // A metric the view does not measure is absent, not an empty grid.
  EXPECT_EQ(view(p, "mobile1").grids.count("core.1.busy_cycles"), 0u);
  EXPECT_EQ(view(p, diff).grids.count("core.0.busy_cycles"), 0u);
  EXPECT_EQ(view(p, "mobile4").grids.size(), 4u);
  // Metric by metric in the buffer: every cycles grid before every quads grid.
  EXPECT_LT(d.offset, q4.offset);
  EXPECT_LT(c4.offset, d.offset);
}

TEST(HeatMaps, CapturesArePackedEachInItsOwnBuffer) {
  HeatMaps h;
  h.captures["a.tcap"]["mobile4"]["cycles"] = grid(2, 1, {{{0, 0}, 1}, {{1, 0}, 3}});
  h.captures["b.tcap"]["mobile4"]["cycles"] = grid(4, 3, {{{3, 2}, 7}});
  const std::vector<PackedCapture> packed = pack_heat_maps(h);
  ASSERT_EQ(packed.size(), 2u);
  EXPECT_EQ(packed[0].width * packed[0].height, 2u);
  EXPECT_EQ(packed[1].width * packed[1].height, 12u);
  const std::string b = inflate(packed[1]);
  ASSERT_EQ(b.size(), 12u);
  EXPECT_EQ(static_cast<uint8_t>(b[11]), 255);
  EXPECT_EQ(static_cast<uint8_t>(b[0]), 0);
  EXPECT_TRUE(pack_heat_maps(HeatMaps{}).empty());
}

}  // namespace
}  // namespace tessera::report
