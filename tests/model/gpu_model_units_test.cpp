// The timing units on constructed streams: in-flight fills and MSHRs, the bounded queues,
// early-Z arrival, subpasses, warm caches across frames, main-memory capacity, whole-GPU energy.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "frame_builder.h"
#include "latency_path.h"
#include "tessera/model/gpu_model.h"
#include "tessera/model/replacement/dead_line/dead_line.h"
#include "tessera/model/hierarchy.h"
#include "tessera/stream/access_stream.h"

namespace tessera::model {
namespace {

using namespace testing;

MemRequest tex(uint16_t core, uint64_t addr) {
  MemRequest r;
  r.addr = addr;
  r.unit = core;
  return r;
}

TEST(InFlightFills, AHitUnderFillWaitsForTheFill) {
  const LatencyPath path(make_preset("mobile4"));
  const uint64_t fill = path.dram_miss();  // the line arrives at this cycle
  MemoryHierarchy h(HierarchyConfig::from_params(make_preset("mobile4")));
  const MemResponse miss = h.access(tex(0, 0x10000), 0);
  EXPECT_EQ(miss.latency, fill);
  // Ten cycles later the tag is there but the data is not: the access waits for the fill.
  const MemResponse under = h.access(tex(0, 0x10010), 10);
  EXPECT_EQ(under.served_by, ServedBy::L1);
  EXPECT_EQ(under.latency, fill - 10);
  // Once it has arrived, a hit costs the hit latency.
  EXPECT_EQ(h.access(tex(0, 0x10020), fill + 100).latency, path.l1);
  const CacheCounters& c = h.l1tex(0).counters();
  EXPECT_EQ(c.hits, 2u);
  EXPECT_EQ(c.misses, 1u);
  EXPECT_EQ(c.mshr_merges, 1u);
  EXPECT_EQ(c.fetches, 1u);  // one fill served both
  // The same at L2: core 1 misses in its L1 on the line core 0 is still fetching into L2; its
  // line comes back over the interconnect a flit after core 0's.
  MemoryHierarchy h2(HierarchyConfig::from_params(make_preset("mobile4")));
  h2.access(tex(0, 0x20000), 0);
  const MemResponse other = h2.access(tex(1, 0x20000), 5);
  EXPECT_EQ(other.served_by, ServedBy::L2);
  EXPECT_EQ(other.latency, fill + path.line_flits - 5);
  EXPECT_EQ(h2.l2().counters().mshr_merges, 1u);
  EXPECT_EQ(h2.dram().counters().reads, 1u);
}

TEST(InFlightFills, APrefetchedLineIsUsableAtItsFillTime) {
  const uint64_t fill = LatencyPath(make_preset("mobile4")).dram_miss();
  MemoryHierarchy h(HierarchyConfig::from_params(make_preset("mobile4")));
  EXPECT_EQ(h.prefetch_texture(0, 0x30000, 0), fill);
  EXPECT_EQ(h.access(tex(0, 0x30000), 40).latency, fill - 40);   // too early: waits for the fill
  EXPECT_EQ(h.access(tex(0, 0x30000), fill + 100).latency, 1u);  // in time: an L1 hit
  EXPECT_EQ(h.l1tex(0).counters().mshr_merges, 1u);
  EXPECT_EQ(h.l1tex(0).counters().misses, 0u);
}

TEST(InFlightFills, AFullMshrFileStallsTheMissAndItsRequester) {
  ParamSet p = make_preset("mobile4");
  p.set("l1tex.mshrs", "2");
  const LatencyPath path(p);
  const uint64_t fill = path.dram_miss();
  MemoryHierarchy h(HierarchyConfig::from_params(p));
  // Three misses to lines in three different DRAM pages, one per cycle: the first two take the
  // two MSHRs; the third waits for the first fill before it can go to L2.
  const MemResponse a = h.access(tex(0, 0x100000), 0);
  const MemResponse b = h.access(tex(0, 0x200000), 1);
  const MemResponse c = h.access(tex(0, 0x300000), 2);
  EXPECT_EQ(a.accept_delay, 0u);
  EXPECT_EQ(b.accept_delay, 0u);
  EXPECT_EQ(c.accept_delay, fill - 3);  // accepted when the first MSHR frees
  EXPECT_GE(c.latency, (fill - 2) + path.dram(path.row_hit) - path.l1);  // then the whole trip below
  EXPECT_EQ(h.l1tex(0).counters().mshr_stall_cycles, fill - 3);
  // Unbounded MSHRs (0): no wait.
  p.set("l1tex.mshrs", "0");
  MemoryHierarchy u(HierarchyConfig::from_params(p));
  u.access(tex(0, 0x100000), 0);
  u.access(tex(0, 0x200000), 1);
  EXPECT_EQ(u.access(tex(0, 0x300000), 2).accept_delay, 0u);
}

TEST(InFlightFills, QuadsSamplingALineInFlightWaitForIt) {
  FrameSpec f;
  f.quad = [](uint32_t, uint32_t qx, uint32_t qy) {
    QuadSpec q;
    q.present = qy == 0 && qx % 4 == 0;  // four quads, all on core 0 (FG-xshift2)
    q.instructions = 8;
    q.samples[0].push_back({0x2000'0000});
    return q;
  };
  const FrameResults r = runModel(buildFrame(f), mobile4());
  EXPECT_EQ(m(r, "l1tex.accesses"), 4);
  EXPECT_EQ(m(r, "l1tex.misses"), 1);
  EXPECT_EQ(m(r, "l1tex.mshr_merges"), 3);
  EXPECT_EQ(m(r, "l2.accesses"), 1);
  // All four quads finish after the fill arrives (1 + 12 + 24 + 100 cycles after the first
  // texture instruction, which issues at cycle 4): none could run its last segment earlier.
  EXPECT_GE(r.raster_cycles, 4u + 137 + 4);
}

// Early-Z takes a quad no sooner than the cycle it arrives in its queue. Two tiles, two cores,
// per-tile barriers, depthbuf.latency 0: tile 0 is one killed quad on core 0 (rasterized at 0,
// in early-Z at 1, gone at 1), which opens tile 1 for every core at cycle 1; tile 1's quad goes
// to core 1 and is rasterized at 1 (one quad per cycle), so it arrives at 2. Early-Z of core 1,
// woken at 1 by the barrier, must not take it before 2; it then shades (1 cycle, 2 -> 3) and
// blends at 3 (latency 1): the frame ends at 4.
TEST(EarlyZ, NeverTakesAQuadBeforeItArrives) {
  FrameSpec f;
  f.tiles_x = 2;
  f.quad = [](uint32_t seq, uint32_t qx, uint32_t qy) {
    QuadSpec q;
    q.present = qy == 0 && qx == seq;  // tile 0: quad (0,0) -> core 0; tile 1: quad (1,0) -> core 1
    q.shaded = seq == 1;
    q.instructions = 4;
    return q;
  };
  const ParamSet p = mobile4({"gpu.shader_cores=2", "gpu.tile_order=scanline", "depthbuf.latency=0",
                              "colorbuf.latency=1", "raster.quads_per_cycle=1"});
  const FrameResults r = runModel(buildFrame(f), p);
  EXPECT_EQ(r.cores[1].quads, 1u);
  EXPECT_EQ(m(r, "stage.earlyz.queue_wait_cycles"), 0);
  EXPECT_EQ(r.raster_cycles, 4u);
}

// A pass with two subpasses: each repeats its geometry and its tiles inside one PassBegin /
// PassEnd. Every count reconciles with the stream, and the second subpass runs after the first.
TEST(Subpasses, TwoSubpassesRunOneAfterTheOtherAndReconcile) {
  FrameSpec f = mixedFrame();
  f.attribute_lines = 2;
  f.primitives_per_tile = 3;
  FrameSpec two = f;
  two.subpasses = 2;
  const auto one_bytes = buildFrame(f), two_bytes = buildFrame(two);
  const stream::StreamCounts c = recount(two_bytes);
  const FrameResults r1 = runModel(one_bytes, smallCaches());
  const FrameResults r2 = runModel(two_bytes, smallCaches());
  EXPECT_EQ(m(r2, "passes"), 1);
  EXPECT_EQ(m(r2, "draws"), static_cast<double>(c[stream::EventKind::Draw]));
  EXPECT_EQ(m(r2, "draws"), 2 * m(r1, "draws"));
  EXPECT_EQ(m(r2, "tiles"), static_cast<double>(c[stream::EventKind::TileBegin]));
  EXPECT_EQ(m(r2, "tiles"), 2 * 6);
  EXPECT_EQ(m(r2, "quads"), static_cast<double>(c[stream::EventKind::Quad]));
  EXPECT_EQ(m(r2, "l1tex.accesses"), static_cast<double>(c.texture_lines));
  // Every Parameter Buffer access is line-aligned: one tile-cache access per 64 B.
  EXPECT_EQ(m(r2, "tile.accesses"), static_cast<double>(c.pb_write_bytes + c.pb_read_bytes) / 64);
  EXPECT_EQ(m(r2, "vertex.accesses"), static_cast<double>(c[stream::EventKind::VertexFetch]));
  EXPECT_EQ(m(r2, "cycles"), m(r2, "cycles.geometry") + m(r2, "cycles.raster"));
  EXPECT_GT(m(r2, "cycles.geometry"), m(r1, "cycles.geometry"));
  EXPECT_GT(m(r2, "cycles.raster"), m(r1, "cycles.raster"));
  expectEveryCacheCountsItsRequests(r2, c);
  EXPECT_EQ(m(r2, "dram.accesses"), m(r2, "dram.l2_fetches") + m(r2, "dram.l2_writes") + m(r2, "dram.color_flushes") +
                                        m(r2, "dram.attachment_loads"));
}

TEST(VertexCaches, FetchesAndWriteThroughsAreSummedOverTheVertexCaches) {
  FrameSpec f = mixedFrame();
  ParamSet p = smallCaches();
  p.set("gpu.vertex_processors", "2");
  f.batches_per_draw = 4;
  const FrameResults r = runModel(buildFrame(f), p);
  // Read-only vertex caches: every miss fetches one line, which is one L2 vertex access.
  EXPECT_GT(m(r, "vertex.misses"), 0);
  EXPECT_EQ(m(r, "vertex.fetches"), m(r, "vertex.misses"));
  EXPECT_EQ(m(r, "vertex.fetches"), m(r, "l2.vertex_accesses"));
  EXPECT_EQ(m(r, "vertex.write_throughs"), 0);
}

// Vertex shader texture samples (VertexTexture events) are read through the vertex cache of the
// processor shading the batch, before it shades: every line is one more vertex-cache access, and
// distinct lines each miss, so the geometry phase takes longer.
TEST(VertexCaches, VertexTextureSamplesAreReadThroughTheVertexCacheBeforeShading) {
  FrameSpec f;
  f.draws = 2;
  f.vertices_per_draw = 64;
  f.batches_per_draw = 2;
  f.vertex_instructions = 32 * 4;
  f.quad = heavy(4);
  const FrameResults without = runModel(buildFrame(f), mobile4({}));
  f.vertex_texture_lines = 5;
  const FrameResults with = runModel(buildFrame(f), mobile4({}));
  EXPECT_EQ(m(with, "vertex.texture_samples"), 4);
  EXPECT_EQ(m(with, "vertex.texture_lines"), 20);
  EXPECT_EQ(m(without, "vertex.texture_lines"), 0);
  EXPECT_EQ(m(with, "vertex.accesses"), m(without, "vertex.accesses") + 20);
  EXPECT_EQ(m(with, "vertex.misses"), m(without, "vertex.misses") + 20);
  EXPECT_EQ(m(with, "texture.probes"), m(without, "texture.probes") + 4);
  EXPECT_EQ(m(with, "texture.lines"), m(without, "texture.lines"));  // fragment samples only
  EXPECT_GT(with.geometry_cycles, without.geometry_cycles);
}

// The triangle queue bounds how far the tile fetcher runs ahead of the rasterizer: with room for
// one primitive it fetches the next primitive's attributes only once the rasterizer took the
// previous one, and stalls meanwhile.
TEST(Queues, TheTriangleQueueBoundsTheTileFetcher) {
  // 64 primitives of 4 one-cycle quads per tile, whose attributes (2 lines each) miss the small
  // tile cache: fetching a primitive takes longer than rasterizing one.
  FrameSpec f;
  f.tiles_x = 4;
  f.primitives_per_tile = 64;
  f.attribute_lines = 2;
  f.quad = heavy(4);
  const auto bytes = buildFrame(f);
  const FrameResults deep = runModel(bytes, mobile4({"queue.triangle=16", "tile.size=1KiB"}));
  const FrameResults one = runModel(bytes, mobile4({"queue.triangle=1", "tile.size=1KiB"}));
  EXPECT_EQ(m(one, "tile.accesses"), m(deep, "tile.accesses"));
  EXPECT_GT(m(one, "stage.tile_fetch.stall_cycles"), m(deep, "stage.tile_fetch.stall_cycles"));
  EXPECT_GT(m(one, "stage.raster.stall_cycles"), m(deep, "stage.raster.stall_cycles"));
  EXPECT_GT(one.raster_cycles, deep.raster_cycles);
}

// The vertex queue lets the fetcher work ahead of the vertex processors: with room for one
// batch, the next batch's fetch waits until a processor takes the previous one.
TEST(Queues, TheVertexQueueBoundsTheVertexFetcher) {
  FrameSpec f;
  f.draws = 2;
  f.vertices_per_draw = 256;
  f.batches_per_draw = 8;  // 32 vertices per batch
  f.vertex_instructions = 32 * 20;
  f.quad = heavy(4);
  const auto bytes = buildFrame(f);
  const FrameResults deep = runModel(bytes, mobile4({"queue.vertex=256"}));
  const FrameResults one = runModel(bytes, mobile4({"queue.vertex=32"}));
  EXPECT_EQ(m(one, "vertex.accesses"), m(deep, "vertex.accesses"));
  EXPECT_GT(one.geometry_cycles, deep.geometry_cycles);
}

// The colour queue: a core whose finished quads cannot enter it (blending waits for the previous
// tile's long flush) keeps them in its thread slots and stops admitting new ones.
TEST(Queues, AFullColourQueueHoldsQuadsInTheCore) {
  FrameSpec f;
  f.tiles_x = 3;
  f.store_lines = 256;  // a long colour flush per tile
  f.quad = heavy(8);
  const auto bytes = buildFrame(f);
  const FrameResults deep = runModel(bytes, classic({"queue.color=64", "gpu.flush_buffer=0"}));
  const FrameResults one = runModel(bytes, classic({"queue.color=1", "gpu.flush_buffer=0"}));
  EXPECT_EQ(m(one, "blend.quads"), m(deep, "blend.quads"));
  // The cores sit blocked with finished quads instead of at the next tile's barrier.
  EXPECT_GT(m(one, "core.cycles.blocked"), m(deep, "core.cycles.blocked"));
  EXPECT_GE(one.raster_cycles, deep.raster_cycles);
}

// Frames of one run keep the caches warm; sim.cold_caches starts each one cold.
TEST(WarmCaches, TheSecondFrameOfARunFindsTheFirstFramesLines) {
  const auto bytes = buildFrame(mixedFrame());
  GpuModel model(mobile4());
  std::string error;
  const FrameResults first = model.run(bytes, &error);
  const FrameResults second = model.run(bytes, &error);
  ASSERT_TRUE(error.empty()) << error;
  EXPECT_EQ(m(first, "sim.warm"), 0);
  EXPECT_EQ(m(second, "sim.warm"), 1);
  EXPECT_EQ(m(second, "l1tex.accesses"), m(first, "l1tex.accesses"));
  EXPECT_LT(m(second, "l2.misses"), m(first, "l2.misses"));
  EXPECT_LT(m(second, "dram.l2_fetches"), m(first, "dram.l2_fetches"));
  ParamSet cold = mobile4();
  cold.set("sim.cold_caches", "true");
  GpuModel cold_model(cold);
  cold_model.run(bytes, &error);
  const FrameResults again = cold_model.run(bytes, &error);
  EXPECT_EQ(m(again, "sim.warm"), 0);
  EXPECT_EQ(m(again, "l2.misses"), m(first, "l2.misses"));
}

TEST(MainMemory, ARunTouchingMorePagesThanDramSizeIsRefused) {
  FrameSpec f;
  f.quad = [](uint32_t, uint32_t qx, uint32_t qy) {
    QuadSpec q;
    // Two lines in two pages of their own per quad: 512 distinct pages.
    const uint64_t page = 0x2000'0000 + uint64_t{qy * 16 + qx} * 8192;
    q.samples[0].push_back({page, page + 4096});
    return q;
  };
  const auto bytes = buildFrame(f);
  GpuModel small(mobile4({"dram.size=1MiB"}));  // 256 pages of 4 KiB
  std::string error;
  FrameResults r;
  EXPECT_FALSE(small.run(bytes, r, &error));
  EXPECT_NE(error.find("dram.size"), std::string::npos) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos);
  const FrameResults ok = runModel(bytes, mobile4({"dram.size=2MiB"}));
  EXPECT_EQ(m(ok, "dram.pages"), 512);
}

TEST(TileSize, AStreamShadedWithOtherTilesIsRefused) {
  GpuModel model(mobile4({"gpu.tile_width=16", "gpu.tile_height=16"}));
  std::string error;
  FrameResults r;
  EXPECT_FALSE(model.run(buildFrame(mixedFrame()), r, &error));
  EXPECT_NE(error.find("32x32"), std::string::npos) << error;
  EXPECT_NE(error.find("16x16"), std::string::npos) << error;
}

// Whole-GPU energy: the memory hierarchy and the rest add up, every structure is accounted for,
// and core activity is charged from the stream's counts.
TEST(Energy, WholeGpuEnergyAddsUpAndChargesTheCores) {
  const auto bytes = buildFrame(mixedFrame());
  const stream::StreamCounts c = recount(bytes);
  const FrameResults r = runModel(bytes, smallCaches());
  EXPECT_GT(m(r, "energy.memory_nj"), 0);
  EXPECT_GT(m(r, "energy.core_nj"), 0);
  EXPECT_LT(m(r, "energy.memory_nj"), m(r, "energy.total_nj"));
  EXPECT_NEAR(m(r, "energy.memory_nj") + m(r, "energy.core_nj"), m(r, "energy.total_nj"), 1e-9 * m(r, "energy.total_nj"));
  EXPECT_NEAR(m(r, "energy.dynamic_nj") + m(r, "energy.static_nj"), m(r, "energy.total_nj"), 1e-9 * m(r, "energy.total_nj"));
  double memory = 0, sum = 0;
  for (const StructureEnergy& s : r.energy.structures) {
    sum += s.total_nj();
    if (s.memory) memory += s.total_nj();
  }
  EXPECT_NEAR(sum, m(r, "energy.total_nj"), 1e-9 * sum);
  EXPECT_NEAR(memory, m(r, "energy.memory_nj"), 1e-9 * sum);
  // The shader's dynamic energy (core.cost=classes): per lane of each warp one multiply-add per
  // ALU operation, core.sfu_ops per transcendental, two per varying component, plus an
  // instruction-buffer read per issue cycle; the operations are those of the stream's shaded quads.
  const StructureEnergy* shader = r.energy.find("shader");
  ASSERT_NE(shader, nullptr);
  const EnergyParams ep = EnergyParams::from_params(smallCaches());
  EXPECT_EQ(m(r, "core.alu_ops"), static_cast<double>(shaded_mix(bytes).alu));
  EXPECT_GT(m(r, "core.alu_ops"), 0);
  EXPECT_NEAR(shader->dynamic_nj,
              (4 * (m(r, "core.alu_ops") + m(r, "core.sfu_ops") * ep.sfu_ops + 2 * m(r, "core.varying_components")) *
                   fma_pj(ep.tech) +
               m(r, "core.memory_ops") * small_ram(ep.tech, 1024).read_pj +
               m(r, "core.issue_cycles") * small_ram(ep.tech, 1024).read_pj) * 1e-3,
              1e-9);
  EXPECT_LE(m(r, "core.lane_instructions"), static_cast<double>(c.fragment_instructions));
  // core.cost=instructions charges one multiply-add per lane instruction instead.
  ParamSet by_instructions = smallCaches();
  by_instructions.set("core.cost", "instructions");
  const FrameResults ri = runModel(bytes, by_instructions);
  EXPECT_NEAR(ri.energy.find("shader")->dynamic_nj,
              (m(ri, "core.lane_instructions") * fma_pj(ep.tech) +
               m(ri, "core.issue_cycles") * small_ram(ep.tech, 1024).read_pj) * 1e-3,
              1e-9);
  EXPECT_EQ(m(r, "raster.quads"), static_cast<double>(c[stream::EventKind::Quad]));
  EXPECT_EQ(m(r, "vertex_shader.lane_instructions"), static_cast<double>(c.vertex_instructions));
  // More resident quads make a bigger register file: more energy per access and more leakage.
  ParamSet big = smallCaches();
  big.set("core.max_quads", "64");
  const FrameResults b = runModel(bytes, big);
  EXPECT_GT(b.energy.find("regfile")->total_nj() / m(b, "core.issue_cycles"),
            r.energy.find("regfile")->total_nj() / m(r, "core.issue_cycles"));
}

// One colour buffer per raster pipeline (paper 001 section II-A): the next tile's colour loads
// enter it once this tile's lines have left. Early-Z runs through empty tiles at once; were their
// loads issued then, every load of the pass would queue at the start and a read would wait behind
// all of them, so its latency would grow with the number of tiles.
TEST(TileBuffer, TheNextTilesColourLoadsWaitForThisTilesFlush) {
  const auto run = [](uint32_t tiles_x, const char* buffer) {
    FrameSpec f;
    f.tiles_x = tiles_x;
    f.load_lines = 16;
    f.store_lines = 16;
    f.quad = [](uint32_t, uint32_t, uint32_t) {
      QuadSpec q;
      q.present = false;
      return q;
    };
    ParamSet p = mobile4();
    p.set("gpu.flush_buffer", buffer);
    return runModel(buildFrame(f), p);
  };
  const LatencyPath path(mobile4());
  for (const char* buffer : {"0", "64"}) {
    const FrameResults one = run(1, buffer), many = run(64, buffer);
    EXPECT_EQ(m(many, "dram.attachment_loads"), 64 * 16);
    EXPECT_EQ(m(many, "dram.color_flushes"), 64 * 16);
    // A read waits for its own tile's loads (as in a one-tile pass) and at most the previous
    // tile's 16 writes (the turnaround gap included: under two transfers).
    EXPECT_LT(m(many, "dram.read_latency_avg"), m(one, "dram.read_latency_avg") + 18 * path.dram_transfer) << buffer;
  }
  // Without a write buffer each tile's flush waits for its loads and the next tile's loads for
  // the flush's writes: per tile 8 reads then 8 writes on each channel, each side paying at least
  // a row hit's latency. Loads issued at the flush's start, or a flush not waiting for its loads,
  // would overlap them.
  const FrameResults serial = run(64, "0");
  EXPECT_GE(m(serial, "cycles.raster"), 64 * (16 * path.dram_transfer + 2 * path.row_hit));
  // A buffer of 4 lines: the flush waits for free entries as Flush events, metered as its stall.
  const FrameResults small = run(64, "4");
  EXPECT_GT(m(small, "sim.events.flush"), 0);
  EXPECT_GT(m(small, "stage.flush.stall_cycles"), 0);
  EXPECT_EQ(m(small, "dram.color_flushes"), 64 * 16);
}

}  // namespace
}  // namespace tessera::model

namespace tessera::model {
namespace {

using namespace testing;

// A tile-cache organisation with no cache at all: every Parameter Buffer access goes to L2. It
// sees each request's primitive, section and tile, and the observer sees each phase's binning.
class NoTileCache final : public TileCacheOrganisation {
 public:
  MemResponse access(MemoryHierarchy& h, const MemRequest& r, uint64_t now) override {
    if (r.write) ++writes;
    if (!r.write && r.section == 1) ++attribute_reads;
    return h.access_below_l1(h.l2_requester_tile(), r.addr, r.write, AccessInfo{kNoNextUse, 0, r.full_line}, now);
  }
  uint64_t writes = 0, attribute_reads = 0;
};

class PhaseProbe final : public FrameObserver {
 public:
  void phase_begin(MemoryHierarchy&, const BinnedPhase& phase) override {
    ++phases;
    for (const auto& prims : phase.primitives) primitives += prims.size();
    attributes = phase.attributes;
  }
  void energy(const MemoryHierarchy&, const EnergyParams&, uint64_t, std::vector<StructureEnergy>& out) override {
    StructureEnergy s;
    s.name = "probe";
    s.dynamic_nj = 1000;
    out.push_back(s);
  }
  uint64_t phases = 0, primitives = 0;
  std::vector<PrimitiveAttributes> attributes;
};

TEST(SchemeSeams, ATileCacheOrganisationServesTheParameterBuffer) {
  FrameSpec f = mixedFrame();
  f.primitives_per_tile = 3;
  f.attribute_lines = 1;
  const auto bytes = buildFrame(f);
  const stream::StreamCounts c = recount(bytes);
  auto org = std::make_shared<NoTileCache*>(nullptr);
  auto probe = std::make_shared<PhaseProbe>();
  Hooks hooks;
  hooks.tile_organisation = [org](MemoryHierarchy&) {
    auto o = std::make_unique<NoTileCache>();
    *org = o.get();
    return o;
  };
  hooks.observers.push_back(probe);
  GpuModel model(smallCaches(), hooks);
  std::string error;
  FrameResults r;
  ASSERT_TRUE(model.run(bytes, r, &error)) << error;
  // The unified tile cache is out of the path; the organisation reports its own tile.* metrics.
  EXPECT_EQ(model.hierarchy()->tile_cache().counters().accesses, 0u);
  EXPECT_TRUE(std::isnan(r.metric("tile.accesses")));
  EXPECT_TRUE(std::isnan(r.metric("tile.lower_bound_lines")));
  EXPECT_EQ(m(r, "pb.l2_accesses"), static_cast<double>(c.pb_write_bytes + c.pb_read_bytes) / 64);
  EXPECT_EQ((*org)->writes, c.pb_write_bytes / 64);
  EXPECT_EQ((*org)->attribute_reads, 6u * 3);  // one attribute line per primitive, 3 per tile
  EXPECT_EQ(probe->phases, 1u);
  EXPECT_EQ(probe->primitives, 6u * 3);
  // Each primitive's attribute lines, as the fetcher will read them (frame_builder.h's layout).
  ASSERT_EQ(probe->attributes.size(), 6u * 3);
  for (uint32_t p = 0; p < 18; ++p) {
    EXPECT_EQ(probe->attributes[p].primitive, p);
    EXPECT_EQ(probe->attributes[p].first_line, kAttrBase + uint64_t{p} * 64);
    EXPECT_EQ(probe->attributes[p].lines, 1u);
  }
  // The observer's structure counts in the whole GPU's energy.
  const StructureEnergy* s = r.energy.find("probe");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->dynamic_nj, 1000);
  EXPECT_EQ(m(r, "energy.probe_nj"), 1000);
  double sum = 0;
  for (const StructureEnergy& e : r.energy.structures) sum += e.total_nj();
  EXPECT_NEAR(sum, m(r, "energy.total_nj"), 1e-9 * sum);
}

// Paper 003 III-D1: the Tile Fetcher signals the L2 once per tile it finishes, and each
// subpass's binning restarts the count; the dead-line L2 counts them (any other policy ignores
// them). Six tiles, one subpass: six, again in the second frame.
TEST(SchemeSeams, TheTileFetcherSignalsTheL2OncePerTile) {
  const auto bytes = buildFrame(mixedFrame());
  Hooks hooks;
  hooks.tile_organisation = [](MemoryHierarchy&) { return std::make_unique<NoTileCache>(); };
  ParamSet p = smallCaches();
  p.set("l2.policy", "dead-line");
  GpuModel model(p, hooks);
  for (int frame = 0; frame < 2; ++frame) {
    std::string error;
    FrameResults r;
    ASSERT_TRUE(model.run(bytes, r, &error)) << error;
    const DeadLinePolicy* l2 = model.hierarchy()->l2().policy_as<DeadLinePolicy>();
    ASSERT_NE(l2, nullptr);
    EXPECT_EQ(l2->tiles_finished(), 6u) << "frame " << frame;
  }
}

// An organisation that works per primitive (paper 003 section III-C3): it serves a primitive's
// attribute read whole with its first line, and refuses one read once, until the Rasterizer has
// taken a primitive from the Tile Fetcher's queue (section III-C5).
class PerPrimitive final : public TileCacheOrganisation {
 public:
  MemResponse access(MemoryHierarchy&, const MemRequest& r, uint64_t) override {
    MemResponse m{2, ServedBy::L1, 0};
    if (r.write || r.section == 0) return m;
    ++attribute_requests;
    if (r.primitive == 4 && taken == 0) {
      ++refusals;
      m.refused = true;
      return m;
    }
    m.primitive_served = true;
    return m;
  }
  void rasterizer_read(MemoryHierarchy&, uint32_t, uint32_t, uint64_t) override { ++taken; }
  uint64_t attribute_requests = 0, refusals = 0, taken = 0;
};

TEST(SchemeSeams, AnOrganisationServesPrimitivesWholeAndMayRefuse) {
  FrameSpec f = mixedFrame();
  f.primitives_per_tile = 3;
  f.attribute_lines = 3;
  const auto bytes = buildFrame(f);
  auto org = std::make_shared<PerPrimitive*>(nullptr);
  Hooks hooks;
  hooks.tile_organisation = [org](MemoryHierarchy&) {
    auto o = std::make_unique<PerPrimitive>();
    *org = o.get();
    return o;
  };
  GpuModel model(smallCaches(), hooks);
  std::string error;
  FrameResults r;
  ASSERT_TRUE(model.run(bytes, r, &error)) << error;
  // 18 primitives of 3 lines: one request each, plus the refused one retried.
  EXPECT_EQ((*org)->refusals, 1u);
  EXPECT_EQ((*org)->attribute_requests, 18u + 1);
  EXPECT_EQ((*org)->taken, 18u);  // every queued primitive reached the Rasterizer
  EXPECT_EQ(m(r, "tile_fetcher.primitives"), 18);
  EXPECT_GT(m(r, "tile_fetcher.prims_per_cycle"), 0);
  // The OPT Numbers of the skipped lines were consumed with them (the model checks it at the
  // frame's end), and a second frame runs the same.
  ASSERT_TRUE(model.run(bytes, r, &error)) << error;
  EXPECT_EQ((*org)->taken, 36u);
}

}  // namespace
}  // namespace tessera::model
