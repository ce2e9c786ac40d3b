// TCOR wired into the timing model (paper 003): constructed access streams whose binning is
// known -- primitives overlapping several tiles, as the Polygon List Builder and the Tile Fetcher
// of the renderer record them -- run through the unified tile cache (the baseline and the
// sensitivity study's policies) and through TCOR's split Tile Cache.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "frame.h"
#include "tessera/model/configuration.h"
#include "tessera/model/gpu_model.h"
#include "tessera/stream/access_stream.h"

namespace tessera::model::tcor {
namespace {

constexpr uint64_t kLists = 0x4000'0000, kAttributes = 0x5000'0000, kFrame = 0x6000'0000;

// What the stream holds, counted while writing it.
struct StreamCounts {
  uint64_t pmd_writes = 0, attribute_line_writes = 0, list_line_reads = 0, attribute_line_reads = 0;
  uint64_t primitives = 0, primitive_reads = 0;
};

// One pass in the renderer's layout (pipeline/binning.h, Figs. 3 and 4): per primitive its PMD
// in every list it joins (4 B each, 1024 per list), then its attributes (48 B, one line each);
// per tile in scanline order, each list line followed by the attributes of the primitives it
// names; one quad per primitive.
void write_pass(stream::StreamWriter& w, uint32_t pass, const test::Frame& f, StreamCounts& c) {
  const uint32_t width = f.tiles_x * 32, height = f.tiles_y * 32;
  w.pass_begin(pass, width, height, 32, 32, f.tiles_x, f.tiles_y);
  w.draw(0);
  std::vector<std::vector<uint32_t>> lists(f.tiles());
  std::vector<uint64_t> first_line(f.tiles_of.size());
  uint64_t next_line = 0;
  for (uint32_t p = 0; p < f.tiles_of.size(); ++p) {
    for (uint32_t t : f.tiles_of[p]) {
      w.pb_write(kLists + uint64_t{t} * 4096 + lists[t].size() * 4, 4, p, t, 0);
      lists[t].push_back(p);
      ++c.pmd_writes;
    }
    first_line[p] = next_line;
    for (uint32_t a = 0; a < f.attributes[p]; ++a) {
      w.pb_write(kAttributes + (next_line + a) * 64, 48, p, f.tiles_of[p].front(), 1);
      ++c.attribute_line_writes;
    }
    next_line += f.attributes[p];
    ++c.primitives;
  }
  for (uint32_t t = 0; t < f.tiles(); ++t) {
    const uint32_t tx = t % f.tiles_x, ty = t / f.tiles_x;
    w.tile_begin(t, tx * 32, ty * 32, t);
    for (uint32_t first = 0; first < lists[t].size(); first += 16) {
      w.pb_read(kLists + uint64_t{t} * 4096 + first * 4, 64, 0, 0xffffffffu);
      ++c.list_line_reads;
      for (uint32_t i = first; i < std::min<size_t>(first + 16, lists[t].size()); ++i) {
        const uint32_t p = lists[t][i];
        for (uint32_t a = 0; a < f.attributes[p]; ++a) {
          w.pb_read(kAttributes + (first_line[p] + a) * 64, 48, 1, p);
          ++c.attribute_line_reads;
        }
        ++c.primitive_reads;
      }
    }
    for (uint32_t i = 0; i < lists[t].size(); ++i) {
      w.primitive(lists[t][i], 0);
      w.quad(tx * 32 + (i % 16) * 2, ty * 32 + (i / 16 % 16) * 2, 0xf, 0xf, 0xf, stream::kQuadShaded, 8);
    }
    w.attachment_store(kFrame + uint64_t{t} * 4096, 64, 0);
    w.tile_end(t);
  }
  w.pass_end(pass);
}

// A frame of one pass per element of `passes`.
std::vector<uint8_t> build_passes(const std::vector<test::Frame>& passes, StreamCounts* counts = nullptr) {
  StreamCounts c;
  stream::StreamWriter w;
  w.frame_begin(1, passes.front().tiles_x * 32, passes.front().tiles_y * 32);
  for (uint32_t p = 0; p < passes.size(); ++p) write_pass(w, p, passes[p], c);
  w.frame_end();
  if (counts) *counts = c;
  return w.finish();
}

std::vector<uint8_t> build(const test::Frame& f, StreamCounts* counts = nullptr) { return build_passes({f}, counts); }

// A frame of 16 x 8 tiles: two background primitives over everything and `count` small meshes'
// primitives of 1..3 x 1..3 tiles with 1..4 attributes (frame.h).
test::Frame small_frame(uint32_t count) {
  test::Frame f = test::constructed_frame(count);
  test::Frame g;
  g.tiles_x = 16;
  g.tiles_y = 8;
  for (size_t p = 0; p < f.tiles_of.size(); ++p) {
    std::vector<uint32_t> tiles;
    for (uint32_t t : f.tiles_of[p]) {
      const uint32_t x = t % f.tiles_x, y = t / f.tiles_x;
      if (x < g.tiles_x && y < g.tiles_y) tiles.push_back(y * g.tiles_x + x);
    }
    if (tiles.empty()) continue;
    g.tiles_of.push_back(tiles);
    g.attributes.push_back(f.attributes[p]);
  }
  return g;
}

struct Runs {
  std::vector<FrameResults> frames;
  double operator()(const char* metric, size_t frame = 0) const {
    const double v = frames.at(frame).metric(metric);
    EXPECT_FALSE(std::isnan(v)) << "metric " << metric << " missing";
    return v;
  }
};

Runs run(const std::vector<uint8_t>& bytes, const std::string& spec, int frames = 1) {
  const Configuration c = parse_configuration(spec);
  const std::unique_ptr<GpuModel> model = c.make_model();
  Runs r;
  for (int i = 0; i < frames; ++i) {
    std::string error;
    FrameResults fr;
    EXPECT_TRUE(model->run(bytes, fr, &error)) << spec << ": " << error;
    r.frames.push_back(std::move(fr));
  }
  return r;
}

// Scanline order (the stream's) and the preset's caches shrunk so the frame does not fit.
const std::string kBase = "mobile4-64k+gpu.tile_order=scanline+tile.size=4KiB+l2.size=32KiB";

TEST(TcorTiming, CountsReconcileWithTheStream) {
  StreamCounts s;
  const auto bytes = build(small_frame(600), &s);
  // Also the fully associative Attribute Cache and the LRU one of Figs. 1 and 11-12.
  for (const char* variant : {"+tcor", "+tcor-no-l2", "+tcor+tile.ways=0", "+tcor+tcor.policy=lru",
                              "+tcor+tile.ways=0+tcor.policy=lru"}) {
    SCOPED_TRACE(variant);
    const Runs r = run(bytes, kBase + "+tcor.plc_size=1KiB" + variant, 2);
    for (size_t f = 0; f < 2; ++f) {
      // One access per PMD, per list line, per primitive written and per primitive read.
      EXPECT_EQ(r("tile.plc.accesses", f), static_cast<double>(s.pmd_writes + s.list_line_reads));
      EXPECT_EQ(r("tile.attr.writes", f), static_cast<double>(s.primitives));
      EXPECT_EQ(r("tile.attr.reads", f), static_cast<double>(s.primitive_reads));
      EXPECT_EQ(r("tile.accesses", f), static_cast<double>(s.pmd_writes + s.list_line_reads + s.primitives + s.primitive_reads));
      EXPECT_EQ(r("tile.hits", f) + r("tile.misses", f), r("tile.accesses", f));
      // What the split cache sent below is what the L2 saw from it.
      EXPECT_EQ(r("pb.l2_accesses", f), r("tcor.l2_reads", f) + r("tcor.l2_writes", f));
      EXPECT_EQ(r("tcor.l2_reads", f), r("tile.plc.fetches", f) + r("tile.attr.fetches", f));
      // Every list line's first PMD begins it without a fetch (each subpass drops the previous
      // one's lines, so it always misses); every other Primitive List Cache miss fetches.
      EXPECT_EQ(r("tile.plc.fetches", f), r("tile.plc.misses", f) - static_cast<double>(s.list_line_reads));
      EXPECT_EQ(r("tcor.l2_writes", f), r("tile.plc.writebacks", f) + r("tile.attr.writebacks", f) + r("tile.write_throughs", f));
      EXPECT_EQ(r("l2.accesses", f), r("l2.texture_accesses", f) + r("l2.vertex_accesses", f) + r("pb.l2_accesses", f));
      // The Tile Fetcher queued every primitive of every tile.
      EXPECT_EQ(r("tile_fetcher.primitives", f), static_cast<double>(s.primitive_reads));
      // Section V-A: no replacement policy does better than the lower bound.
      EXPECT_GE(r("tile.attr.misses", f), r("tcor.lower_bound", f));
      EXPECT_GT(r("tile.attr.hits", f), 0);
      // Only OPT knows a written primitive is read after every resident one (III-C4).
      if (std::string(variant).find("lru") != std::string::npos) EXPECT_EQ(r("tile.attr.write_bypasses", f), 0);
      else EXPECT_GT(r("tile.attr.write_bypasses", f), 0);
    }
  }
  // The baseline's unified tile cache: one access per line of the stream.
  const Runs b = run(bytes, kBase);
  EXPECT_EQ(b("tile.accesses"),
            static_cast<double>(s.pmd_writes + s.attribute_line_writes + s.list_line_reads + s.attribute_line_reads));
  EXPECT_EQ(b("pb.l2_accesses"), b("tile.fetches") + b("tile.writebacks") + b("tile.write_throughs"));
  // A cold frame: the first write of every line misses -- each attribute line and each list
  // line's first PMD begin their line without a fetch -- and every other miss fetches (a read,
  // or a PMD appended to a list line evicted since its first).
  EXPECT_EQ(b("tile.fetches"),
            b("tile.misses") - static_cast<double>(s.attribute_line_writes + s.list_line_reads));
  EXPECT_GT(b("tile.read_misses"), 0);  // the 1 KiB cache cannot hold the frame's lines
  EXPECT_EQ(b("tile.write_misses") + b("tile.read_misses"), b("tile.misses"));
}

// Belady's OPT with the OPT Numbers of section III-A never misses more than LRU on the same
// cache, and neither goes below the section V-A lower bound.
TEST(TcorTiming, OptNeverAboveLruOnTheUnifiedTileCache) {
  const auto bytes = build(small_frame(800));
  int opt_better = 0;
  for (const char* size : {"2KiB", "8KiB", "32KiB", "128KiB"}) {
    for (const char* ways : {"2", "4", "0"}) {
      const std::string spec = kBase + "+tile.size=" + size + "+tile.ways=" + ways;
      SCOPED_TRACE(spec);
      const Runs lru = run(bytes, spec, 2);
      const Runs opt = run(bytes, spec + "+tile.policy=opt", 2);
      for (size_t f = 0; f < 2; ++f) {
        EXPECT_LE(opt("tile.misses", f), lru("tile.misses", f)) << "frame " << f;
        EXPECT_GE(opt("tile.misses", f), opt("tile.lower_bound_lines", f)) << "frame " << f;
        EXPECT_GE(lru("tile.misses", f), lru("tile.lower_bound_lines", f)) << "frame " << f;
        EXPECT_EQ(opt("tile.accesses", f), lru("tile.accesses", f));
        opt_better += opt("tile.misses", f) < lru("tile.misses", f);
      }
    }
  }
  EXPECT_GT(opt_better, 8);
}

// Section III-D2: with the dead-line L2, dirty Parameter Buffer lines whose last tile is done
// are dropped instead of written back; without it they reach main memory.
TEST(TcorTiming, DeadDirtyLinesAreDroppedByTheL2) {
  const auto bytes = build(small_frame(1500));
  const std::string small_l2 = kBase + "+tcor.plc_size=1KiB+l2.size=8KiB";
  const Runs with = run(bytes, small_l2 + "+tcor", 2);
  const Runs without = run(bytes, small_l2 + "+tcor-no-l2", 2);
  for (size_t f = 0; f < 2; ++f) {
    EXPECT_GT(with("l2.dead_drops", f), 0) << "frame " << f;
    EXPECT_EQ(without("l2.dead_drops", f), 0) << "frame " << f;
    EXPECT_LT(with("pb.writebacks", f), without("pb.writebacks", f)) << "frame " << f;
    EXPECT_LT(with("pb.dram_accesses", f), without("pb.dram_accesses", f)) << "frame " << f;
    // The split cache sees the same requests in both and its Primitive List Cache (LRU) does the
    // same; only the L2 policy differs. The Attribute Cache's choices depend on which fills are
    // still on their way (their lines are locked, III-C3), so the L2's latency moves its traffic
    // a little (2 lines of 2655 here).
    EXPECT_EQ(with("tile.plc.fetches", f), without("tile.plc.fetches", f)) << "frame " << f;
    EXPECT_EQ(with("tile.plc.writebacks", f), without("tile.plc.writebacks", f)) << "frame " << f;
    EXPECT_EQ(with("tile.attr.accesses", f), without("tile.attr.accesses", f)) << "frame " << f;
    EXPECT_NEAR(with("pb.l2_accesses", f), without("pb.l2_accesses", f), 0.01 * without("pb.l2_accesses", f))
        << "frame " << f;
    EXPECT_EQ(with("dram.accesses", f),
              with("l2.fetches", f) + with("l2.writebacks", f) + with("l2.write_throughs", f) +
                  with("dram.color_flushes", f) + with("dram.attachment_loads", f));
  }
}

// Section III-C5: a primitive in the Tile Fetcher's queue is locked. With an Attribute Cache of
// four lines and tiles of dozens of primitives, reads find every candidate locked and wait for the
// Rasterizer; a locked primitive is never evicted (the Rasterizer's read of an evicted one would
// fail the run), and every primitive still reaches the Rasterizer.
TEST(TcorTiming, LockedPrimitivesAreNeverEvicted) {
  StreamCounts s;
  const auto bytes = build(small_frame(1500), &s);
  for (const char* queue : {"16", "100000"}) {
    SCOPED_TRACE(queue);
    const Runs r = run(bytes, kBase + "+tcor+tcor.plc_size=1KiB+tile.size=2KiB+queue.triangle=" + queue);
    EXPECT_GT(r("tile.attr.blocked"), 0);
    EXPECT_EQ(r("tile.attr.reads"), static_cast<double>(s.primitive_reads));
    EXPECT_EQ(r("tile_fetcher.primitives"), static_cast<double>(s.primitive_reads));
    EXPECT_EQ(r("quads"), static_cast<double>(s.primitive_reads));
  }
}

// Section III-B: the interleaved PB-Lists layout spreads the lists' lines over the Primitive List
// Cache's sets, where the baseline's 4 KiB-apart lists crowd into a few.
TEST(TcorTiming, InterleavedLayoutCutsPrimitiveListCacheMisses) {
  const auto bytes = build(small_frame(1500));
  const std::string spec = kBase + "+tcor+tcor.plc_size=2KiB";
  const Runs base = run(bytes, spec + "+tcor.pb_layout=baseline");
  const Runs inter = run(bytes, spec);
  EXPECT_LT(inter("tile.plc.misses"), base("tile.plc.misses"));
  // The layout moves PB-Lists lines only: the Attribute Cache sees the same accesses.
  EXPECT_EQ(inter("tile.attr.accesses"), base("tile.attr.accesses"));
}

// Figs. 23-24: with an unbounded output queue the Tile Fetcher of TCOR takes one request per
// primitive hit (the queue holds Attribute Buffer Pointers), the baseline's one per line.
TEST(TcorTiming, TileFetcherOutputsMorePrimitivesPerCycle) {
  const auto bytes = build(small_frame(800));
  const std::string spec = kBase + "+tile.size=64KiB+queue.triangle=100000";  // TCOR: 16 + 48 KiB
  const Runs base = run(bytes, spec);
  const Runs tcor = run(bytes, spec + "+tcor");
  EXPECT_GT(tcor("tile_fetcher.prims_per_cycle"), base("tile_fetcher.prims_per_cycle"));
  EXPECT_LE(tcor("tile_fetcher.prims_per_cycle"), 1.0);
  EXPECT_EQ(tcor("tile_fetcher.primitives"), base("tile_fetcher.primitives"));
}

// Section III-D: a subpass's Parameter Buffer is dead once the next one is binned. Two passes of
// 2 x 1 tiles, one primitive over both tiles (1 attribute): each pass writes one PMD at the start
// of each tile's list line (2 write misses, no fetch) and reads both lines (2 hits). At the
// second pass's binning the Primitive List Cache drops the first pass's 2 dirty lines; the
// second pass's PMD writes then miss on fresh lines rather than hit the dead ones (which would
// later be written back tagged with a tile of the second pass, live in the L2).
TEST(TcorTiming, EachSubpassDropsThePreviousListLines) {
  test::Frame two;
  two.tiles_x = 2;
  two.tiles_y = 1;
  two.tiles_of = {{0, 1}};
  two.attributes = {1};
  const auto bytes = build_passes({two, two});
  const Runs r = run(bytes, kBase + "+tcor+tcor.plc_size=1KiB", 2);
  // Frame 1: nothing to drop at the first pass; frame 2 also drops the second pass of frame 1.
  const double drops[] = {2, 4};
  for (size_t f = 0; f < 2; ++f) {
    SCOPED_TRACE(f);
    EXPECT_EQ(r("tile.plc.accesses", f), 8);
    EXPECT_EQ(r("tile.plc.misses", f), 4);
    EXPECT_EQ(r("tile.plc.hits", f), 4);
    EXPECT_EQ(r("tile.plc.fetches", f), 0);
    EXPECT_EQ(r("tile.plc.writebacks", f), 0);
    EXPECT_EQ(r("tile.plc.dead_drops", f), drops[f]);
    // The Attribute Cache drops the first pass's primitive as well (written, read twice: dirty).
    EXPECT_EQ(r("tile.attr.dead_drops", f), drops[f] / 2);
    EXPECT_EQ(r("tile.dead_drops", f), drops[f] * 3 / 2);
  }
}

// A tile whose list names primitives the Rasterizer sets up nothing for (no Primitive event: the
// tile ends at once) takes them from the Tile Fetcher's queue before their fills arrive. With a
// Primitive Buffer of one set of 4 ways (1 KiB Attribute Cache: 16 lines, 16 / 12 -> 1 set) and 9
// one-attribute primitives in tile 0's list: the Polygon List Builder's writes keep primitives
// 0-3 (4-8 bypass: equal OPT Numbers), the reads of 0-3 hit, of 4-7 miss and lock all 4 ways
// until their fills arrive, and the read of 8 is refused with the queue empty (the Rasterizer
// took everything). The fetcher retries when the first of those fills arrives, and the read of 8
// takes primitive 4's line.
TEST(TcorTiming, ARefusedReadWaitsForAFillWhenNothingIsQueued) {
  stream::StreamWriter w;
  w.frame_begin(1, 64, 32);
  w.pass_begin(0, 64, 32, 32, 32, 2, 1);
  w.draw(0);
  constexpr uint32_t kPrimitives = 9;
  for (uint32_t p = 0; p < kPrimitives; ++p) w.pb_write(kLists + p * 4, 4, p, 0, 0);
  for (uint32_t p = 0; p < kPrimitives; ++p) w.pb_write(kAttributes + p * 64, 48, p, 0, 1);
  w.tile_begin(0, 0, 0, 0);
  w.pb_read(kLists, 64, 0, 0xffffffffu);
  for (uint32_t p = 0; p < kPrimitives; ++p) w.pb_read(kAttributes + p * 64, 48, 1, p);
  w.attachment_store(kFrame, 64, 0);
  w.tile_end(0);
  w.tile_begin(1, 32, 0, 1);
  w.attachment_store(kFrame + 4096, 64, 0);
  w.tile_end(1);
  w.pass_end(0);
  w.frame_end();
  const auto bytes = w.finish();
  const Runs r = run(bytes, kBase + "+tcor+tcor.plc_size=1KiB+tile.size=2KiB", 2);
  for (size_t f = 0; f < 2; ++f) {
    SCOPED_TRACE(f);
    EXPECT_EQ(r("tile.attr.writes", f), kPrimitives);
    EXPECT_EQ(r("tile.attr.write_bypasses", f), 5);
    EXPECT_EQ(r("tile.attr.reads", f), kPrimitives);
    EXPECT_EQ(r("tile.attr.hits", f), 4);
    EXPECT_EQ(r("tile.attr.read_misses", f), 5);
    EXPECT_EQ(r("tile.attr.blocked", f), 1);  // once: primitive 4's fill arrives, its line is free
    EXPECT_EQ(r("tile_fetcher.primitives", f), kPrimitives);
    EXPECT_EQ(r("tcor.l2_reads", f), r("tile.plc.fetches", f) + r("tile.attr.fetches", f));
    EXPECT_EQ(r("tile.attr.fetches", f), 5);
    EXPECT_EQ(r("pb.l2_accesses", f), r("tcor.l2_reads", f) + r("tcor.l2_writes", f));
  }
}

// The split cache's own structures count in the memory hierarchy's energy, and its capacity's
// leakage is charged once (the unified tile cache's, for tile.size).
TEST(TcorTiming, EnergyOfTheSplitCache) {
  const auto bytes = build(small_frame(300));
  const Runs r = run(bytes, kBase + "+tcor+tcor.plc_size=1KiB");
  const double parts = r("energy.tcor_plc_nj") + r("energy.tcor_attribute_buffer_nj") + r("energy.tcor_primitive_buffer_nj");
  EXPECT_GT(parts, 0);
  const double memory = r("energy.l1tex_nj") + r("energy.vertex_nj") + r("energy.tile_nj") + r("energy.l2_nj") +
                        r("energy.dram_nj") + r("energy.interconnect_nj") + parts;
  EXPECT_NEAR(r("energy.memory_nj"), memory, 1e-6 * memory);
  // The unified tile cache sees no access: its energy is the leakage of tile.size = 4 KiB, at
  // energy.h's 0.05 mW per KiB (32 nm lop) over the frame's cycles at 600 MHz.
  EXPECT_NEAR(r("energy.tile_nj"), 0.05 * 4 * r("cycles") / 600.0, 1e-9 * r("energy.tile_nj"));
}

}  // namespace
}  // namespace tessera::model::tcor
