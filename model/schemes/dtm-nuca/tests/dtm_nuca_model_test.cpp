// The DTM-NUCA scheme in the timing model, on constructed streams (frame_builder.h): its counters
// reconcile with the model's on every variant and frame, its energy counts in the whole GPU's,
// the mesh's hop latency lands on the critical path hop by hop, and two requests meeting at the
// centralized table serialise by one cycle.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "frame_builder.h"
#include "hook_doubles.h"
#include "tessera/model/configuration.h"

namespace tessera::model {
namespace {

using namespace testing;

std::vector<FrameResults> run_frames(const std::string& spec, const std::vector<uint8_t>& bytes, int frames) {
  const Configuration c = parse_configuration(spec);
  const std::unique_ptr<GpuModel> model = c.make_model();
  std::vector<FrameResults> out(static_cast<size_t>(frames));
  for (FrameResults& r : out) {
    std::string error;
    EXPECT_TRUE(model->run(bytes, r, &error)) << error;
  }
  return out;
}

// Texture reuse across quads, tiles and cores with small caches (mixedFrame), 3 x 2 tiles.
TEST(DtmNucaModel, CountersReconcileOnEveryVariantAndFrame) {
  const auto bytes = buildFrame(mixedFrame());
  for (const char* spec : {"mobile32+dtm-nuca", "mobile32+dtm-nuca-dist", "mobile32+d-nuca", "mobile4+dtexl+dtm-nuca"}) {
    // Epochs for the Affinity Tables (d-nuca has none).
    const std::string epoch = std::string(spec) == "mobile32+d-nuca" ? "" : "+nuca.epoch_accesses=300";
    const std::string s = std::string(spec) + "+l1tex.size=1KiB+l2.size=16KiB" + epoch;
    SCOPED_TRACE(s);
    for (const FrameResults& r : run_frames(s, bytes, 2)) {
      const double accesses = m(r, "l1tex.accesses");
      EXPECT_GT(accesses, 0);
      EXPECT_EQ(accesses, m(r, "texture.lines"));
      EXPECT_EQ(m(r, "l1tex.local_hits") + m(r, "l1tex.remote_hits") + m(r, "l1tex.misses"), accesses);
      EXPECT_EQ(m(r, "l1tex.local_hits") + m(r, "l1tex.remote_hits"), m(r, "l1tex.hits"));
      EXPECT_EQ(m(r, "l1tex.local_l2_hits") + m(r, "l1tex.local_l2_misses") + m(r, "l1tex.remote_l2_hits") +
                    m(r, "l1tex.remote_l2_misses"),
                m(r, "l1tex.misses"));
      EXPECT_EQ(m(r, "l1tex.misses"), m(r, "l2.texture_accesses"));
      EXPECT_GT(m(r, "l1tex.remote_hits"), 0);
      EXPECT_GT(m(r, "nuca.network_flits"), 0);
      EXPECT_GT(m(r, "nuca.mean_hops"), 0);
      EXPECT_EQ(m(r, "nuca.late_packets"), 0);
      EXPECT_GT(m(r, "energy.network_nj"), 0);
      // Fig. 1: every request recorded its block's replication degree.
      EXPECT_NEAR(m(r, "replication.share_1") + m(r, "replication.share_2") + m(r, "replication.share_3") +
                      m(r, "replication.share_4plus"),
                  1.0, 1e-9);
      // The whole GPU's energy is the sum of its structures', the scheme's included.
      const std::set<std::string> totals = {"energy.total_nj",   "energy.total_hp_nj", "energy.total_lop_nj",
                                            "energy.memory_nj",  "energy.core_nj",     "energy.dynamic_nj",
                                            "energy.static_nj"};
      double structures = 0;
      for (const auto& [name, value] : r.frame_metrics) {
        // Structures' energies in nJ (energy.texture_path_pj_per_access is a rate, not a part).
        const bool nj = name.size() > 3 && name.compare(name.size() - 3, 3, "_nj") == 0;
        if (name.rfind("energy.", 0) == 0 && nj && !totals.count(name)) structures += value;
      }
      EXPECT_NEAR(structures, m(r, "energy.total_nj"), 1e-6 * structures);
    }
  }
}

// One textured quad per tile, tiles one core each (whole-tile scheduling): tile 0 on core 0
// reads line X first (it acquires X's bucket through the table at router 11 and fills X), then
// tile 31 on core 31 reads X remotely. Every hop on those two requests is on the critical path:
// core 0 -> table 4 hops, table -> core 0 4 hops; core 31 -> table 6 hops, table -> core 0 4,
// core 0 -> core 31 10 (the line). Each added cycle per hop adds 28 cycles to the frame.
TEST(DtmNucaModel, HopLatencyLandsOnTheCriticalPath) {
  FrameSpec f;
  f.tiles_x = 8;
  f.tiles_y = 4;
  f.quad = [](uint32_t seq, uint32_t qx, uint32_t qy) {
    QuadSpec q;
    q.present = qx == 0 && qy == 0 && (seq == 0 || seq == 31);
    q.instructions = 8;
    if (q.present) q.samples[0].push_back({0x2000'0000});
    return q;
  };
  const auto bytes = buildFrame(f);
  const auto cycles = [&](uint32_t hop) {
    const Configuration c = parse_configuration("mobile32+dtm-nuca+nuca.hop_latency=" + std::to_string(hop));
    Hooks hooks;
    const std::shared_ptr<SchemeInstance> nuca = c.schemes[0]->make(c.params);
    nuca->install(hooks);
    hooks.observers.push_back(nuca);
    hooks.quad_scheduler = std::make_shared<WholeTileScheduler>();
    const FrameResults r = runModel(bytes, c.params, hooks);
    EXPECT_EQ(m(r, "l1tex.remote_hits"), 1);
    EXPECT_EQ(m(r, "l1tex.local_l2_misses"), 1);
    return static_cast<int64_t>(r.cycles);
  };
  const int64_t one = cycles(1);
  EXPECT_EQ(cycles(2) - one, 28);
  EXPECT_EQ(cycles(5) - one, 4 * 28);
}

// Two quads rasterised in the same cycle (2 quads per cycle) go to cores 10 and 12 (FG-xshift2:
// quad x 10 and 12 of the first quad row), one hop west and east of the table at router 11; each
// misses on its own line at the same cycle. Their requests meet at the table, which takes one per
// cycle: exactly one cycle of contention on the mesh, and 4 packets (2 requests, 2 answers).
TEST(DtmNucaModel, TwoSimultaneousRequestsSerialiseAtTheTable) {
  FrameSpec f;
  f.quad = [](uint32_t, uint32_t qx, uint32_t qy) {
    QuadSpec q;
    q.present = qy == 0 && (qx == 10 || qx == 12);
    q.instructions = 8;
    if (q.present) q.samples[0].push_back({0x2000'0000 + uint64_t{qx} * 64 * 8});  // buckets 10 and 12
    return q;
  };
  const auto bytes = buildFrame(f);
  const FrameResults r = run_frames("mobile32+dtm-nuca+raster.quads_per_cycle=2", bytes, 1)[0];
  EXPECT_EQ(m(r, "l1tex.local_l2_misses"), 2);
  EXPECT_EQ(m(r, "nuca.lookups"), 2);
  EXPECT_EQ(m(r, "nuca.packets"), 4);
  EXPECT_EQ(m(r, "nuca.contention_cycles"), 1);
}

// A mesh the cores do not fill is refused before any frame runs, in one line naming the parameter.
TEST(DtmNucaModel, RefusesAMeshTheCoresDoNotFill) {
  const Configuration c = parse_configuration("mobile4+dtm-nuca+nuca.mesh_cols=3");
  try {
    c.make_model();
    FAIL() << "nuca.mesh_cols=3 with 4 cores was accepted";
  } catch (const ParamError& e) {
    EXPECT_NE(std::string(e.what()).find("nuca.mesh_cols 3 does not divide 4"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(parse_configuration("mobile4+dtm-nuca+nuca.mesh_cols=4").make_model());
}

}  // namespace
}  // namespace tessera::model
