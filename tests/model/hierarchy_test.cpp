// Hierarchy assembly: latencies per access, counters that reconcile on a random multi-core
// stream, replication degree, and the seams for later schemes.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <random>

#include "latency_path.h"
#include "tessera/model/hierarchy.h"

namespace tessera::model {
namespace {

using Path = testing::LatencyPath;

MemRequest tex(uint16_t core, uint64_t addr) {
  MemRequest r;
  r.addr = addr;
  r.unit = core;
  r.stream = Stream::Texture;
  return r;
}

TEST(Hierarchy, LatencyPerLevel) {
  const ParamSet p = make_preset("mobile4");
  const Path path(p);
  // mobile4: 50-100 memory cycles at 400 MHz are 75-150 GPU cycles; 4 B per memory cycle over
  // two channels is 1.33 B per GPU cycle per channel, 48 cycles a line.
  EXPECT_EQ(path.row_miss, 150u);
  EXPECT_EQ(path.dram_transfer, 48u);
  MemoryHierarchy h(HierarchyConfig::from_params(p));
  MemResponse r = h.access(tex(0, 0x10000), 0);
  EXPECT_EQ(r.served_by, ServedBy::Dram);
  EXPECT_EQ(r.latency, path.dram(path.row_miss));
  r = h.access(tex(0, 0x10000), 400);
  EXPECT_EQ(r.served_by, ServedBy::L1);
  EXPECT_EQ(r.latency, path.l1);
  r = h.access(tex(1, 0x10008), 500);  // same line, other core: L2 hit
  EXPECT_EQ(r.served_by, ServedBy::L2);
  EXPECT_EQ(r.latency, path.l2_hit());
  // The page's line 3 is on line 0's channel (dram.channel_map=xor folds 0b11 to 0; plain
  // interleaving over 2 channels puts odd lines elsewhere, so line 2 there), same row (open): a hit.
  r = h.access(tex(2, 0x100c0), 1000);
  EXPECT_EQ(r.served_by, ServedBy::Dram);
  EXPECT_EQ(r.latency, path.dram(path.row_hit));
}

TEST(Hierarchy, BankedL2Arbitration) {
  ParamSet p = make_preset("mobile32");
  const Path path(p);
  MemoryHierarchy h(HierarchyConfig::from_params(p));
  h.access(tex(0, 0), 0);
  h.access(tex(1, 0), 1000);  // warm L2
  // Two cores miss in L1 on the same line in the same cycle: the bus takes the second request
  // flit a cycle later, and its line comes back a cycle after the first's.
  const MemResponse a = h.access(tex(2, 0), 2000);
  const MemResponse b = h.access(tex(3, 0), 2000);
  EXPECT_EQ(a.latency, path.l2_hit());
  EXPECT_EQ(b.latency, path.l2_hit() + 1);
  // Over a crossbar two lines of different L2 banks do not contend; of one bank they do.
  p.set("interconnect.topology", "crossbar");
  MemoryHierarchy x(HierarchyConfig::from_params(p));
  const uint64_t line = p.get_u32("l2.line");
  for (uint64_t a2 : {uint64_t{0}, line, 8 * line}) x.access(tex(0, a2), 0);  // banks 0, 1, 0
  const MemResponse c = x.access(tex(1, 0), 5000);
  const MemResponse d = x.access(tex(2, line), 5000);
  const MemResponse e = x.access(tex(3, 8 * line), 5000);
  EXPECT_EQ(c.latency, path.l2_hit());
  EXPECT_EQ(d.latency, path.l2_hit());
  EXPECT_EQ(e.latency, path.l2_hit() + 1);
}

TEST(Hierarchy, ReplicationDegree) {
  MemoryHierarchy h(HierarchyConfig::from_params(make_preset("mobile4")));
  for (uint16_t c = 0; c < 4; ++c) h.access(tex(c, 0x4000), c * 1000);
  h.access(tex(0, 0x8000), 9000);
  // After core k reads the block it resides in k+1 caches; the last block in one.
  const std::vector<uint64_t> expect{0, 2, 1, 1, 1};
  EXPECT_EQ(h.replication_histogram(), expect);
}

// The incremental holder counts (LineHolders) against a probe of every L1 after each request,
// with prefetches, evictions and the deletions they cause in the table.
TEST(Hierarchy, ReplicationCountsMatchAProbeOfEveryL1) {
  for (const char* preset : {"mobile4", "mobile32"}) {
    ParamSet p = make_preset(preset);
    p.set("l1tex.size", "1KiB");
    MemoryHierarchy h(HierarchyConfig::from_params(p));
    const uint32_t cores = h.config().shader_cores;
    std::vector<uint64_t> expect(cores + 1, 0);
    std::mt19937_64 rng(7);
    for (int i = 0; i < 50000; ++i) {
      const uint16_t core = static_cast<uint16_t>(rng() % cores);
      const uint64_t addr = 0x1000'0000 + (rng() % 600) * 64 + rng() % 64;
      if (rng() % 8 == 0) {
        h.prefetch_texture(core, addr ^ 0x40, static_cast<uint64_t>(i));
        continue;
      }
      h.access(tex(core, addr), static_cast<uint64_t>(i));
      uint32_t holders = 0;
      for (uint32_t c = 0; c < cores; ++c) holders += h.l1tex(c).contains(addr) ? 1 : 0;
      ++expect[holders];
    }
    EXPECT_EQ(h.replication_histogram(), expect) << preset;
    EXPECT_GT(expect[2], 0u) << preset;
  }
}

TEST(Hierarchy, CountersReconcileOnRandomMultiCoreStream) {
  ParamSet p = make_preset("mobile4");
  p.set("l1tex.size", "4KiB");  // small caches so every path (evictions, write-backs) is exercised
  p.set("tile.size", "4KiB");
  p.set("vertex.size", "2KiB");
  p.set("l2.size", "32KiB");
  p.set("l2.banks", "4");
  MemoryHierarchy h(HierarchyConfig::from_params(p));
  std::mt19937_64 rng(42);
  uint64_t texture_requests = 0;
  uint64_t now = 0;
  for (int i = 0; i < 200000; ++i) {
    MemRequest r;
    const uint64_t kind = rng() % 10;
    if (kind < 7) {
      r.stream = Stream::Texture;
      r.unit = static_cast<uint16_t>(rng() % 4);
      r.addr = (rng() % 4096) * 64 + (rng() % 64);  // 256 KiB of texture
      ++texture_requests;
    } else if (kind < 8) {
      r.stream = Stream::Vertex;
      r.addr = 0x4000000 + (rng() % 1024) * 64;
    } else {
      r.stream = Stream::Tile;  // Parameter Buffer: written by binning, read by the tile fetcher
      r.addr = 0x8000000 + (rng() % 2048) * 64;
      r.write = rng() % 3 == 0;
      r.full_line = r.write && rng() % 2 == 0;
    }
    now += rng() % 3;
    const MemResponse resp = h.access(r, now);
    EXPECT_GE(resp.latency, 1u);
  }

  auto checkCache = [](const CacheCounters& c) {
    EXPECT_EQ(c.hits + c.misses, c.accesses);
    EXPECT_EQ(c.reads + c.writes, c.accesses);
    EXPECT_EQ(c.read_misses + c.write_misses, c.misses);
  };
  const CacheCounters& l2 = h.l2().counters();
  checkCache(l2);
  uint64_t from_first_level = 0;
  for (uint32_t core = 0; core < 4; ++core) {
    const CacheCounters& c = h.l1tex(core).counters();
    checkCache(c);
    EXPECT_EQ(c.writes, 0u);
    // Read-only L1: every miss is one L2 access from this core.
    EXPECT_EQ(c.misses, l2.per_requester[h.l2_requester_texture(core)].accesses);
    EXPECT_GT(c.evictions, 0u);
    from_first_level += c.next_level_traffic();
  }
  const CacheCounters& vx = h.vertex_cache(0).counters();
  checkCache(vx);
  EXPECT_EQ(vx.next_level_traffic(), l2.per_requester[h.l2_requester_vertex(0)].accesses);
  const CacheCounters& tc = h.tile_cache().counters();
  checkCache(tc);
  EXPECT_GT(tc.writebacks, 0u);
  EXPECT_EQ(tc.next_level_traffic(), l2.per_requester[h.l2_requester_tile()].accesses);
  from_first_level += vx.next_level_traffic() + tc.next_level_traffic();
  EXPECT_EQ(from_first_level, l2.accesses);

  uint64_t per_requester_sum = 0;
  for (const auto& rc : l2.per_requester) {
    EXPECT_EQ(rc.hits + rc.misses, rc.accesses);
    per_requester_sum += rc.accesses;
  }
  EXPECT_EQ(per_requester_sum, l2.accesses);

  // L2 misses that fetch + L2 write-backs = DRAM traffic.
  const DramCounters& d = h.dram().counters();
  EXPECT_GT(l2.writebacks, 0u);
  EXPECT_EQ(d.reads, l2.fetches);
  EXPECT_EQ(d.writes, l2.writebacks + l2.write_throughs);
  EXPECT_EQ(d.accesses(), l2.next_level_traffic());
  EXPECT_EQ(d.row_hits + d.row_misses, d.accesses());

  const CacheCounters totals = h.l1tex_totals();
  EXPECT_EQ(totals.accesses, texture_requests);
  const auto& hist = h.replication_histogram();
  EXPECT_EQ(std::accumulate(hist.begin(), hist.end(), uint64_t{0}), texture_requests);
  EXPECT_EQ(hist[0], 0u);  // an LRU L1 always holds the block it just served
}

TEST(Hierarchy, PrefetchFillsL1WithoutDemandAccess) {
  MemoryHierarchy h(HierarchyConfig::from_params(make_preset("mobile4")));
  const uint64_t ready = h.prefetch_texture(2, 0x7000, 0);
  const Path path(make_preset("mobile4"));
  EXPECT_EQ(ready, path.dram(path.row_miss));
  const MemResponse r = h.access(tex(2, 0x7000), ready);
  EXPECT_EQ(r.served_by, ServedBy::L1);
  const CacheCounters& c = h.l1tex(2).counters();
  EXPECT_EQ(c.prefetches, 1u);
  EXPECT_EQ(c.prefetch_fills, 1u);
  EXPECT_EQ(c.accesses, 1u);
  EXPECT_EQ(c.hits, 1u);
  EXPECT_EQ(h.l2().counters().per_requester[2].accesses, 1u);
}

// Trivial second texture organisation: every core shares core 0's L1 (a stand-in for the
// NUCA organisations of paper 000), built only from the hierarchy's public pieces.
class SharedL1 final : public TextureOrganisation {
 public:
  MemResponse access(MemoryHierarchy& h, const MemRequest& request, uint64_t now) override {
    const CacheOutcome o = h.l1tex(0).access(request.addr, false, 0, AccessInfo{});
    MemResponse r{h.config().l1tex.hit_latency, ServedBy::L1};
    if (o.fetch) {
      const MemResponse below = h.access_below_l1(h.l2_requester_texture(0), request.addr, false, AccessInfo{}, now + r.latency);
      r.latency += below.latency;
      r.served_by = below.served_by;
    }
    h.record_replication(request.addr);
    return r;
  }
};

TEST(Hierarchy, TextureOrganisationSeam) {
  MemoryHierarchy h(HierarchyConfig::from_params(make_preset("mobile4")));
  h.set_texture_organisation(std::make_unique<SharedL1>());
  h.access(tex(0, 0x1000), 0);
  const MemResponse r = h.access(tex(3, 0x1000), 500);
  EXPECT_EQ(r.served_by, ServedBy::L1);  // core 3 hits the shared cache
  EXPECT_EQ(h.l1tex(0).counters().accesses, 2u);
  EXPECT_EQ(h.l1tex(3).counters().accesses, 0u);
  EXPECT_EQ(h.replication_histogram()[1], 2u);
}

TEST(Hierarchy, TileCacheWithOptNumbers) {
  ParamSet p = make_preset("mobile4");
  p.set("tile.size", "128");  // 2 lines, 1 set: the 2-line cache of paper 003 Fig. 10
  p.set("tile.ways", "2");
  p.set("tile.policy", "opt");
  MemoryHierarchy h(HierarchyConfig::from_params(p));
  auto pb = [&](uint64_t line, uint64_t next_use) {
    MemRequest r;
    r.stream = Stream::Tile;
    r.addr = 0x100000 + line * 64;
    r.next_use = next_use;
    return h.access(r, 0).served_by == ServedBy::L1;
  };
  // Lines A, B, C; A is reused at tile 3, B at tile 9, C at tile 4: OPT evicts B for C.
  EXPECT_FALSE(pb(0, 3));
  EXPECT_FALSE(pb(1, 9));
  EXPECT_FALSE(pb(2, 4));
  EXPECT_TRUE(pb(0, kNoNextUse));
  EXPECT_TRUE(pb(2, kNoNextUse));
  EXPECT_EQ(h.tile_cache().counters().hits, 2u);
}

TEST(Hierarchy, RejectsUnknownUnits) {
  MemoryHierarchy h(HierarchyConfig::from_params(make_preset("mobile4")));
  EXPECT_THROW(h.access(tex(4, 0), 0), std::out_of_range);
  MemRequest v;
  v.stream = Stream::Vertex;
  v.unit = 1;
  EXPECT_THROW(h.access(v, 0), std::out_of_range);
}

TEST(Hierarchy, Mobile32Assembly) {
  MemoryHierarchy h(HierarchyConfig::from_params(make_preset("mobile32")));
  EXPECT_EQ(h.config().shader_cores, 32u);
  EXPECT_EQ(h.config().vertex_processors, 4u);
  EXPECT_EQ(h.l2_requesters(), 37u);
  EXPECT_EQ(h.l2().counters().per_requester.size(), 37u);
  // Paper 000 Table I: 4 B per 400 MHz memory cycle over the two channels, in 600 MHz GPU cycles.
  EXPECT_DOUBLE_EQ(h.config().dram.bytes_per_cycle, 4.0 / 2 * 400.0 / 600.0);
  EXPECT_EQ(h.replication_histogram().size(), 33u);
}

}  // namespace
}  // namespace tessera::model
