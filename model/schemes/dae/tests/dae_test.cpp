// Paper 002 (DAE): the prefetch queue's timing and Source field, late and useful prefetches,
// dependent reads left to execution.
#include <gtest/gtest.h>

#include "frame_builder.h"
#include "refusal.h"
#include "latency_path.h"
#include "dae/prefetch_queue.h"
#include "tessera/model/configuration.h"
#include "tessera/model/hierarchy.h"

namespace tessera::model {
namespace {

using namespace testing;
using dae::PrefetchQueues;

HierarchyConfig mobile4_hierarchy() { return HierarchyConfig::from_params(make_preset("mobile4")); }

// The hooks Configuration::make_model would install for `schemes`, for a test to wrap or to
// install past the configuration's checks.
Hooks scheme_hooks(const std::vector<const SchemeInfo*>& schemes, const ParamSet& p) {
  Hooks hooks;
  for (const SchemeInfo* s : schemes) {
    std::shared_ptr<SchemeInstance> instance = s->make(p);
    install_scheme(*s, *instance, hooks);
    hooks.observers.push_back(instance);
  }
  return hooks;
}

// Entries leave in order at the issue rate, never before they exist; a line already waiting in
// the same queue is not queued twice; a full queue drops.
TEST(DaePrefetchQueue, DispatchesInOrderAtTheIssueRate) {
  PrefetchQueues q(1, 2, 2, false);
  EXPECT_EQ(q.insert(0, 0x100, 10).dispatch, 10u);
  EXPECT_EQ(q.insert(0, 0x140, 10).dispatch, 10u);
  EXPECT_EQ(q.insert(0, 0x180, 10).dispatch, 11u);
  EXPECT_EQ(q.insert(0, 0x180, 10).kind, PrefetchQueues::Insert::Duplicate);
  EXPECT_EQ(q.insert(0, 0x1c0, 10).dispatch, 11u);  // the first two left at 10, two places free
  EXPECT_EQ(q.insert(0, 0x200, 10).kind, PrefetchQueues::Insert::Full);
  EXPECT_EQ(q.queued(0, 10), 2u);
  EXPECT_EQ(q.insert(0, 0x200, 30).dispatch, 30u);
}

// Section 3: the new entry's address is compared with every entry queued for the other
// processors; a match names that processor (the one dispatching it first), none names L2.
TEST(DaePrefetchQueue, SourceMatchPicksTheRemoteCore) {
  PrefetchQueues q(3, 8, 1, true);
  for (uint64_t line : {0xa0, 0xb0, 0xc0}) q.insert(2, line, 0);  // dispatched at 0, 1, 2
  for (uint64_t line : {0xd0, 0xe0, 0xf0, 0xc0}) q.insert(1, line, 0);  // 0xc0 at 3
  const PrefetchQueues::Insert in = q.insert(0, 0xc0, 1);
  EXPECT_EQ(in.kind, PrefetchQueues::Insert::Queued);
  EXPECT_EQ(in.source, 2u);    // core 2 dispatches 0xc0 at 2, core 1 at 3
  EXPECT_EQ(in.compared, 3u);  // queued at 1: core 2's c0, core 1's f0 and c0
  EXPECT_EQ(q.insert(0, 0x99, 1).source, PrefetchQueues::kL2);
  PrefetchQueues alone(3, 8, 1, false);
  alone.insert(2, 0xc0, 0);
  alone.insert(2, 0xc1, 0);
  EXPECT_EQ(alone.insert(0, 0xc1, 0).source, PrefetchQueues::kL2);
}

// A prefetch dispatched at t for a line L2 holds fills the L1 when an L2 hit's line is back (L1
// lookup, the interconnect both ways, L2: latency_path.h); a demand access then hits at the L1
// latency, the L2 latency hidden exactly, and counts as a useful prefetch. One arriving before the
// fill waits for it and counts as late.
TEST(DaeHierarchy, PrefetchHidesTheL2LatencyAndLateOnesWait) {
  const LatencyPath path(make_preset("mobile4"));
  MemoryHierarchy h(mobile4_hierarchy());
  MemRequest warm;
  warm.unit = 1;
  for (uint64_t a : {0x1000, 0x2000}) {
    warm.addr = a;
    h.access(warm, 0);  // now in L2 (and core 1's L1)
  }
  h.begin_frame();
  EXPECT_EQ(h.prefetch_texture(0, 0x1000, 1000), 1000 + path.l2_hit());
  MemRequest r;
  r.unit = 0;
  r.addr = 0x1000;
  EXPECT_EQ(h.access(r, 1000 + path.l2_hit()).latency, path.l1);
  EXPECT_EQ(h.prefetch_texture(0, 0x2000, 2000), 2000 + path.l2_hit());
  r.addr = 0x2000;
  EXPECT_EQ(h.access(r, 2005).latency, path.l2_hit() - 5);  // waits for the fill in flight
  const CacheCounters c = h.l1tex(0).counters();
  EXPECT_EQ(c.prefetch_hits, 2u);
  EXPECT_EQ(c.late_prefetch_hits, 1u);
  EXPECT_EQ(c.misses, 0u);
  // A second demand hit on the same line is an ordinary hit.
  EXPECT_EQ(h.access(r, 3000).latency, path.l1);
  EXPECT_EQ(h.l1tex(0).counters().prefetch_hits, 2u);
}

// With a Source, the L1 of that core serves the line over the interconnect (once its own fill is
// there), L2 sees nothing; a Source that does not hold the line passes the request to L2 after
// the round trip.
TEST(DaeHierarchy, SourceCoreServesThePrefetch) {
  MemoryHierarchy h(mobile4_hierarchy());
  const uint64_t remote_ready = h.prefetch_texture(2, 0x4000, 100);  // from DRAM
  const uint64_t l2_before = h.l2().counters().accesses;
  const auto o = h.prefetch_texture(0, 0x4000, 101, 2, 4);
  EXPECT_EQ(o.served_by, ServedBy::Remote);
  EXPECT_EQ(o.ready, remote_ready + 4);
  EXPECT_EQ(h.l2().counters().accesses, l2_before);
  MemRequest warm;
  warm.unit = 3;
  warm.addr = 0x8000;
  h.access(warm, 0);  // in L2, not in core 2's L1
  const auto miss = h.prefetch_texture(0, 0x8000, 5000, 2, 4);
  EXPECT_TRUE(miss.remote_miss);
  EXPECT_EQ(miss.served_by, ServedBy::L2);
  // The round trip to the Source (4 cycles) after the L1 lookup, then L2's.
  const LatencyPath path(make_preset("mobile4"));
  EXPECT_EQ(miss.ready, 5000u + 4 + path.l2_hit());
  EXPECT_THROW(h.prefetch_texture(0, 0x9000, 0, 0, 4), std::out_of_range);  // a core is not its own source
}

// One shader core running one quad at a time, each quad sampling its own line; 1024 lines cycle
// through a 256-line L1, so on the second frame every line misses L1 and hits L2. With the
// prefetch queue each quad's line is in L1 when its sample issues: the core saves exactly what an
// L2 hit adds to an L1 hit (L2 and the interconnect) per quad.
TEST(DaeModel, PrefetchQueueHidesExactlyTheL2Latency) {
  FrameSpec f;
  f.tiles_x = 2;
  f.tiles_y = 2;
  f.quad = [](uint32_t seq, uint32_t qx, uint32_t qy) {
    QuadSpec q;
    q.instructions = 400;
    q.samples[0].push_back({0x2000'0000 + (uint64_t{seq} * 256 + qy * 16 + qx) * 64});
    return q;
  };
  const auto bytes = buildFrame(f);
  auto second_frame = [&](const char* spec) {
    Configuration c = parse_configuration(spec);
    for (const char* o : {"gpu.shader_cores=1", "core.max_quads=1"}) c.params.apply(o);
    auto model = c.make_model();
    FrameResults r;
    std::string error;
    EXPECT_TRUE(model->run(bytes, r, &error)) << error;
    r = {};
    EXPECT_TRUE(model->run(bytes, r, &error)) << error;
    return r;
  };
  const FrameResults base = second_frame("mobile4");
  const FrameResults dae = second_frame("mobile4+dae-no-sharing");
  EXPECT_EQ(m(base, "l1tex.misses"), 1024);
  EXPECT_EQ(m(base, "l2.hits"), 1024);
  EXPECT_EQ(m(dae, "l1tex.misses"), 0);
  EXPECT_EQ(m(dae, "dae.prefetches"), 1024);
  EXPECT_EQ(m(dae, "dae.useful"), 1024);
  EXPECT_EQ(m(dae, "dae.late"), 0);
  EXPECT_EQ(m(dae, "l2.hits"), 1024);
  const LatencyPath path(make_preset("mobile4"));
  EXPECT_EQ(m(base, "cycles") - m(dae, "cycles"), 1024.0 * static_cast<double>(path.l2_hit() - path.l1));
}

// The whole timing model on two cores: quad (0,0) goes to core 0 and quad (1,0) to core 1
// (FG-xshift2), each with six lines of its own and then the shared line X. Core 0's X is still
// queued when core 1's X enters its queue, so with sharing core 1's entry takes Source = core 0;
// it dispatches after core 0's has allocated X, and core 1's L1 gets X from core 0's L1: its data
// arrive dae.remote_latency cycles after core 0's fill from DRAM, and L2 sees one texture access
// fewer. Without sharing core 1 asks L2, which merges it with core 0's fill in flight: X is ready
// in core 1's L1 in the same cycle as in core 0's.
TEST(DaeModel, SourceCoreServesTheSharedLine) {
  constexpr uint64_t kShared = 0x2800'0000;
  FrameSpec f;
  f.quad = [](uint32_t, uint32_t qx, uint32_t qy) {
    QuadSpec q;
    q.present = qy == 0 && qx < 2;
    for (uint64_t k = 0; k < 6; ++k) q.samples[0].push_back({0x2000'0000 + (qx * 64 + k) * 64});
    q.samples[0].push_back({kShared});
    return q;
  };
  const auto bytes = buildFrame(f);
  // Records when each quad's lines were queued and when X's data is present in each core's L1.
  class Watch final : public TexturePrefetcher {
   public:
    explicit Watch(std::shared_ptr<TexturePrefetcher> dae) : dae_(std::move(dae)) {}
    void quad_queued(MemoryHierarchy& h, uint32_t core, std::span<const uint64_t> lines, uint32_t dependent,
                     uint64_t now) override {
      queued_at[core] = now;
      dae_->quad_queued(h, core, lines, dependent, now);
      for (uint32_t c = 0; c < 2; ++c) h.l1tex(c).probe(kShared, &ready[c]);
    }
    void quad_started(MemoryHierarchy& h, uint32_t core, uint64_t now) override { dae_->quad_started(h, core, now); }
    uint64_t queued_at[2] = {0, 0}, ready[2] = {0, 0};

   private:
    std::shared_ptr<TexturePrefetcher> dae_;
  };
  struct Run {
    FrameResults r;
    uint64_t queued_at[2], ready[2];
  };
  auto run = [&](const char* spec) {
    Configuration c = parse_configuration(spec);
    c.params.apply("gpu.shader_cores=2");
    Hooks hooks = scheme_hooks(c.schemes, c.params);
    auto watch = std::make_shared<Watch>(hooks.prefetcher);
    hooks.prefetcher = watch;
    GpuModel model(c.params, std::move(hooks));
    Run out;
    std::string error;
    EXPECT_TRUE(model.run(bytes, out.r, &error)) << error;
    std::copy(std::begin(watch->queued_at), std::end(watch->queued_at), out.queued_at);
    std::copy(std::begin(watch->ready), std::end(watch->ready), out.ready);
    return out;
  };
  const Run shared = run("tegra2+dae");
  const Run far = run("tegra2+dae+dae.remote_latency=40");
  const Run alone = run("tegra2+dae-no-sharing");
  // Core 0's X is the 7th entry of its empty queue: it dispatches 6 cycles after it was queued,
  // still waiting when core 1's X arrives `gap` cycles later.
  ASSERT_GE(shared.queued_at[1], shared.queued_at[0]);
  const uint64_t gap = shared.queued_at[1] - shared.queued_at[0];
  ASSERT_LT(gap, 6u);
  // Core 0 is not affected by core 1's Source field; its X comes from DRAM well after core 1's
  // dispatch (queued + 6) and L1 probe.
  EXPECT_EQ(alone.ready[0], shared.ready[0]);
  EXPECT_EQ(far.ready[0], shared.ready[0]);
  ASSERT_GT(shared.ready[0], shared.queued_at[1] + 6 + 2);
  EXPECT_EQ(shared.ready[1], shared.ready[0] + 4);  // dae.remote_latency's default
  EXPECT_EQ(far.ready[1], far.ready[0] + 40);
  // Without sharing core 1 fetches X from L2, merged into core 0's fill there: its line comes
  // back over the interconnect right after core 0's.
  EXPECT_EQ(alone.ready[1], alone.ready[0] + LatencyPath(make_preset("tegra2")).line_flits);
  EXPECT_EQ(m(shared.r, "dae.prefetches"), 14);
  EXPECT_EQ(m(shared.r, "dae.remote_served"), 1);
  EXPECT_EQ(m(shared.r, "dae.remote_misses"), 0);
  // Core 0's entries met an empty queue; each of core 1's 7 met core 0's entries not dispatched
  // yet (one a cycle from core 0's queueing on: 6 - gap of them).
  EXPECT_EQ(m(shared.r, "dae.source_compares"), 7.0 * static_cast<double>(6 - gap));
  EXPECT_TRUE(std::isnan(alone.r.metric("dae.remote_served")));
  EXPECT_EQ(m(alone.r, "dae.prefetches"), 14);
  EXPECT_EQ(m(alone.r, "l2.texture_accesses"), 14);
  EXPECT_EQ(m(shared.r, "l2.texture_accesses"), 13);
  EXPECT_EQ(m(shared.r, "l1tex.misses"), 0);
  EXPECT_EQ(m(shared.r, "dae.useful"), 14);
}

// A quad whose second texture instruction takes its coordinates from the first: the second
// sample's lines are not prefetched (the demand access misses), and each is counted.
TEST(DaeModel, DependentReadsAreNotPrefetched) {
  FrameSpec f;
  f.quad = [](uint32_t, uint32_t qx, uint32_t qy) {
    QuadSpec q;
    q.instructions = 400;
    const uint64_t i = qy * 16 + qx;
    q.samples[0].push_back({0x2000'0000 + i * 64});
    q.samples[0].push_back({0x3000'0000 + i * 64});  // texture instruction 1
    q.dependent = {1};
    return q;
  };
  const auto bytes = buildFrame(f);
  // A window of 4 quads: each core's lines map to 32 of the L1's 64 sets (FG-xshift2 gives a core
  // every other quad column), and the whole 64-quad tile queue's prefetched lines with the
  // dependent ones would fill them, evicting prefetched lines before their use.
  Configuration c = parse_configuration("mobile4+dae+dae.lookahead=4");
  auto model = c.make_model();
  FrameResults r;
  std::string error;
  ASSERT_TRUE(model->run(bytes, r, &error)) << error;
  EXPECT_EQ(m(r, "dae.dependent_reads"), 256);
  EXPECT_EQ(m(r, "dae.prefetches"), 256);
  EXPECT_EQ(m(r, "l1tex.prefetches"), 256);
  EXPECT_EQ(m(r, "dae.useful"), 256);
  EXPECT_EQ(m(r, "l1tex.misses"), 256);  // every dependent sample
  EXPECT_EQ(m(r, "l1tex.accesses"), 512);
}

// A prefetcher fills the private L1s directly (MemoryHierarchy::prefetch_texture): every texture
// organisation refuses to run beside it, with one line naming both and why, whichever order the
// spec names them in.
TEST(DaeConfiguration, PrefetcherWithATextureOrganisationIsRefused) {
  const struct {
    const char* spec;
    const char* message;
  } refused[] = {
      {"tegra2+dae+d-nuca", "d-nuca cannot run with dae (the texture prefetcher): prefetches would fill the requesting "
                            "core's L1 directly, outside the NUCA placement"},
      {"tegra2+dtm-nuca+dae-no-sharing", "dtm-nuca cannot run with dae-no-sharing (the texture prefetcher)"},
      {"mobile32+dtm-nuca-dist+dae", "dtm-nuca-dist cannot run with dae (the texture prefetcher)"},
      {"tegra2+perfect-l1+dae", "perfect-l1 cannot run with dae (the texture prefetcher): every texture access already "
                                "hits its L1, yet each prefetch would still read L2"},
      {"tegra2+dae-no-sharing+perfect-l1", "perfect-l1 cannot run with dae-no-sharing (the texture prefetcher)"},
      {"tegra2+prefetch-ghb+dae", "prefetch-ghb cannot run with dae (the texture prefetcher): two prefetchers would fill "
                                  "the same L1s and each count the other's useful prefetches (both read "
                                  "l1tex.prefetch_hits)"},
  };
  for (const auto& r : refused) {
    SCOPED_TRACE(r.spec);
    const std::string what = testing::refusal(r.spec);
    EXPECT_NE(what.find(r.message), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
  // The organisations still combine with schemes on other seams, and DAE with the baseline L1s.
  EXPECT_NO_THROW(parse_configuration("mobile4+dtexl+dtm-nuca"));
  EXPECT_NO_THROW(parse_configuration("tegra2+dae+dtexl"));
}

// The configuration refused above used to run until a demand fill evicted a prefetched line the
// D-NUCA directory had never placed: the same two schemes installed by hand, past the
// configuration's check, fail the run half-way with the directory's logic error.
TEST(DaeConfiguration, DaeWithDNucaBreaksTheDirectory) {
  const SchemeRegistry& registry = SchemeRegistry::global();
  const SchemeInfo* dae = registry.find_scheme("dae");
  const SchemeInfo* nuca = registry.find_scheme("dtm-nuca");
  ASSERT_TRUE(dae && nuca);
  ParamSet p = make_preset("tegra2", registry_for({dae, nuca}));
  p.apply("nuca.organisation=d-nuca");
  Hooks hooks = scheme_hooks({dae, nuca}, p);
  // Each quad samples a line of its own, prefetched, then two dependent lines, demand misses: in
  // each 4-way set a fill evicts the line filled four fills before, so the second dependent
  // line's fill evicts a prefetched line.
  FrameSpec f;
  f.tiles_x = 2;
  f.tiles_y = 2;
  f.quad = [](uint32_t seq, uint32_t qx, uint32_t qy) {
    QuadSpec q;
    const uint64_t i = uint64_t{seq} * 256 + qy * 16 + qx;
    q.samples[0].push_back({0x2000'0000 + i * 64});
    q.samples[0].push_back({0x3000'0000 + i * 64});
    q.samples[0].push_back({0x3800'0000 + i * 64});
    q.dependent = {1, 2};
    return q;
  };
  GpuModel model(p, std::move(hooks));
  FrameResults r;
  std::string error;
  EXPECT_FALSE(model.run(buildFrame(f), r, &error));
  EXPECT_NE(error.find("D-NUCA: an L1 evicted a block the directory did not place there"), std::string::npos) << error;
}

// --schemes all builds each scheme's variants on its preset and the combinations the papers
// propose: none of them pairs a prefetcher with a texture organisation.
TEST(DaeConfiguration, SchemesAllNeverPairsAPrefetcherWithAnOrganisation) {
  for (const std::vector<std::string>& presets : {std::vector<std::string>{}, std::vector<std::string>{"tegra2"}}) {
    const std::vector<std::string> specs = scheme_specs({"all"}, presets);
    EXPECT_GT(specs.size(), 10u);
    for (const std::string& spec : specs) {
      const Configuration c = parse_configuration(spec);
      auto takes = [&](HookKind h) {
        return std::any_of(c.schemes.begin(), c.schemes.end(), [&](const SchemeInfo* s) {
          return std::find(s->hooks.begin(), s->hooks.end(), h) != s->hooks.end();
        });
      };
      EXPECT_FALSE(takes(HookKind::Prefetcher) && takes(HookKind::TextureOrganisation)) << spec;
    }
  }
}

// dae.remote_latency times the Source field's requests: dae-no-sharing has none, so a value other
// than the default is refused there, in one line naming the parameter and why.
TEST(DaeConfiguration, RemoteLatencyWithoutSharingIsRefused) {
  const std::string what = testing::refusal("tegra2+dae-no-sharing+dae.remote_latency=40");
  EXPECT_NE(what.find("dae.remote_latency=40 does nothing with dae.sharing=false (dae-no-sharing: every prefetch "
                      "reads L2, no other processor's L1); leave it at 4"),
            std::string::npos)
      << what;
  EXPECT_NO_THROW(parse_configuration("tegra2+dae-no-sharing").make_model());
  EXPECT_NO_THROW(parse_configuration("tegra2+dae+dae.remote_latency=40").make_model());
}

// A window cap beyond the tile queue caps nothing: refused in one line; the queue itself is fine.
TEST(DaeConfiguration, ALookaheadBeyondTheTileQueueIsRefused) {
  EXPECT_EQ(testing::refusal("tegra2+dae+dae.lookahead=65"),
            "dae.lookahead=65 caps nothing beyond the tile queue's queue.fragment=64 quads; 0 takes the whole queue");
  EXPECT_NO_THROW(parse_configuration("tegra2+dae+dae.lookahead=64").make_model());
  EXPECT_NO_THROW(parse_configuration("tegra2+dae+dae.lookahead=65+queue.fragment=65").make_model());
}

}  // namespace
}  // namespace tessera::model

namespace tessera::model {
namespace {

using namespace testing;

// Paper 002 prefetches "while the pixels are waiting in the tile queue": the default window
// (dae.lookahead=0) is the tile queue, queue.fragment quads. With a 2-quad queue it prefetches
// exactly as a 2-quad cap does (every metric and the cycles equal), and unlike a 1-quad one.
TEST(DaeModel, TheDefaultWindowIsTheTileQueue) {
  FrameSpec f;
  f.quad = [](uint32_t, uint32_t qx, uint32_t qy) {
    QuadSpec q;
    q.instructions = 40;
    const uint64_t i = qy * 16 + qx;
    q.samples[0].push_back({0x2000'0000 + i * 128});
    q.samples[1].push_back({0x2000'0000 + i * 128 + 64});
    return q;
  };
  const auto bytes = buildFrame(f);
  auto run = [&](const char* spec) {
    Configuration c = parse_configuration(spec);
    c.params.apply("queue.fragment=2");
    auto model = c.make_model();
    FrameResults r;
    std::string error;
    EXPECT_TRUE(model->run(bytes, r, &error)) << error;
    std::string all;
    for (const auto& [name, value] : r.frame_metrics) all += name + "=" + std::to_string(value) + "\n";
    return all;
  };
  const std::string queue = run("tegra2+dae");
  EXPECT_EQ(queue, run("tegra2+dae+dae.lookahead=2"));
  EXPECT_NE(queue, run("tegra2+dae+dae.lookahead=1"));
  EXPECT_EQ(parse_configuration("tegra2+dae").params.get_int("dae.lookahead"), 0);
}

}  // namespace
}  // namespace tessera::model
