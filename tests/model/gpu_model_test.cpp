// Timing model on constructed streams whose answer is known.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>
#include <random>
#include <vector>

#include "tessera/model/gpu_model.h"
#include "tessera/stream/access_stream.h"
#include "frame_builder.h"
#include "hook_doubles.h"

namespace tessera::model {
namespace {

using namespace testing;

TEST(GpuModel, FourCoresShadeABalancedTileFourTimesFaster) {
  FrameSpec f;
  f.quad = heavy(400);  // 100 issue cycles per quad
  const auto bytes = buildFrame(f);
  const FrameResults one = runModel(bytes, classic({"gpu.shader_cores=1"}));
  const FrameResults four = runModel(bytes, classic({"gpu.shader_cores=4"}));
  EXPECT_EQ(m(one, "stage.fragment.busy_cycles"), 256 * 100);
  EXPECT_EQ(m(four, "stage.fragment.busy_cycles"), 256 * 100);
  // FG-xshift2 gives each of the four cores 64 of the tile's 256 quads.
  ASSERT_EQ(four.cores.size(), 4u);
  for (const CoreStats& c : four.cores) EXPECT_EQ(c.quads, 64u);
  const double ratio = static_cast<double>(one.raster_cycles) / static_cast<double>(four.raster_cycles);
  EXPECT_GT(ratio, 3.9);
  EXPECT_LE(ratio, 4.0);
  EXPECT_GE(one.raster_cycles, 256u * 100);
  EXPECT_LT(one.raster_cycles, 256u * 100 + 64);
}

TEST(GpuModel, BandwidthBoundStreamRunsAtDramBandwidth) {
  // Every lane samples 4 lines never read before: all traffic is DRAM line fills.
  FrameSpec f;
  f.tiles_x = 2;
  f.tiles_y = 2;
  f.quad = [](uint32_t seq, uint32_t qx, uint32_t qy) {
    QuadSpec q;
    q.instructions = 8;
    for (uint32_t lane = 0; lane < 4; ++lane) {
      const uint64_t base = 0x1000'0000 + ((uint64_t{seq} * 256 + qy * 16 + qx) * 16 + lane * 4) * 64;
      q.samples[lane].push_back({base, base + 64, base + 128, base + 192});
    }
    return q;
  };
  const auto bytes = buildFrame(f);
  const FrameResults r = runModel(bytes, mobile4());
  const double lines = 4 * 256 * 16;
  EXPECT_EQ(m(r, "l1tex.accesses"), lines);
  EXPECT_EQ(m(r, "dram.reads"), lines);
  // mobile4: 4 B per 400 MHz memory cycle over both channels (paper 000 Table I) = 8/3 B per
  // 600 MHz GPU cycle.
  const double bandwidth = 4.0 * 400.0 / 600.0;
  const double bound = m(r, "dram.bytes") / bandwidth;
  EXPECT_GE(static_cast<double>(r.raster_cycles), bound);
  EXPECT_LT(static_cast<double>(r.raster_cycles), bound * 1.05);
}

TEST(GpuModel, MoreQuadsInFlightHideTextureLatency) {
  // One core, each quad one sample of one new line and 2 issue cycles: latency bound.
  FrameSpec f;
  f.quad = [](uint32_t, uint32_t qx, uint32_t qy) {
    QuadSpec q;
    q.instructions = 8;
    q.samples[0].push_back({0x2000'0000 + uint64_t{qy * 16 + qx} * 4096});
    return q;
  };
  const auto bytes = buildFrame(f);
  const FrameResults q1 = runModel(bytes, mobile4({"gpu.shader_cores=1", "core.max_quads=1"}));
  const FrameResults q4 = runModel(bytes, mobile4({"gpu.shader_cores=1", "core.max_quads=4"}));
  const FrameResults q32 = runModel(bytes, mobile4({"gpu.shader_cores=1", "core.max_quads=32"}));
  // With one quad in flight every quad waits a full L1 + L2 + DRAM round trip (>= 63 cycles).
  EXPECT_GE(q1.raster_cycles, 256u * (1 + 12 + 50 + 4));
  EXPECT_LT(q4.raster_cycles, q1.raster_cycles / 3);
  EXPECT_LT(q32.raster_cycles, q4.raster_cycles);
  EXPECT_EQ(m(q1, "l1tex.misses"), 256);
  EXPECT_EQ(m(q32, "l1tex.misses"), 256);
}

TEST(GpuModel, SubtileBarriersRemoveTheWaitForTheSlowestCore) {
  // Four tiles; in tile k the quads of core k (FG-xshift2) are heavy, the rest nearly free.
  FrameSpec f;
  f.tiles_x = 4;
  f.quad = [](uint32_t seq, uint32_t qx, uint32_t qy) {
    QuadSpec q;
    q.instructions = (qx + 2 * qy) % 4 == seq % 4 ? 4000 : 4;
    return q;
  };
  const auto bytes = buildFrame(f);
  // Fragment queues deep enough for a core to run a tile ahead: with the mobile32 depth of 64 the
  // in-order rasterizer blocks on the heavy core's full queue and the decoupling gains half.
  const FrameResults tile = runModel(bytes, classic({"gpu.barrier=tile", "queue.fragment=256"}));
  const FrameResults sub = runModel(bytes, classic({"gpu.barrier=subtile", "queue.fragment=256"}));
  const FrameResults sub64 = runModel(bytes, classic({"gpu.barrier=subtile", "queue.fragment=64"}));
  EXPECT_LT(sub64.raster_cycles, tile.raster_cycles);
  EXPECT_GT(sub64.raster_cycles, sub.raster_cycles);
  // Per tile: every tile waits for its heavy core (64 quads x 1000 cycles).
  EXPECT_GE(tile.raster_cycles, 4u * 64000);
  EXPECT_LT(tile.raster_cycles, 4u * 64000 + 2000);
  // Per subtile: each core's heavy subtile overlaps the others'.
  EXPECT_GE(sub.raster_cycles, 64000u);
  EXPECT_LT(sub.raster_cycles, 64000u + 2000);
  EXPECT_GT(tile.cores_imbalance, 1.0);  // one core busy, three idle: mean deviation 1.5x mean
  EXPECT_EQ(m(tile, "stage.fragment.busy_cycles"), m(sub, "stage.fragment.busy_cycles"));
  // Per tile, each of the 3 light cores finishes its quads of a tile at once and then waits for
  // the heavy core at a barrier -- first early-Z's (its next quads may not pass), then, once the
  // heavy core's last quad of the tile has passed early-Z, the fragment stage's -- about 64000
  // cycles at each of the 3 tile changes, and the last tile's 64000 with nothing left to run
  // (starved). Per subtile no core waits for another.
  const double light_waits = 3 * 3 * 64000.0;
  EXPECT_GT(m(tile, "stage.fragment.stall_cycles"), light_waits - 3 * 3 * 400);
  EXPECT_LE(m(tile, "stage.fragment.stall_cycles"), light_waits);
  EXPECT_NEAR(m(tile, "core.cycles.barrier_wait") * 4, m(tile, "stage.fragment.stall_cycles"), 4);
  // Each core: its heavy subtile (64 x 1000) and its light quads of the other three tiles (64 x 1).
  EXPECT_EQ(m(tile, "core.cycles.busy"), 64000 + 3 * 64);
  EXPECT_EQ(m(sub, "stage.fragment.stall_cycles"), 0);
  EXPECT_EQ(m(sub, "core.cycles.barrier_wait"), 0);
}

// Per subtile each core's bank flushes its own colour lines (paper 001 section III-E); a line the
// quads of several cores share waits for the last of them. One 32x32 tile in FG-xshift2: every
// 64-byte line is 16 pixels, 8 quads of a row, and (qx + 2 qy) mod 4 gives them all four cores,
// so core 0, whose quads are heavy, finishes last and writes all 64 lines (CG-square, whose
// quadrants' lines each go with one core: dtexl_test.cpp). Per tile flush unit 0 writes all 64.
TEST(GpuModel, SharedColourLinesWaitForTheLastCoreToFinish) {
  FrameSpec f;
  f.quad = [](uint32_t, uint32_t qx, uint32_t qy) {
    QuadSpec q;
    q.instructions = (qx + 2 * qy) % 4 == 0 ? 400 : 4;
    return q;
  };
  f.store_lines = 32;  // 32 rows of 32 RGBA8 pixels: two 64-byte lines a row
  f.store_row_lines = 2;
  const auto bytes = buildFrame(f);
  const FrameResults sub = runModel(bytes, classic({"gpu.barrier=subtile", "queue.fragment=256"}));
  EXPECT_EQ(per_core(sub, "color_flush_lines"), (std::vector<double>{64, 0, 0, 0}));
  EXPECT_EQ(m(sub, "dram.color_flushes"), 64);
  const FrameResults tile = runModel(bytes, classic({"gpu.barrier=tile"}));
  EXPECT_EQ(per_core(tile, "color_flush_lines"), (std::vector<double>{64, 0, 0, 0}));
}

// A bank whose lines are shared with a slower core is held until that core writes them. Two
// tiles in FG-xshift2 with per-subtile barriers: in tile 0 core 0's quads are heavy (64 x 100
// issue cycles), in tile 1 the other cores'. Every 64-byte line of 4-byte pixels spans all four
// cores, so cores 1-3 may blend tile 1 only once core 0 has written tile 0. With 256-entry colour
// queues they shade all of tile 1 meanwhile and run beside core 0; with 4 entries their queues
// fill and they stop shading until core 0's flush. (Were the banks released at once, the queue
// size would not matter: both take 9551 cycles.)
TEST(GpuModel, ABankWaitsForTheLinesItSharesWithASlowerCore) {
  FrameSpec f;
  f.tiles_x = 2;
  f.store_lines = 32;
  f.store_row_lines = 2;
  f.quad = [](uint32_t seq, uint32_t qx, uint32_t qy) {
    QuadSpec q;
    q.instructions = (seq == 0) == ((qx + 2 * qy) % 4 == 0) ? 400 : 4;
    return q;
  };
  const auto bytes = buildFrame(f);
  const FrameResults small = runModel(bytes, classic({"gpu.barrier=subtile", "queue.color=4"}));
  const FrameResults large = runModel(bytes, classic({"gpu.barrier=subtile", "queue.color=256"}));
  // 12480 against 9551 cycles: less than a whole heavy subtile, since before they stop cores 1-3
  // shade the quads their colour queues and warp slots hold.
  EXPECT_GT(m(small, "cycles") - m(large, "cycles"), 2000);
  EXPECT_LT(m(small, "cycles") - m(large, "cycles"), 6400);
  EXPECT_EQ(m(small, "dram.color_flushes"), 2 * 64);
}

// A held bank's quads wait in its own queues; shared ones would fill with them and stop the
// slower cores, so decoupled barriers refuse them (paper 001 Fig. 10: a FIFO per parallel unit).
TEST(GpuModel, DecoupledBarriersNeedPerCoreQueues) {
  for (const char* shared : {"queue.scope=shared", "gpu.earlyz_scope=shared"}) {
    try {
      GpuModel model(classic({"gpu.barrier=subtile", shared}));
      ADD_FAILURE() << shared << " accepted with gpu.barrier=subtile";
    } catch (const ParamError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("gpu.barrier=subtile needs queue.scope=per-core", 0), 0u) << e.what();
    }
  }
  EXPECT_NO_THROW(GpuModel(classic({"gpu.barrier=subtile"})));
  EXPECT_NO_THROW(GpuModel(classic({"gpu.barrier=tile", "queue.scope=shared"})));
}

TEST(GpuModelReconcile, EveryCacheCountsWhatWasSentToIt) {
  const auto bytes = buildFrame(mixedFrame());
  expectEveryCacheCountsItsRequests(runModel(bytes, smallCaches()), recount(bytes));
}

TEST(GpuModelReconcile, Mobile32CountersReconcile) {
  ParamSet p = make_preset("mobile32");
  p.apply("l2.size=16KiB");
  const auto bytes = buildFrame(mixedFrame());
  const stream::StreamCounts c = recount(bytes);
  const FrameResults r = runModel(bytes, p);
  ASSERT_EQ(r.cores.size(), 32u);
  EXPECT_EQ(m(r, "l1tex.accesses"), static_cast<double>(c.texture_lines));
  EXPECT_EQ(m(r, "l1tex.misses"), m(r, "l2.texture_accesses"));
  expectEveryCacheCountsItsRequests(r, c);
  EXPECT_EQ(m(r, "dram.accesses"), m(r, "dram.l2_fetches") + m(r, "dram.l2_writes") + m(r, "dram.color_flushes") +
                                       m(r, "dram.attachment_loads"));
  // 32 fragment processors share each tile's quads: every one of them shades some.
  for (const CoreStats& k : r.cores) EXPECT_GT(k.quads, 0u);
}

TEST(GpuModelReconcile, L1MissesAreTheL2AccessesOfTheL1s) {
  GpuModel model(smallCaches());
  std::string error;
  const FrameResults r = model.run(buildFrame(mixedFrame()), &error);
  ASSERT_TRUE(error.empty()) << error;
  EXPECT_EQ(m(r, "l1tex.misses"), m(r, "l2.texture_accesses"));
  // Read-only L1s: each miss fetches exactly one line.
  EXPECT_EQ(m(r, "l1tex.misses"), m(r, "l1tex.fetches"));
  // The Parameter Buffer's L2 traffic is the tile cache's fetches and write-backs.
  const CacheCounters& tc = model.hierarchy()->tile_cache().counters();
  EXPECT_GT(tc.writebacks, 0u);
  EXPECT_EQ(m(r, "pb.l2_accesses"), static_cast<double>(tc.fetches + tc.writebacks + tc.write_throughs));
  // Vertex caches likewise.
  EXPECT_EQ(m(r, "l2.vertex_accesses"), m(r, "vertex.misses"));
  double per_core_l1 = 0, per_core_hits = 0;
  for (const CoreMetric& c : r.core_metrics) {
    if (c.metric == "l1tex.accesses") per_core_l1 += c.value;
    if (c.metric == "l1tex.hits") per_core_hits += c.value;
  }
  EXPECT_EQ(per_core_l1, m(r, "l1tex.accesses"));
  EXPECT_EQ(per_core_hits, m(r, "l1tex.hits"));
}

TEST(GpuModelReconcile, DramTrafficIsL2MissesWriteBacksAndAttachments) {
  GpuModel model(smallCaches());
  std::string error;
  const FrameResults r = model.run(buildFrame(mixedFrame()), &error);
  ASSERT_TRUE(error.empty()) << error;
  const CacheCounters& l2 = model.hierarchy()->l2().counters();
  EXPECT_GT(l2.writebacks, 0u);
  EXPECT_EQ(m(r, "dram.reads"), static_cast<double>(l2.fetches) + 6 * 16);        // + attachment loads
  EXPECT_EQ(m(r, "dram.writes"), static_cast<double>(l2.writebacks + l2.write_throughs) + 6 * 64);  // + flushes
  EXPECT_EQ(m(r, "dram.accesses"), m(r, "dram.l2_fetches") + m(r, "dram.l2_writes") + m(r, "dram.color_flushes") +
                                       m(r, "dram.attachment_loads"));
  EXPECT_EQ(m(r, "dram.color_flushes"), 6 * 64);
  EXPECT_EQ(m(r, "dram.bytes"), m(r, "dram.accesses") * 64);
  EXPECT_EQ(m(r, "dram.row_hits") + m(r, "dram.row_misses"), m(r, "dram.accesses"));
  EXPECT_LE(m(r, "pb.dram_accesses"), m(r, "dram.l2_fetches"));
}

TEST(GpuModelReconcile, FrameCountsEqualTheStreamsCounts) {
  const auto bytes = buildFrame(mixedFrame());
  const stream::StreamCounts c = recount(bytes);
  const FrameResults r = runModel(bytes, smallCaches());
  EXPECT_EQ(m(r, "l1tex.accesses"), static_cast<double>(c.texture_lines));
  EXPECT_EQ(m(r, "texture.lines"), static_cast<double>(c.texture_lines));
  EXPECT_EQ(m(r, "texture.samples"), static_cast<double>(c[stream::EventKind::Texture]));
  EXPECT_EQ(m(r, "quads"), static_cast<double>(c[stream::EventKind::Quad]));
  EXPECT_EQ(m(r, "fragments"), static_cast<double>(c.covered_pixels));
  EXPECT_EQ(m(r, "draws"), static_cast<double>(c[stream::EventKind::Draw]));
  EXPECT_EQ(m(r, "tiles"), static_cast<double>(c[stream::EventKind::TileBegin]));
  // 16 B vertex fetches inside one line; 64 B aligned PB accesses.
  EXPECT_EQ(m(r, "vertex.accesses"), static_cast<double>(c[stream::EventKind::VertexFetch]));
  EXPECT_EQ(m(r, "tile.accesses"), static_cast<double>(c[stream::EventKind::PbWrite] + c[stream::EventKind::PbRead]));
  double core_quads = 0;
  for (const CoreStats& k : r.cores) core_quads += static_cast<double>(k.quads);
  EXPECT_EQ(core_quads, m(r, "quads.shaded"));
  double energy = 0;
  for (const StructureEnergy& s : r.energy.structures) energy += s.total_nj();
  EXPECT_NEAR(energy, m(r, "energy.total_nj"), 1e-6 * energy);
  EXPECT_GT(m(r, "energy.total_hp_nj"), m(r, "energy.total_lop_nj"));
  EXPECT_EQ(m(r, "energy.total_nj"), m(r, "energy.total_lop_nj"));  // mobile4: 32nm-lop
}

// ---- Stall cycles: intervals per unit (README "Stall"), never more than the units' cycles ----

// Units of each stage: vertex processors; one Polygon List Builder, tile fetcher, rasterizer;
// early-Z, shader core and blending per core; the colour flush per core only per subtile.
void expectBusyPlusStallWithinUnitCycles(const FrameResults& r, const ParamSet& p, const std::string& what) {
  const double cycles = static_cast<double>(r.cycles);
  const double cores = static_cast<double>(r.cores.size());
  const std::map<std::string, double> units = {
      {"vertex", p.get_u32("gpu.vertex_processors")}, {"binning", 1}, {"tile_fetch", 1}, {"raster", 1},
      {"earlyz", cores}, {"fragment", cores}, {"blend", cores},
      {"flush", p.get_string("gpu.barrier") == "subtile" ? cores : 1}};
  ASSERT_EQ(r.stages.size(), units.size()) << what;
  for (const StageStats& s : r.stages) {
    const double busy = static_cast<double>(s.busy_cycles), stall = static_cast<double>(s.stall_cycles);
    EXPECT_LE(busy + stall, cycles * units.at(s.name)) << what << ": stage " << s.name;
    EXPECT_EQ(m(r, ("stage." + s.name + ".stall_cycles").c_str()), stall) << what;
  }
}

TEST(GpuModelStall, BusyPlusStallWithinCyclesTimesUnitsOnConstructedStreams) {
  std::vector<std::pair<std::string, FrameSpec>> frames;
  frames.emplace_back("mixed", mixedFrame());
  FrameSpec h;
  h.quad = heavy(400);
  frames.emplace_back("heavy", h);
  FrameSpec imb;  // the imbalanced tiles of SubtileBarriersRemoveTheWaitForTheSlowestCore
  imb.tiles_x = 4;
  imb.quad = [](uint32_t seq, uint32_t qx, uint32_t qy) {
    QuadSpec q;
    q.instructions = (qx + 2 * qy) % 4 == seq % 4 ? 4000 : 4;
    return q;
  };
  frames.emplace_back("imbalanced", imb);
  FrameSpec lat;  // latency bound: one new line per quad
  lat.quad = [](uint32_t, uint32_t qx, uint32_t qy) {
    QuadSpec q;
    q.instructions = 8;
    q.samples[0].push_back({0x2000'0000 + uint64_t{qy * 16 + qx} * 4096});
    return q;
  };
  frames.emplace_back("latency", lat);
  for (const auto& [name, f] : frames) {
    const auto bytes = buildFrame(f);
    for (const char* barrier : {"gpu.barrier=tile", "gpu.barrier=subtile"}) {
      for (const char* fq : {"queue.fragment=4", "queue.fragment=256"}) {
        const ParamSet p = mobile4({barrier, fq, "gpu.shader_cores=4"});
        expectBusyPlusStallWithinUnitCycles(runModel(bytes, p), p, name + " " + barrier + " " + fq);
      }
      ParamSet p32 = make_preset("mobile32");
      p32.apply(barrier);
      if (std::string(barrier) == "gpu.barrier=subtile") {
        p32.apply("queue.scope=per-core");  // decoupled barriers refuse shared queues (model_config.h)
        p32.apply("gpu.earlyz_scope=per-core");
      }
      expectBusyPlusStallWithinUnitCycles(runModel(bytes, p32), p32, name + " mobile32 " + barrier);
    }
  }
}

TEST(GpuModelStall, BusyPlusStallWithinCyclesTimesUnitsOnRandomStreams) {
  for (uint32_t seed = 1; seed <= 6; ++seed) {
    std::mt19937 rng(seed);
    FrameSpec f;
    f.tiles_x = 1 + rng() % 4;
    f.tiles_y = 1 + rng() % 3;
    f.draws = 1 + rng() % 3;
    f.vertices_per_draw = 1 + rng() % 64;
    f.vertex_instructions = rng() % 400;
    f.pb_lines_per_tile = rng() % 16;
    f.load_lines = rng() % 32;
    f.store_lines = rng() % 64;
    // Per tile a random density, cost and texture footprint, so cores and tiles are imbalanced.
    std::vector<uint32_t> density, cost;
    for (uint32_t t = 0; t < f.tiles_x * f.tiles_y; ++t) {
      density.push_back(rng() % 101);
      cost.push_back(1 + rng() % 2000);
    }
    const uint32_t salt = static_cast<uint32_t>(rng());
    f.quad = [density, cost, salt](uint32_t seq, uint32_t qx, uint32_t qy) {
      std::mt19937 q_rng(salt ^ (seq * 65599u + qy * 16 + qx));
      QuadSpec q;
      q.present = q_rng() % 100 < density[seq];
      q.shaded = q_rng() % 4 != 0;
      q.coverage = 1 + q_rng() % 15;
      q.instructions = q_rng() % cost[seq];
      const uint32_t samples = q_rng() % 4;
      for (uint32_t lane = 0; lane < 4; ++lane) {
        for (uint32_t s = 0; s < samples; ++s) {
          const uint64_t line = 0x1000'0000 + uint64_t{q_rng() % 4096} * 64;
          q.samples[lane].push_back({line, line + 64 * (q_rng() % 3)});
        }
      }
      return q;
    };
    const auto bytes = buildFrame(f);
    const char* fq = seed % 2 ? "queue.fragment=8" : "queue.fragment=64";
    for (const char* barrier : {"gpu.barrier=tile", "gpu.barrier=subtile"}) {
      const ParamSet p = mobile4({barrier, fq, "core.max_quads=4", "gpu.earlyz_inflight_quads=2"});
      const FrameResults r = runModel(bytes, p);
      EXPECT_GT(r.quads, 0u) << "seed " << seed;
      expectBusyPlusStallWithinUnitCycles(r, p, "seed " + std::to_string(seed) + " " + barrier);
      ParamSet p32 = make_preset("mobile32");
      p32.apply(barrier);
      if (std::string(barrier) == "gpu.barrier=subtile") {
        p32.apply("queue.scope=per-core");  // decoupled barriers refuse shared queues (model_config.h)
        p32.apply("gpu.earlyz_scope=per-core");
      }
      expectBusyPlusStallWithinUnitCycles(runModel(bytes, p32), p32, "seed " + std::to_string(seed) + " mobile32");
    }
  }
}

// Two tiles, per-tile barrier. Tile 0: one quad on core 0 (FG-xshift2, qx = 0) of 1000 issue
// cycles. Tile 1: four 1-cycle quads on core 1 (qx = 1, 5, 9, 13). Core 1's quads pass early-Z as
// soon as tile 0's quad has (raster -> early-Z -> core: 3 cycles) and then wait at the fragment
// barrier until core 0 is done: core 1 is idle with work at its input for 1000 - 1 cycles. That is
// one stall interval of one unit, while each of the four quads waits that long (queue wait).
TEST(GpuModelStall, ACoreWaitingAtTheTileBarrierStallsOnceForTheWholeWait) {
  FrameSpec f;
  f.tiles_x = 2;
  f.quad = [](uint32_t seq, uint32_t qx, uint32_t qy) {
    QuadSpec q;
    q.present = qy == 0 && (seq == 0 ? qx == 0 : qx % 4 == 1);
    q.instructions = seq == 0 ? 4000 : 4;
    return q;
  };
  const ParamSet p = classic({"gpu.barrier=tile", "raster.quads_per_cycle=1", "depthbuf.latency=1"});
  const FrameResults r = runModel(buildFrame(f), p);
  ASSERT_EQ(r.cores.size(), 4u);
  EXPECT_EQ(r.cores[0].quads, 1u);
  EXPECT_EQ(r.cores[1].quads, 4u);
  EXPECT_EQ(m(r, "stage.fragment.busy_cycles"), 1000 + 4);
  // Core 0 runs tile 0's quad in cycles 2..1001 (raster at 0, early-Z at 1, depth latency 1);
  // core 1's first quad is out of early-Z at 3 and core 1 waits until 1002 for the barrier.
  EXPECT_EQ(m(r, "stage.fragment.stall_cycles"), 999);
  // Per quad: each of core 1's four quads, one cycle apart, waits as long at the core's input.
  EXPECT_EQ(m(r, "stage.fragment.queue_wait_cycles"), 4 * 999);
  // Nothing else waits: early-Z takes each quad as it arrives, blending as it leaves the core.
  EXPECT_EQ(m(r, "stage.earlyz.stall_cycles"), 0);
  EXPECT_EQ(m(r, "stage.blend.stall_cycles"), 0);
  EXPECT_EQ(m(r, "stage.raster.stall_cycles"), 0);
  expectBusyPlusStallWithinUnitCycles(r, p, "barrier");
  // Per subtile core 1 does not wait for core 0.
  const ParamSet ps = mobile4({"gpu.barrier=subtile", "raster.quads_per_cycle=1", "depthbuf.latency=1"});
  const FrameResults s = runModel(buildFrame(f), ps);
  EXPECT_EQ(m(s, "stage.fragment.stall_cycles"), 0);
  EXPECT_EQ(m(s, "stage.fragment.queue_wait_cycles"), 0);
}

// One core, one quad in flight, each quad one texture instruction on a new line: the core waits
// for each quad's texture data (L1 miss, L2 miss, DRAM, tex.latency) between its two segments.
TEST(GpuModelStall, ACoreWaitingForTextureDataStallsForTheRoundTrip) {
  FrameSpec f;
  f.quad = [](uint32_t, uint32_t qx, uint32_t qy) {
    QuadSpec q;
    q.present = qy == 0 && qx < 4;
    q.instructions = 8;  // 2 issue cycles: one before, one after the texture instruction
    q.samples[0].push_back({0x2000'0000 + uint64_t{qx} * 4096});
    return q;
  };
  const ParamSet p = mobile4({"gpu.shader_cores=1", "core.max_quads=1"});
  const FrameResults r = runModel(buildFrame(f), p);
  EXPECT_EQ(m(r, "stage.fragment.busy_cycles"), 4 * 2);
  // Four round trips of at least L1 + L2 + DRAM row access + tex.latency (1 + 12 + 50 + 4); the
  // admission of the next quad after one leaves costs no stall (it is issued the same cycle).
  const double stall = m(r, "stage.fragment.stall_cycles");
  EXPECT_GE(stall, 4 * (1 + 12 + 50 + 4));
  // Raster time is the core's busy + stall plus the pipeline's fill and drain (a few cycles).
  EXPECT_LE(stall + 8, static_cast<double>(r.raster_cycles));
  EXPECT_GE(stall + 8 + 8, static_cast<double>(r.raster_cycles));
  expectBusyPlusStallWithinUnitCycles(r, p, "texture");
}

TEST(GpuModel, RunsAreRepeatableOnOneModel) {
  const auto bytes = buildFrame(mixedFrame());
  GpuModel model(smallCaches());
  std::string error;
  const FrameResults a = model.run(bytes, &error);
  model.reset();  // a new run: cold caches again
  const FrameResults b = model.run(bytes, &error);
  ASSERT_TRUE(error.empty()) << error;
  EXPECT_EQ(a.frame_metrics, b.frame_metrics);
  EXPECT_GT(a.cycles, 0u);
  // Cold caches in every frame: the same frame twice in one run gives the same results.
  ParamSet cold = smallCaches();
  cold.set("sim.cold_caches", "true");
  GpuModel cold_model(cold);
  const FrameResults c = cold_model.run(bytes, &error);
  const FrameResults d = cold_model.run(bytes, &error);
  ASSERT_TRUE(error.empty()) << error;
  EXPECT_EQ(c.frame_metrics, d.frame_metrics);
  EXPECT_EQ(c.frame_metrics, a.frame_metrics);
}

TEST(GpuModel, PerTileAndPerCoreRows) {
  FrameSpec f;
  f.tiles_x = 2;
  f.quad = heavy(40);
  const FrameResults r = runModel(buildFrame(f), classic());
  std::map<std::string, double> tile0;
  for (const TileMetric& t : r.tile_metrics) {
    if (t.tile_x == 0 && t.tile_y == 0) tile0[t.metric] = t.value;
  }
  EXPECT_EQ(tile0["quads"], 256);
  for (int c = 0; c < 4; ++c) EXPECT_EQ(tile0["core." + std::to_string(c) + ".busy_cycles"], 64 * 10);
  EXPECT_GE(tile0["cycles"], 64 * 10);
  ASSERT_EQ(r.core_metrics.size(), 4u * (5 + kCoreStates));
  EXPECT_EQ(r.core_metrics[0].metric, "quads");
  EXPECT_EQ(r.core_metrics[0].value, 128);
  EXPECT_EQ(r.cores_imbalance, 0);
}

TEST(GpuModel, DamagedStreamIsAnErrorNotACrash) {
  auto bytes = buildFrame(mixedFrame());
  bytes.resize(bytes.size() / 2);
  GpuModel model(mobile4());
  std::string error;
  FrameResults r;
  EXPECT_FALSE(model.run(bytes, r, &error));
  EXPECT_NE(error.find("access stream"), std::string::npos) << error;
  EXPECT_FALSE(model.run(std::vector<uint8_t>{1, 2, 3}, r, &error));
  EXPECT_NE(error.find("access stream"), std::string::npos) << error;
}

TEST(GpuModel, EveryTruncationIsAnErrorOrARunNeverACrash) {
  FrameSpec f = mixedFrame();
  f.tiles_x = 2;
  f.tiles_y = 1;
  f.vertices_per_draw = 8;
  f.quad = [](uint32_t seq, uint32_t qx, uint32_t qy) {
    QuadSpec q;
    q.present = (qx + qy + seq) % 9 == 0;
    q.samples[qx % 4].push_back({0x1000'0000 + uint64_t{qx} * 64});
    return q;
  };
  const auto bytes = buildFrame(f);
  // The tiles read in the order recorded (scanline) and out of it (Hilbert, with seeks back).
  for (const char* order : {"scanline", "hilbert"}) {
    ParamSet p = smallCaches();
    p.set("gpu.tile_order", order);
    GpuModel model(p);
    std::vector<size_t> complete;
    for (size_t n = 0; n < bytes.size(); ++n) {
      std::string error;
      FrameResults r;
      const std::vector<uint8_t> prefix(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n));
      if (model.run(prefix, r, &error)) {
        complete.push_back(n);
      } else {
        EXPECT_FALSE(error.empty());
        EXPECT_EQ(error.find('\n'), std::string::npos);
      }
    }
    // Only two prefixes describe a whole frame: FrameBegin alone (a frame without passes) and
    // everything but the FrameEnd.
    ASSERT_EQ(complete.size(), 2u);
    EXPECT_LT(complete[0], 16u);
    EXPECT_EQ(complete[1], bytes.size() - 1);
  }
}

TEST(GpuModel, QuadOutsideATileIsAnError) {
  StreamWriter w;
  w.frame_begin(1, 32, 32);
  w.pass_begin(0, 32, 32, 32, 32, 1, 1);
  w.quad(0, 0, 15, 15, 15, stream::kQuadShaded, 4);
  w.pass_end(0);
  w.frame_end();
  GpuModel model(mobile4());
  std::string error;
  FrameResults r;
  EXPECT_FALSE(model.run(w.finish(), r, &error));
  EXPECT_NE(error.find("quad"), std::string::npos) << error;
}

// ---- Hooks: the trivial second implementation of each, without touching the model core ----

TEST(GpuModel, TileOrderParameterOrdersTheTiles) {
  // A 2x2 grid recorded in scanline order: the Hilbert curve visits (0,0) (0,1) (1,1) (1,0)
  // (paper 001 Fig. 7), whatever order the renderer recorded.
  FrameSpec f;
  f.tiles_x = 2;
  f.tiles_y = 2;
  f.quad = heavy(8);
  const auto bytes = buildFrame(f);
  ParamSet hilbert = mobile4();
  hilbert.set("gpu.tile_order", "hilbert");
  ParamSet scanline = mobile4();
  scanline.set("gpu.tile_order", "scanline");
  auto visits = [](const FrameResults& r) {
    std::vector<std::pair<uint32_t, uint32_t>> v;
    for (const TileMetric& t : r.tile_metrics) {
      if (t.metric == "quads") v.emplace_back(t.tile_x, t.tile_y);
    }
    return v;
  };
  const FrameResults h = runModel(bytes, hilbert), s = runModel(bytes, scanline);
  using V = std::vector<std::pair<uint32_t, uint32_t>>;
  EXPECT_EQ(visits(h), (V{{0, 0}, {0, 1}, {1, 1}, {1, 0}}));
  EXPECT_EQ(visits(s), (V{{0, 0}, {1, 0}, {0, 1}, {1, 1}}));
  EXPECT_EQ(m(h, "quads"), m(s, "quads"));
}

TEST(GpuModelHooks, WholeTileAndRoundRobinSchedulers) {
  FrameSpec f;
  f.tiles_x = 4;
  f.quad = heavy(40);
  const auto bytes = buildFrame(f);
  Hooks whole;
  whole.quad_scheduler = std::make_shared<WholeTileScheduler>();
  const FrameResults w = runModel(bytes, classic(), whole);
  for (const CoreStats& c : w.cores) EXPECT_EQ(c.quads, 256u);
  // Each tile on one core: per-tile barriers serialise the tiles.
  EXPECT_GE(w.raster_cycles, 4u * 256 * 10);
  EXPECT_GT(w.cores_imbalance, 1.0);
  Hooks rr;
  rr.quad_scheduler = std::make_shared<RoundRobinScheduler>();
  const FrameResults r = runModel(bytes, classic(), rr);
  for (const CoreStats& c : r.cores) EXPECT_EQ(c.quads, 256u);
  EXPECT_LT(r.raster_cycles, w.raster_cycles / 3);
}

TEST(GpuModelHooks, QueuePrefetcherFillsL1BeforeTheQuadRuns) {
  FrameSpec f;
  f.quad = [](uint32_t, uint32_t qx, uint32_t qy) {
    QuadSpec q;
    q.instructions = 400;
    q.samples[0].push_back({0x2000'0000 + uint64_t{qy * 16 + qx} * 64});
    return q;
  };
  const auto bytes = buildFrame(f);
  const FrameResults base = runModel(bytes, mobile4());
  Hooks hooks;
  hooks.prefetcher = std::make_shared<QueuePrefetcher>();
  const FrameResults pf = runModel(bytes, mobile4(), hooks);
  EXPECT_EQ(m(base, "l1tex.prefetches"), 0);
  EXPECT_EQ(m(base, "l1tex.hits"), 0);
  EXPECT_EQ(m(pf, "l1tex.prefetches"), 256);
  EXPECT_EQ(m(pf, "l1tex.prefetch_fills"), 256);
  EXPECT_EQ(m(pf, "l1tex.hits"), 256);  // every demand access finds its prefetched line
  EXPECT_EQ(m(pf, "l1tex.accesses"), 256);
}

TEST(GpuModelHooks, LastLineBufferServesRepeatedLinesInFrontOfL1) {
  // Each quad: lanes 0..3 each sample the same line (first sample), then lane 0 a second line.
  FrameSpec f;
  f.quad = [](uint32_t, uint32_t qx, uint32_t qy) {
    QuadSpec q;
    const uint64_t line = 0x2000'0000 + uint64_t{qy * 16 + qx} * 128;
    for (uint32_t lane = 0; lane < 4; ++lane) q.samples[lane].push_back({line});
    q.samples[0].push_back({line + 64});
    return q;
  };
  const auto bytes = buildFrame(f);
  Hooks hooks;
  hooks.front_buffer = std::make_shared<LastLineBuffer>();
  const FrameResults r = runModel(bytes, mobile4(), hooks);
  // Per quad 5 lines: lanes 1-3 hit the register holding lane 0's line.
  EXPECT_EQ(m(r, "tfm.hits"), 256 * 3);
  EXPECT_EQ(m(r, "l1tex.accesses"), 256 * 2);
  EXPECT_EQ(m(r, "l1tex.accesses") + m(r, "tfm.hits"), m(r, "texture.lines"));
  const FrameResults base = runModel(bytes, mobile4());
  EXPECT_TRUE(std::isnan(base.metric("tfm.hits")));
}

TEST(GpuModel, OptNumbersDriveOptInTheTileCache) {
  // One 4-way set. Binning writes lines a b c d; tile 0 reads e then d. OPT (the OPT Numbers the
  // model computes per subpass, next_use.h) evicts a line never read again for e and hits on d;
  // MRU evicts d, the line written last.
  StreamWriter w;
  w.frame_begin(1, 32, 32);
  w.pass_begin(0, 32, 32, 32, 32, 1, 1);
  w.draw(0);
  for (uint64_t l = 0; l < 4; ++l) w.pb_write(kPbBase + l * 64, 64, 0, 0, 0);
  w.tile_begin(0, 0, 0, 0);
  w.pb_read(kPbBase + 4 * 64, 64, 0, 0xffffffffu);
  w.pb_read(kPbBase + 3 * 64, 64, 0, 0xffffffffu);
  w.tile_end(0);
  w.pass_end(0);
  w.frame_end();
  const auto bytes = w.finish();
  const ParamSet p = mobile4({"tile.size=256", "tile.ways=4", "tile.policy=opt"});
  const FrameResults opt = runModel(bytes, p);
  ParamSet mru = p;
  mru.set("tile.policy", "mru");
  const FrameResults recent = runModel(bytes, mru);
  EXPECT_EQ(m(opt, "tile.accesses"), 6);
  EXPECT_EQ(m(opt, "tile.hits"), 1);
  EXPECT_EQ(m(recent, "tile.hits"), 0);
}

// A texture organisation that sends every core's request to core 0's L1 (a shared L1).
class SharedL1 final : public TextureOrganisation {
 public:
  MemResponse access(MemoryHierarchy& h, const MemRequest& request, uint64_t now) override {
    MemRequest r = request;
    r.unit = 0;
    return h.access_private_l1(r, now);
  }
};

TEST(GpuModelHooks, TextureOrganisationReplacesThePrivateL1Path) {
  Hooks hooks;
  hooks.texture_organisation = [](MemoryHierarchy&) { return std::make_unique<SharedL1>(); };
  GpuModel model(smallCaches(), hooks);
  std::string error;
  const FrameResults r = model.run(buildFrame(mixedFrame()), &error);
  ASSERT_TRUE(error.empty()) << error;
  EXPECT_EQ(static_cast<double>(model.hierarchy()->l1tex(0).counters().accesses), m(r, "l1tex.accesses"));
  EXPECT_EQ(model.hierarchy()->l1tex(1).counters().accesses, 0u);
  EXPECT_TRUE(std::isnan(r.metric("l1tex.local_hits")));
}

}  // namespace
}  // namespace tessera::model
