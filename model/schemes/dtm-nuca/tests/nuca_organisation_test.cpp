// The NUCA organisation of the L1 texture caches wired into the model's memory hierarchy (paper
// 000): requests served locally, remotely or from L2 add up; exact latencies of a remote hit and of
// two requests meeting at the centralized table; the LRU rule of a just-exchanged owner on real
// caches; D-NUCA never holding a block in two L1s and migrating only on eviction.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "latency_path.h"
#include "dtm-nuca/nuca_organisation.h"
#include "tessera/model/configuration.h"

namespace tessera::model::dtm_nuca {
namespace {

using ::tessera::model::testing::LatencyPath;

// A hierarchy of `spec` (mobile32+<variant> plus overrides) with the organisation installed.
struct Rig {
  Configuration config;
  std::unique_ptr<MemoryHierarchy> h;
  NucaOrganisation* org = nullptr;

  explicit Rig(const std::string& spec) : config(parse_configuration(spec)) {
    h = std::make_unique<MemoryHierarchy>(HierarchyConfig::from_params(config.params));
    auto o = std::make_unique<NucaOrganisation>(DtmNucaConfig::from_params(config.params), *h);
    org = o.get();
    h->set_texture_organisation(std::move(o));
  }
  MemResponse read(uint32_t core, uint64_t line, uint64_t now) {
    MemRequest r;
    r.addr = line * 64;
    r.unit = static_cast<uint16_t>(core);
    return h->access(r, now);
  }
  uint32_t holders(uint64_t line) const {
    uint32_t n = 0;
    for (uint32_t c = 0; c < h->config().shader_cores; ++c) n += h->l1tex(c).contains(line * 64) ? 1 : 0;
    return n;
  }
};

uint64_t l2_texture_accesses(const MemoryHierarchy& h) {
  uint64_t n = 0;
  for (uint32_t c = 0; c < h.config().shader_cores; ++c) n += h.l2().counters().per_requester[h.l2_requester_texture(c)].accesses;
  return n;
}

// 32 cores with 8-line L1s under a random stream over 1024 lines: every request is counted once,
// where it was served, and the L1 counters say the same.
TEST(NucaOrganisation, LocalRemoteAndMissesAddUpToAccesses) {
  for (const char* variant : {"dtm-nuca", "dtm-nuca-dist", "d-nuca"}) {
    SCOPED_TRACE(variant);
    // Epochs for the Affinity Tables (d-nuca has none).
    const std::string epoch = std::string(variant) == "d-nuca" ? "" : "+nuca.epoch_accesses=500";
    Rig rig(std::string("mobile32+") + variant + "+l1tex.size=512+l1tex.ways=2" + epoch);
    std::mt19937 rng(7);
    std::uniform_int_distribution<uint32_t> core(0, 31);
    std::uniform_int_distribution<uint64_t> line(0, 1023);
    const uint64_t n = 20000;
    for (uint64_t i = 0; i < n; ++i) rig.read(core(rng), line(rng), i / 4);
    const TexturePathStats& s = rig.org->stats();
    const CacheCounters l1 = rig.h->l1tex_totals();
    EXPECT_EQ(s.requests(), n);
    EXPECT_EQ(l1.accesses, n);
    EXPECT_EQ(l1.hits, s.local_hits + s.remote_hits);
    EXPECT_EQ(s.local_hits + s.remote_hits + l1.misses, l1.accesses);
    EXPECT_EQ(l1.misses, s.local_l2_hits + s.local_l2_misses + s.remote_l2_hits + s.remote_l2_misses);
    EXPECT_EQ(l2_texture_accesses(*rig.h), l1.misses);
    EXPECT_GT(s.local_hits, 0u);
    EXPECT_GT(s.remote_hits, 0u);
    EXPECT_EQ(rig.org->mesh().counters().late, 0u);
    // Fig. 1 is recorded after every request.
    uint64_t recorded = 0;
    for (uint64_t k : rig.h->replication_histogram()) recorded += k;
    EXPECT_EQ(recorded, n);
  }
}

// D-NUCA (section VI): a random stream from 32 cores through 8-line L1s and a directory of 64
// entries (l2.size 4 KiB, 8 ways: it overflows) never leaves a block in two L1s, and the
// directory names exactly the L1 holding each block.
TEST(NucaOrganisation, DNucaNeverHoldsABlockInTwoL1s) {
  Rig rig("mobile32+d-nuca+l1tex.size=512+l1tex.ways=2+l2.size=4KiB");
  const DNucaDirectory& dir = *rig.org->directory();
  ASSERT_EQ(dir.entries(), 64u);
  std::mt19937 rng(12345);
  std::uniform_int_distribution<uint32_t> core(0, 31);
  std::uniform_int_distribution<uint64_t> line(0, 255);
  const auto check = [&](uint64_t l) {
    uint32_t holder = kNoOwner;
    for (uint32_t c = 0; c < 32; ++c) {
      if (rig.h->l1tex(c).contains(l * 64)) holder = c;
    }
    ASSERT_LE(rig.holders(l), 1u) << "line " << l;
    ASSERT_EQ(dir.holder(l), holder) << "line " << l;
  };
  for (uint64_t i = 0; i < 20000; ++i) {
    const uint64_t l = line(rng);
    rig.read(core(rng), l, i);
    check(l);
    if (i % 100 == 0) {
      for (uint64_t m = 0; m < 256; ++m) check(m);
    }
  }
  const TexturePathStats& s = rig.org->stats();
  EXPECT_GT(s.local_hits, 0u);
  EXPECT_GT(s.remote_hits, 0u);
  EXPECT_GT(s.local_l2_hits + s.local_l2_misses, 0u);
  EXPECT_EQ(s.remote_l2_hits + s.remote_l2_misses, 0u);  // the directory is exact: a holder always hits
  EXPECT_GT(dir.evictions(), 0u);                        // the full-directory path ran
  uint64_t held = 0;
  for (uint32_t c = 0; c < 32; ++c) {
    const CacheCounters& k = rig.h->l1tex(c).counters();
    held += k.fills - k.evictions - k.invalidations;
  }
  EXPECT_EQ(held, dir.tracked());
}

// D-NUCA migrates a block only when its holder evicts it: 1-line L1s.
TEST(NucaOrganisation, DNucaMigratesOnlyOnEviction) {
  Rig rig("mobile32+d-nuca+l1tex.size=64+l1tex.ways=1");
  EXPECT_EQ(rig.read(0, 1, 0).served_by, ServedBy::Dram);        // core 0 becomes the holder
  for (int i = 0; i < 3; ++i) EXPECT_EQ(rig.read(1, 1, 1000 * (i + 1)).served_by, ServedBy::Remote);
  EXPECT_EQ(rig.org->directory()->holder(1), 0u);
  EXPECT_FALSE(rig.h->l1tex(1).contains(64));                      // served without a copy
  rig.read(0, 2, 5000);                                            // core 0 evicts line 1
  EXPECT_EQ(rig.org->directory()->holder(1), kNoOwner);
  EXPECT_EQ(rig.read(1, 1, 6000).served_by, ServedBy::L2);         // now core 1 fetches it and holds it
  EXPECT_EQ(rig.org->directory()->holder(1), 1u);
}

// Section III-B: "the LRU counters are not updated when the local cache of a just-exchanged owner
// serves the block". One-set 2-way L1s, 1-block pages in 2 buckets (even lines bucket 0, odd
// lines bucket 1). Core 0 fills A and B (bucket 0), then hits A and fills C (bucket 1): as the
// owner of bucket 0 its hit refreshes A and B is evicted; once core 1 has taken bucket 0 from it,
// the hit leaves A the least recently used line and A is evicted.
TEST(NucaOrganisation, JustExchangedOwnerDoesNotRefreshLru) {
  const uint64_t A = 0, B = 2, C = 1;
  for (const bool exchanged : {false, true}) {
    SCOPED_TRACE(exchanged ? "bucket 0 moved to core 1" : "core 0 owns bucket 0");
    Rig rig("mobile32+dtm-nuca+l1tex.size=128+l1tex.ways=2+nuca.page_blocks=1+nuca.buckets=2");
    const AffinityTable& table = *rig.org->table();
    uint64_t t = 0;
    rig.read(0, A, t += 1000);  // core 0 acquires bucket 0
    rig.read(0, B, t += 1000);
    EXPECT_EQ(table.owner(0), 0u);
    if (exchanged) {
      // Core 1 reads B remotely until its counter saturates (15) against core 0's 2: it takes the
      // bucket (15 x 100 > 2 x 125).
      for (int i = 0; i < 15; ++i) EXPECT_EQ(rig.read(1, B, t += 1000).served_by, ServedBy::Remote);
      EXPECT_EQ(table.owner(0), 1u);
      EXPECT_EQ(rig.org->ownership_changes(), 1u);
    }
    EXPECT_EQ(rig.read(0, A, t += 1000).served_by, ServedBy::L1);  // a local hit either way
    rig.read(0, C, t += 1000);                                     // core 0 acquires bucket 1, fills C
    EXPECT_EQ(rig.h->l1tex(0).contains(A * 64), !exchanged);
    EXPECT_EQ(rig.h->l1tex(0).contains(B * 64), exchanged);
    EXPECT_FALSE(rig.h->l1tex(1).contains(B * 64));  // the remote reads never copied B to core 1
  }
}

// The latencies of an idle mesh, read from the rig's configuration and geometry.
struct IdleMesh {
  uint32_t l1, hop, table, line_flits;
  const Mesh2D& mesh;
  explicit IdleMesh(const Rig& rig)
      : l1(rig.config.params.get_u32("l1tex.latency")),
        hop(rig.config.params.get_u32("nuca.hop_latency")),
        table(rig.config.params.get_u32("nuca.table_latency")),
        line_flits(packet_flits(64 * 8, rig.config.params.get_u32("nuca.flit_bytes"))),
        mesh(rig.org->mesh()) {}
  uint32_t hops(uint32_t from, uint32_t to) const { return mesh.hops(mesh.router_of(from), mesh.router_of(to)); }
};

// A remote hit on an idle mesh (mobile32: 4 x 8 mesh, 2-cycle L1s, 64 B flits: a line is a head
// flit and one more), with 3 cycles per hop. Core 31 (row 3, column 7) reads a line core 0 (row 0,
// column 0) owns:
//  - distributed tables: probe 2, request 31 -> 0 over 10 hops (30), owner's L1 2, line 0 -> 31
//    over 10 hops (30) plus its trailing flit: 65;
//  - centralized table at router 11 (row 1, column 3): probe 2, 31 -> table 6 hops (18), table 1,
//    table -> 0 4 hops (12), owner's L1 2, line 0 -> 31 (30 + 1): 66.
TEST(NucaOrganisation, RemoteHitLatencyOnAnIdleMesh) {
  {
    // An epoch of 2 accesses: core 0's two reads end it, its claim reaches every table.
    Rig rig("mobile32+dtm-nuca-dist+nuca.hop_latency=3+nuca.epoch_accesses=2");
    rig.read(0, 5, 0);
    rig.read(0, 5, 1000);
    EXPECT_EQ(rig.org->distributed_tables()->epochs(), 1u);
    const MemResponse r = rig.read(31, 5, 100000);
    EXPECT_EQ(r.served_by, ServedBy::Remote);
    // From the geometry: the probe, the request's hops, the owner's L1, the line's hops and its
    // trailing flits (IV-A: one cycle per hop here three; a flit per cycle per link).
    const IdleMesh m(rig);
    EXPECT_EQ(m.hops(31, 0), 10u);
    EXPECT_EQ(r.latency, m.l1 + m.hops(31, 0) * m.hop + m.l1 + m.hops(0, 31) * m.hop + (m.line_flits - 1));
    EXPECT_EQ(r.latency, 2u + 10 * 3 + 2 + 10 * 3 + 1);  // the same, worked out by hand
  }
  {
    Rig rig("mobile32+dtm-nuca+nuca.hop_latency=3");
    rig.read(0, 5, 0);  // core 0 acquires the bucket and fills the line
    const MemResponse r = rig.read(31, 5, 100000);
    EXPECT_EQ(r.served_by, ServedBy::Remote);
    // Through the table: its one-flit request, the table's latency, the forward to the owner.
    const IdleMesh m(rig);
    const uint32_t table = rig.org->path().lookup_endpoint();
    EXPECT_EQ(r.latency, m.l1 + m.hops(31, table) * m.hop + m.table + m.hops(table, 0) * m.hop + m.l1 +
                             m.hops(0, 31) * m.hop + (m.line_flits - 1));
    EXPECT_EQ(r.latency, 2u + 6 * 3 + 1 + 4 * 3 + 2 + 10 * 3 + 1);  // the same, worked out by hand
  }
}

// Section IV-A: the centralized table is a node of the mesh; requests reaching it together are
// taken one per cycle. Cores 10 and 12, one hop west and east of the table (router 11), own
// buckets 0 and 1 and miss, at the same cycle, on lines of those buckets that L2 holds (in
// different L2 banks); with nuca.owner_lookup=true an owner's miss asks the table too: core 10's
// request is taken at once, core 12's one cycle later, and its answer, its L2 read and its data
// are one cycle later too.
TEST(NucaOrganisation, TwoSimultaneousRequestsSerialiseAtTheTable) {
  Rig rig("mobile32+dtm-nuca+nuca.owner_lookup=true");
  rig.read(10, 0, 0);  // line 0: page 0, bucket 0
  rig.read(12, 8, 0);  // line 8: page 1, bucket 1
  ASSERT_EQ(rig.org->table()->owner(0), 10u);
  ASSERT_EQ(rig.org->table()->owner(1), 12u);
  // Lines 256 (bucket 0, L2 bank 0) and 265 (bucket 1, L2 bank 1) into L2 only.
  rig.h->access_below_l1(0, 256 * 64, false, AccessInfo{}, 0);
  rig.h->access_below_l1(0, 265 * 64, false, AccessInfo{}, 0);
  const uint64_t packets = rig.org->mesh().counters().packets;
  const uint64_t contention = rig.org->mesh().counters().contention_cycles;
  const MemResponse first = rig.read(10, 256, 100000);
  const MemResponse second = rig.read(12, 265, 100000);
  // Probe (the L1 latency), to the table 1 hop, the table, the answer back 1 hop, then an L2 hit
  // over the L1-to-L2 interconnect (latency_path.h).
  const ParamSet& p = rig.config.params;
  const LatencyPath path(p);
  EXPECT_EQ(first.served_by, ServedBy::L2);
  EXPECT_EQ(first.latency, path.l1 + p.get_u32("nuca.hop_latency") + p.get_u32("nuca.table_latency") +
                               p.get_u32("nuca.hop_latency") + (path.l2_hit() - path.l1));
  EXPECT_EQ(second.served_by, ServedBy::L2);
  EXPECT_EQ(second.latency, first.latency + 1);
  EXPECT_EQ(rig.org->mesh().counters().packets - packets, 4u);
  EXPECT_EQ(rig.org->mesh().counters().contention_cycles - contention, 1u);
}

// By default an owner knows its buckets (III-B's LRU rule needs it to): its miss reads L2 with
// no packet on the mesh, in exactly the baseline's L1-miss, L2-hit latency, and its access still
// counts in the table.
TEST(NucaOrganisation, AnOwnersMissGoesToL2WithoutAskingTheTable) {
  Rig rig("mobile32+dtm-nuca");
  rig.read(10, 0, 0);  // core 10 acquires bucket 0 (it asked: it did not own it yet)
  ASSERT_EQ(rig.org->table()->owner(0), 10u);
  rig.h->access_below_l1(0, 256 * 64, false, AccessInfo{}, 0);  // line 256, bucket 0, into L2
  const uint64_t packets = rig.org->mesh().counters().packets;
  const uint64_t requests = rig.org->table()->requests();
  const uint64_t lookups = rig.org->path().lookups();
  const MemResponse r = rig.read(10, 256, 100000);
  const LatencyPath path(rig.config.params);
  EXPECT_EQ(r.served_by, ServedBy::L2);
  EXPECT_EQ(r.latency, path.l2_hit());
  EXPECT_EQ(rig.org->mesh().counters().packets, packets);
  EXPECT_EQ(rig.org->path().lookups(), lookups);
  EXPECT_EQ(rig.org->table()->requests(), requests + 1);
  EXPECT_EQ(rig.org->table()->counter(0, 10), 2u);  // the acquiring request and this miss
}

// III-B: after an exchange the old owner's copies keep serving its local hits, without refreshing
// its LRU state, until its own fills evict them; then it asks the new owner like any other core.
// One 2-way set per L1 (128 B), buckets of one line (A = 0, B = 2 in bucket 0; C = 1, D = 3 in
// bucket 1).
TEST(NucaOrganisation, AnOldOwnersCopyServesLocalHitsUntilEvicted) {
  const uint64_t A = 0, B = 2, C = 1, D = 3;
  Rig rig("mobile32+dtm-nuca+l1tex.size=128+l1tex.ways=2+nuca.page_blocks=1+nuca.buckets=2");
  uint64_t t = 0;
  rig.read(0, A, t += 1000);
  rig.read(0, B, t += 1000);  // core 0 owns bucket 0 and holds A (older) and B
  for (int i = 0; i < 15; ++i) rig.read(1, B, t += 1000);  // core 1 saturates and takes bucket 0
  ASSERT_EQ(rig.org->table()->owner(0), 1u);
  ASSERT_EQ(rig.org->table()->previous_owner(0), 0u);
  const uint64_t local = rig.org->stats().local_hits;
  EXPECT_EQ(rig.read(0, B, t += 1000).served_by, ServedBy::L1);
  EXPECT_EQ(rig.read(0, A, t += 1000).served_by, ServedBy::L1);
  EXPECT_EQ(rig.read(0, B, t += 1000).served_by, ServedBy::L1);
  EXPECT_EQ(rig.org->stats().local_hits, local + 3);
  rig.read(0, C, t += 1000);  // core 0 acquires bucket 1; its fill evicts A, the older of the two
  EXPECT_FALSE(rig.h->l1tex(0).contains(A * 64));
  EXPECT_EQ(rig.read(0, B, t += 1000).served_by, ServedBy::L1);  // B still serves locally
  rig.read(0, D, t += 1000);  // and the next fill evicts B, never refreshed by its hits
  EXPECT_FALSE(rig.h->l1tex(0).contains(B * 64));
  const uint64_t remote = rig.org->stats().remote_hits + rig.org->stats().remote_l2_hits + rig.org->stats().remote_l2_misses;
  EXPECT_NE(rig.read(0, B, t += 1000).served_by, ServedBy::L1);  // now from its owner, core 1
  EXPECT_EQ(rig.org->stats().remote_hits + rig.org->stats().remote_l2_hits + rig.org->stats().remote_l2_misses,
            remote + 1);
}

// III-B freezes the LRU state of the just-exchanged owner only: once bucket 0 has moved on again
// (0 -> 1 -> 2), core 0 is no longer that owner, and its hits on its old copies refresh them like
// any hit.
TEST(NucaOrganisation, OnlyTheJustExchangedOwnerLeavesItsLruAlone) {
  const uint64_t A = 0, B = 2, C = 1;
  Rig rig("mobile32+dtm-nuca+l1tex.size=128+l1tex.ways=2+nuca.page_blocks=1+nuca.buckets=2");
  uint64_t t = 0;
  rig.read(0, A, t += 1000);
  rig.read(0, B, t += 1000);
  for (int i = 0; i < 15; ++i) rig.read(1, B, t += 1000);  // 0 -> 1: core 1 at 15 against 2
  ASSERT_EQ(rig.org->table()->owner(0), 1u);
  // Halved to core 1's 7; core 2 saturating at 15 beats it by the 25 % (15 x 100 > 7 x 125).
  for (int i = 0; i < 15; ++i) rig.read(2, B, t += 1000);
  ASSERT_EQ(rig.org->table()->owner(0), 2u);
  ASSERT_EQ(rig.org->table()->previous_owner(0), 1u);
  EXPECT_EQ(rig.read(0, A, t += 1000).served_by, ServedBy::L1);  // refreshes A over B
  rig.read(0, C, t += 1000);
  EXPECT_TRUE(rig.h->l1tex(0).contains(A * 64));
  EXPECT_FALSE(rig.h->l1tex(0).contains(B * 64));
}

// nuca.requester_fill (ours): a line served remotely is also put in the requester's L1, at the
// LRU position: the next fill of that set evicts it before the line the requester already held.
TEST(NucaOrganisation, ARequesterFillGoesInAtTheLruPosition) {
  const uint64_t A = 0, C = 1, D = 3;
  for (const bool fill : {false, true}) {
    SCOPED_TRACE(fill ? "requester fill" : "no requester fill");
    Rig rig(std::string("mobile32+dtm-nuca+l1tex.size=128+l1tex.ways=2+nuca.page_blocks=1+nuca.buckets=2") +
            (fill ? "+nuca.requester_fill=true" : ""));
    uint64_t t = 0;
    rig.read(0, A, t += 1000);  // core 0 owns bucket 0, holds A
    rig.read(1, C, t += 1000);  // core 1 owns bucket 1, holds C
    EXPECT_EQ(rig.read(1, A, t += 1000).served_by, ServedBy::Remote);  // from core 0
    EXPECT_EQ(rig.h->l1tex(1).contains(A * 64), fill);
    rig.read(1, D, t += 1000);  // core 1's own fill: evicts the copy of A, not the older C
    EXPECT_TRUE(rig.h->l1tex(1).contains(C * 64));
    EXPECT_FALSE(rig.h->l1tex(1).contains(A * 64));
    EXPECT_TRUE(rig.h->l1tex(1).contains(D * 64));
  }
  // The LRU insertion is the LRU policy's: another policy is refused, by the scheme before any
  // frame and by the organisation itself.
  EXPECT_THROW(parse_configuration("mobile32+dtm-nuca+nuca.requester_fill=true+l1tex.policy=mru").make_model(),
               ParamError);
  const Configuration c = parse_configuration("mobile32+dtm-nuca+nuca.requester_fill=true+l1tex.policy=mru");
  MemoryHierarchy h(HierarchyConfig::from_params(c.params));
  EXPECT_THROW(NucaOrganisation(DtmNucaConfig::from_params(c.params), h), std::invalid_argument);
}

// The utilisation metrics are flits per frame cycle of the busiest link, of all links and of the
// table's busier port; above 90 % a frame carries a warning line. Core 31 asks the table (router
// 11, 6 hops away) for a line core 0 owns: 1 flit into the table, 1 forwarded to core 0, a 2-flit
// line from core 0 to core 31 (10 hops).
TEST(NucaOrganisation, LinkAndTablePortUtilisationAndTheirWarning) {
  Rig rig("mobile32+dtm-nuca");
  rig.read(0, 5, 0);  // core 0 acquires the bucket (1 flit in, 1 answer out of the table)
  rig.org->begin_frame();
  rig.read(31, 5, 100000);
  const Mesh2D& mesh = rig.org->mesh();
  ASSERT_EQ(mesh.port_flits(rig.org->path().lookup_endpoint()), 1u);  // 1 in, 1 out: the busier carries 1
  const uint64_t links = uint64_t{1} * 6 + 1 * 4 + 2 * 10;  // flit-hops of the three packets
  ASSERT_EQ(mesh.link_flits(), links);
  ASSERT_EQ(mesh.busiest_link_flits(), 2u);  // the three routes share no link: the line's carry 2
  auto metrics = [&](uint64_t cycles) {
    FrameResults r;
    r.cycles = cycles + 1000;  // a geometry phase the mesh is idle in: not in the denominator
    r.raster_cycles = cycles;
    rig.org->append_metrics(r);
    return r;
  };
  const FrameResults quiet = metrics(100);
  EXPECT_DOUBLE_EQ(quiet.metric("nuca.table_port_utilisation"), 0.01);
  EXPECT_DOUBLE_EQ(quiet.metric("nuca.link_utilisation"), 0.02);
  EXPECT_DOUBLE_EQ(quiet.metric("nuca.mean_link_utilisation"), static_cast<double>(links) / mesh.links() / 100);
  EXPECT_TRUE(quiet.warnings.empty());
  const FrameResults busy = metrics(2);  // the busiest link carried a flit every cycle, the port every other
  ASSERT_EQ(busy.warnings.size(), 1u);
  EXPECT_EQ(busy.warnings[0],
            "dtm-nuca: the busiest mesh link carried a flit in 100 % of the raster cycles (saturated above 90 %)");
  const FrameResults port = metrics(1);
  ASSERT_EQ(port.warnings.size(), 2u);
  EXPECT_EQ(port.warnings[1],
            "dtm-nuca: the Affinity Table's port carried a flit in 100 % of the raster cycles (saturated above 90 %)");
  // The distributed tables have no table node: no port metric.
  Rig dist("mobile32+dtm-nuca-dist");
  FrameResults r;
  r.cycles = 1;
  dist.org->append_metrics(r);
  EXPECT_TRUE(std::isnan(r.metric("nuca.table_port_utilisation")));
}

// The organisation refuses what the timing model never sends, with one line.
TEST(NucaOrganisation, RefusesTextureWritesAndMissingCores) {
  Rig rig("mobile32+dtm-nuca");
  MemRequest w;
  w.write = true;
  EXPECT_THROW(rig.h->access(w, 0), std::invalid_argument);
  MemRequest far;
  far.unit = 32;
  EXPECT_THROW(rig.h->access(far, 0), std::out_of_range);
}

}  // namespace
}  // namespace tessera::model::dtm_nuca
