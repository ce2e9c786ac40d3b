// The TFM scheme: parameters, energies, and the scheme wired into the timing model on constructed
// access streams with exactly known Texture Buffer Array hits and misses.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "tessera/model/configuration.h"
#include "tessera/model/gpu_model.h"
#include "tessera/stream/access_stream.h"
#include "tfm/scheme.h"
#include "tfm/tfm_energy.h"

namespace tessera::model::tfm {
namespace {

ParamRegistry registry() {
  ParamRegistry r;
  for (ParamSpec& s : params()) r.add(std::move(s));
  return r;
}

TEST(TfmScheme, Params) {
  const ParamRegistry r = registry();
  ParamSet set(r);
  TfmConfig c = TfmConfig::from_params(set);
  EXPECT_EQ(c.front, FrontKind::Tfm);
  EXPECT_EQ(c.latency, 1u);
  EXPECT_EQ(c.fill_latency, 0u);  // section IV: the fill stays within an L1 access time
  EXPECT_EQ(c.replacement, TbaReplacement::Lru);
  set.set("tfm.replacement", "fifo");
  set.set("tfm.fill_latency", "4");
  c = TfmConfig::from_params(set);
  EXPECT_EQ(c.replacement, TbaReplacement::Fifo);
  EXPECT_EQ(c.fill_latency, 4u);
  // The filter caches have no replacement choice: a FIFO request is refused, naming both.
  for (const char* front : {"filter-dm512", "filter-fa512"}) {
    set.set("tfm.front", front);
    try {
      (void)TfmConfig::from_params(set);
      ADD_FAILURE() << front;
    } catch (const ParamError& e) {
      EXPECT_NE(std::string(e.what()).find("tfm.replacement=fifo"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(std::string("tfm.front=") + front), std::string::npos) << e.what();
    }
  }
  set.set("tfm.replacement", "lru");
  EXPECT_EQ(TfmConfig::from_params(set).front, FrontKind::FilterFullyAssociative512);
  // The conventional unit has no buffer: a fill latency (set above), a hit latency or a
  // replacement would do nothing and are refused by name.
  set.set("tfm.front", "conventional-tu");
  EXPECT_THROW((void)TfmConfig::from_params(set), ParamError);
  set.set("tfm.fill_latency", "0");
  EXPECT_EQ(TfmConfig::from_params(set).front, FrontKind::Conventional);
  for (const auto& [name, value] : {std::pair{"tfm.latency", "2"}, std::pair{"tfm.replacement", "fifo"}}) {
    ParamSet changed = set;
    changed.set(name, value);
    try {
      (void)TfmConfig::from_params(changed);
      ADD_FAILURE() << name;
    } catch (const ParamError& e) {
      EXPECT_NE(std::string(e.what()).find(std::string(name) + "=" + value), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("tfm.front=conventional-tu"), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(set.set("tfm.replacement", "plru"), ParamError);
  EXPECT_THROW(set.set("tfm.front", "filter-dm1k"), ParamError);
}

// the docs/model.md ("Energy") 1 KiB RAM (0.82 / 1.14 pJ per 128-bit row, 32 nm lop) scaled by
// sqrt(capacity / 1 KiB): a 256 B TBA set and a 512 B filter cache.
TEST(TfmScheme, Energy) {
  const TbaEnergy t = tba_energy(TechVariant::Nm32Lop);
  EXPECT_NEAR(t.texel_read, 0.41, 1e-12);
  EXPECT_NEAR(t.lookup, 0.41, 1e-12);
  EXPECT_NEAR(t.fill, 2.28, 1e-12);
  const double row = 0.82 * std::sqrt(0.5);
  const FilterEnergy f = filter_energy(TechVariant::Nm32Lop);
  EXPECT_NEAR(f.texel_read, row, 1e-12);
  EXPECT_NEAR(f.tag_compare, row * 26 / 128, 1e-12);
  EXPECT_NEAR(f.fill, 4 * 1.14 * std::sqrt(0.5), 1e-12);
  // 10 texel reads of a fully associative cache (8 tags each), 3 lines filled.
  FilterCounters fc;
  fc.accesses = 10;
  fc.tag_compares = 80;
  fc.fills = 3;
  EXPECT_NEAR(front_energy_pj(fc, TechVariant::Nm32Lop), 10 * row + 80 * row * 26 / 128 + 3 * 4 * 1.14 * std::sqrt(0.5), 1e-12);
  // 20 texel reads, 10 lookups, 6 fills.
  TfmCounters c;
  c.accesses = 20;
  c.lookups = 10;
  c.fills = 6;
  EXPECT_NEAR(front_energy_pj(c, TechVariant::Nm32Lop), 20 * 0.41 + 10 * 0.41 + 6 * 2.28, 1e-12);
}

// --- The scheme in the timing model ---------------------------------------------------------

constexpr uint64_t kLevel0 = 0x100000;  // a 16x16-texel RGBA8 level: 4 x 4 blocks of 64 B
constexpr uint64_t kLevel1 = 0x200000;
uint64_t block(uint64_t base, uint32_t bx, uint32_t by) { return base + (uint64_t{by} * 4 + bx) * 64; }

// One bilinear sample: its probes (kind, level, blocks in Algorithm 2's lookup order).
struct Probe {
  uint8_t kind;
  uint8_t level;
  std::vector<uint64_t> blocks;
};
using Sample = std::vector<Probe>;

// A frame of one pass, one tile, one quad per sample whose lane 0 takes it (so all reach core
// FG-xshift2 sends quad (0,0) to: one core, one TFM).
// `instructions`: per quad, 40 when empty.
std::vector<uint8_t> frame(const std::vector<Sample>& samples, const std::vector<uint64_t>& instructions = {}) {
  stream::StreamWriter w;
  w.frame_begin(1, 32, 32);
  w.pass_begin(0, 32, 32, 32, 32, 1, 1);
  w.draw(0);
  w.tile_begin(0, 0, 0, 0);
  w.primitive(0, 0);
  for (size_t i = 0; i < samples.size(); ++i) {
    const Sample& s = samples[i];
    w.quad(0, 0, 1, 1, 1, stream::kQuadShaded, i < instructions.size() ? instructions[i] : 40);
    std::vector<stream::TextureProbe> probes;
    std::vector<uint64_t> blocks, lines;
    for (const Probe& p : s) {
      probes.push_back({p.kind, p.level, static_cast<uint16_t>(blocks.size()), static_cast<uint16_t>(p.blocks.size())});
      for (uint64_t b : p.blocks) {
        blocks.push_back(b);
        if (std::find(lines.begin(), lines.end(), b) == lines.end()) lines.push_back(b);
      }
    }
    w.texture(0, s.front().level, s.front().kind, static_cast<uint32_t>(s.size()), lines,
              stream::SampleProbes{probes, blocks, 64});
  }
  w.tile_end(0);
  w.pass_end(0);
  w.frame_end();
  return w.finish();
}

FrameResults run(const std::vector<uint8_t>& bytes, const std::string& spec) {
  const Configuration c = parse_configuration(spec);
  std::string error;
  FrameResults r = c.make_model()->run(bytes, &error);
  EXPECT_EQ(error, "") << spec;
  return r;
}

double m(const FrameResults& r, const std::string& name) { return r.metric(name); }

// The bilinear sequence of paper 004 Fig. 4 walked along a row and down (texture_filter_memory_test
// BilinearSequence): case 1, 3, 2, 4, 1 over 6 distinct blocks.
std::vector<Sample> fig4_walk() {
  return {
      {{1, 0, {block(kLevel0, 0, 0)}}},
      {{3, 0, {block(kLevel0, 0, 0), block(kLevel0, 1, 0)}}},
      {{2, 0, {block(kLevel0, 1, 0), block(kLevel0, 1, 1)}}},
      {{4, 0, {block(kLevel0, 1, 1), block(kLevel0, 2, 1), block(kLevel0, 1, 2), block(kLevel0, 2, 2)}}},
      {{1, 0, {block(kLevel0, 1, 1)}}},
  };
}

// The walk through TFM: 6 misses and 14 hits of 20 texel reads.
TEST(TfmScheme, ExactHitsAndMissesInTheTimingModel) {
  const std::vector<Sample> samples = fig4_walk();
  const auto bytes = frame(samples);
  const FrameResults base = run(bytes, "mobile-256k");
  const FrameResults tfm = run(bytes, "mobile-256k+tfm");
  EXPECT_EQ(m(tfm, "tfm.accesses"), 20);
  EXPECT_EQ(m(tfm, "tfm.hits"), 14);
  EXPECT_EQ(m(tfm, "tfm.misses"), 6);
  EXPECT_EQ(m(tfm, "tfm.direct"), 10);
  EXPECT_EQ(m(tfm, "tfm.lookups"), 10);
  EXPECT_EQ(m(tfm, "tfm.case1"), 2);
  EXPECT_EQ(m(tfm, "tfm.case2"), 1);
  EXPECT_EQ(m(tfm, "tfm.case3"), 1);
  EXPECT_EQ(m(tfm, "tfm.case4"), 1);
  // The baseline reads each sample's distinct lines: 1 + 2 + 2 + 4 + 1; TFM reads the 6 misses.
  EXPECT_EQ(m(base, "l1tex.accesses"), 10);
  EXPECT_EQ(m(tfm, "l1tex.accesses"), 6);
  EXPECT_EQ(m(tfm, "tfm.l1_accesses_saved"), m(base, "l1tex.accesses") - m(tfm, "l1tex.accesses"));
  // Its energy counts in the whole GPU's, and the texture path costs less per access.
  EXPECT_GT(m(tfm, "energy.tfm_nj"), 0);
  EXPECT_LT(m(tfm, "energy.texture_path_pj_per_access"), m(base, "energy.texture_path_pj_per_access"));

  // The filter caches look up each texel t1..t4 (Algorithm 1), 20 reads: every first read of a
  // block misses (6), the other 14 hit (in the direct-mapped one block (1,2) evicts (1,0) from set
  // 1 after (1,0)'s last use), so on this walk they hit as often as TFM, with 20 lookups to TFM's 10.
  for (const char* spec : {"mobile-256k+filter-dm512", "mobile-256k+filter-fa512"}) {
    const FrameResults f = run(bytes, spec);
    EXPECT_EQ(m(f, "tfm.accesses"), 20) << spec;
    EXPECT_EQ(m(f, "tfm.lookups"), 20) << spec;
    EXPECT_EQ(m(f, "tfm.misses"), 6) << spec;
    EXPECT_EQ(m(f, "tfm.hits"), 14) << spec;
    EXPECT_EQ(m(f, "l1tex.accesses"), 6) << spec;
    EXPECT_EQ(m(f, "tfm.l1_accesses_saved"), m(base, "l1tex.accesses") - m(f, "l1tex.accesses")) << spec;
  }
}

// The conventional texture unit of Algorithm 1 on the same walk: a CacheLookup per texel read,
// 4 per bilinear sample whatever its case (20), where the coalescing baseline reads each sample's
// distinct lines once (10). Only the first read of each of the 6 blocks misses; the 14 others hit
// (at once or under the first one's fill). Each lookup is an L1 read, so the texture path costs
// more per access than the coalescing baseline's and TFM's saving against it is larger.
// With a 512 B direct-mapped L1 (Fig. 8 case 2) the L1 sees the same 20 lookups and misses as
// often as the 512 B direct-mapped filter (case 3) does, as the paper says of the two (sec. V-A1).
TEST(TfmScheme, ConventionalUnitLooksUpEveryTexel) {
  const std::vector<Sample> samples = fig4_walk();
  const auto bytes = frame(samples);
  const FrameResults base = run(bytes, "mobile-256k");
  const FrameResults conv = run(bytes, "mobile-256k+conventional-tu");
  const FrameResults tfm = run(bytes, "mobile-256k+tfm");
  const double texel_reads = 4.0 * static_cast<double>(samples.size());
  EXPECT_EQ(m(conv, "texture.texel_reads"), texel_reads);
  EXPECT_EQ(m(conv, "tfm.accesses"), texel_reads);
  EXPECT_EQ(m(conv, "tfm.misses"), texel_reads);  // nothing in front of L1: every read goes on
  EXPECT_EQ(m(conv, "tfm.hits"), 0);
  EXPECT_EQ(m(conv, "l1tex.accesses"), texel_reads);
  EXPECT_EQ(m(conv, "l1tex.misses"), 6);
  EXPECT_EQ(m(conv, "l1tex.hits"), texel_reads - 6);
  EXPECT_EQ(m(conv, "l2.texture_accesses"), m(base, "l2.texture_accesses"));
  EXPECT_EQ(m(conv, "tfm.l1_accesses_saved"), m(base, "l1tex.accesses") - texel_reads);  // -10
  EXPECT_EQ(m(conv, "energy.tfm_nj"), 0);
  EXPECT_GT(m(conv, "energy.texture_path_pj_per_access"), m(base, "energy.texture_path_pj_per_access"));
  EXPECT_LT(m(tfm, "energy.texture_path_pj_per_access"), m(base, "energy.texture_path_pj_per_access"));

  const Configuration case2 = parse_configuration("mobile-256k+l1-dm512");
  EXPECT_EQ(case2.params.get_int("l1tex.size"), 512);
  EXPECT_EQ(case2.params.get_int("l1tex.ways"), 1);
  const FrameResults dm = run(bytes, "mobile-256k+l1-dm512");
  const FrameResults filter = run(bytes, "mobile-256k+filter-dm512");
  EXPECT_EQ(m(dm, "l1tex.accesses"), texel_reads);
  EXPECT_EQ(m(dm, "l1tex.misses"), m(filter, "tfm.misses"));
  EXPECT_EQ(m(dm, "l1tex.hits"), m(filter, "tfm.hits"));
}

// Two quads resident in one core (core.max_quads 16): the first misses block A all the way to
// DRAM; the second, issued while that read is in flight, hits A in the TBA (or the filter cache)
// and must wait for it. Its texture data arrives exactly tfm.latency + tfm.fill_latency (1 + 0:
// the fill hides in the L1 access, section IV) cycles after the baseline's, whose second L1 access hits the line in flight. The second quad's
// long tail after its sample makes it the frame's last, so `cycles` shows when it was served.
TEST(TfmScheme, HitOnABlockStillInFlightWaitsForItsFill) {
  const Sample a = {{1, 0, {block(kLevel0, 0, 0)}}};
  const auto bytes = frame({a, a}, {4, 400});
  const FrameResults base = run(bytes, "mobile-256k");
  EXPECT_EQ(m(base, "l1tex.accesses"), 2);
  EXPECT_EQ(m(base, "l1tex.mshr_merges"), 1);  // the second quad's access finds the fill in flight
  for (const char* spec : {"mobile-256k+tfm", "mobile-256k+filter-dm512", "mobile-256k+filter-fa512"}) {
    const FrameResults r = run(bytes, spec);
    EXPECT_EQ(m(r, "tfm.misses"), 1) << spec;
    EXPECT_EQ(m(r, "l1tex.accesses"), 1) << spec;
    const ParamSet& p = parse_configuration(spec).params;
    EXPECT_EQ(m(r, "cycles"), m(base, "cycles") + p.get_u32("tfm.latency") + p.get_u32("tfm.fill_latency")) << spec;
  }
}

// Trilinear: level 0 then level 1 in each sample; the sets switch with the level, so the second
// sample, the same footprints, hits every block (8 misses, then none).
TEST(TfmScheme, TrilinearSamplesSwitchSets) {
  const Sample s = {{4, 0, {block(kLevel0, 0, 0), block(kLevel0, 1, 0), block(kLevel0, 0, 1), block(kLevel0, 1, 1)}},
                    {4, 1, {block(kLevel1, 0, 0), block(kLevel1, 1, 0), block(kLevel1, 0, 1), block(kLevel1, 1, 1)}}};
  const FrameResults r = run(frame({s, s}), "mobile-256k+tfm");
  EXPECT_EQ(m(r, "tfm.accesses"), 16);
  EXPECT_EQ(m(r, "tfm.misses"), 8);
  EXPECT_EQ(m(r, "tfm.hits"), 8);
  EXPECT_EQ(m(r, "tfm.set_switches"), 3);
}

TEST(TfmScheme, CombinesWithDtexl) {
  const Sample s = {{1, 0, {block(kLevel0, 0, 0)}}};
  const FrameResults r = run(frame({s, s}), "mobile4+dtexl+tfm");
  EXPECT_EQ(m(r, "tfm.hits"), 4 + 3);
  EXPECT_EQ(m(r, "tfm.misses"), 1);
}

}  // namespace
}  // namespace tessera::model::tfm
