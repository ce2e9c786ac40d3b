// The paper studies of studies/ (one sweep file per paper): each reads, each of its
// configurations builds as tessera replay would build it, and together they cover the axes of
// the paper's figures, so the report draws every point of them (paper 000 Figs. 6-11: L1
// texture caches of 16-512 KiB and 4-32 shader cores, paper 001 Figs. 11-18: every grouping,
// order and assignment, paper 002 Fig. 3: 1, 2 and 16 warps with every prefetcher and bound,
// paper 003 Figs. 11-22: tile caches of 16-256 KiB, 1-16 ways and fully associative, every
// policy).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "sweep_plan.h"

namespace tessera::sweep {
namespace {

std::string study(const std::string& name) { return std::string(TESSERA_STUDIES_DIR) + "/" + name; }

std::set<std::string> names(const SweepFile& f) {
  std::set<std::string> out;
  for (const SweepConfig& c : sweep_configs(f)) out.insert(c.name);
  return out;
}

TEST(StudyFiles, Paper000CoversFigs1And6To11) {
  const SweepFile f = read_sweep_file(study("000-dtm-nuca.json"));
  const std::set<std::string> configs = names(f);
  EXPECT_EQ(configs.size(), f.configs.size()) << "a configuration listed twice";
  for (const char* scheme : {"", "+dtm-nuca", "+dtm-nuca-dist", "+d-nuca"})
    EXPECT_TRUE(configs.count(std::string("mobile32") + scheme)) << scheme;  // Figs. 6, 8-10 at 16 KiB, 32 cores
  for (const char* scheme : {"", "+dtm-nuca", "+dtm-nuca-dist"}) {
    for (const char* kib : {"32", "64", "128", "256", "512"})  // Fig. 7 (16 KiB is mobile32's)
      EXPECT_TRUE(configs.count(std::string("mobile32") + scheme + "+l1tex.size=" + kib + "KiB")) << scheme << kib;
    for (const char* cores : {"4", "8", "16"})  // Fig. 11 (32 is mobile32's)
      EXPECT_TRUE(configs.count(std::string("mobile32") + scheme + "+gpu.shader_cores=" + cores)) << scheme << cores;
  }
  // Fig. 1's four fragment processors (mobile4), and each variant with unbounded router buffers
  // beside the default's bound (the sensitivity of the README).
  EXPECT_TRUE(configs.count("mobile4"));
  for (const char* scheme : {"+dtm-nuca", "+dtm-nuca-dist", "+d-nuca"})
    EXPECT_TRUE(configs.count(std::string("mobile32") + scheme + "+nuca.router_buffer=0")) << scheme;
  // At the paper's screen (Table I: 2160x1080), as bench/workloads/capture_suite.sh names them.
  for (const std::string& c : f.captures) EXPECT_NE(c.find("-2160x1080.tcap"), std::string::npos) << c;
}

TEST(StudyFiles, Paper002CoversFig3) {
  const SweepFile f = read_sweep_file(study("002-dae.json"));
  const std::set<std::string> configs = names(f);
  EXPECT_EQ(configs.size(), f.configs.size()) << "a configuration listed twice";
  for (const char* scheme : {"", "+prefetch-ghb", "+prefetch-mta", "+dae", "+dae-no-sharing", "+perfect-l1",
                             "+perfect-memory"}) {
    EXPECT_TRUE(configs.count(std::string("tegra2") + scheme)) << scheme;  // one warp: tegra2's own
    for (const char* warps : {"2", "16"})
      EXPECT_TRUE(configs.count(std::string("tegra2") + scheme + "+core.max_quads=" + warps)) << scheme << warps;
  }
}

// Paper 004: Fig. 8's five cases and Fig. 9's bars on mobile-256k (the conventional unit of
// Algorithm 1 with its 16 KiB and 512 B L1s, the two filter caches, TFM) beside the coalescing
// baseline, each again on one core in scanline tile order as the paper traced, and the slower
// fill as a sensitivity.
TEST(StudyFiles, Paper004CoversFigs8And9) {
  const SweepFile f = read_sweep_file(study("004-tfm.json"));
  const std::set<std::string> configs = names(f);
  EXPECT_EQ(configs.size(), f.configs.size()) << "a configuration listed twice";
  for (const char* scheme : {"", "+conventional-tu", "+l1-dm512", "+filter-dm512", "+filter-fa512", "+tfm"}) {
    EXPECT_TRUE(configs.count(std::string("mobile-256k") + scheme)) << scheme;
    EXPECT_TRUE(configs.count(std::string("mobile-256k") + scheme + "+gpu.shader_cores=1+gpu.tile_order=scanline"))
        << scheme;
  }
  EXPECT_TRUE(configs.count("mobile-256k+tfm+tfm.fill_latency=2"));
}

// Paper 001 at its screen (Table II: 1960x768): every quad grouping of Figs. 11-15, every tile
// order and subtile assignment of Fig. 8 (Fig. 16), the one-core bound, DTexL and decoupled
// FG-xshift2 (Figs. 17-18), and the flush write buffer and Fig. 10's run-ahead window (both
// ours) changed as sensitivities.
TEST(StudyFiles, Paper001CoversFigs11To18) {
  const SweepFile f = read_sweep_file(study("001-dtexl.json"));
  const std::set<std::string> configs = names(f);
  EXPECT_EQ(configs.size(), f.configs.size()) << "a configuration listed twice";
  EXPECT_TRUE(configs.count("mobile4"));
  for (const char* grouping : {"fg-yshift2", "fg-xshift1", "fg-yshift1", "fg-xstripe", "fg-ystripe", "cg-xrect",
                               "cg-yrect", "cg-triangle", "cg-square"})
    EXPECT_TRUE(configs.count(std::string("mobile4+dtexl-group-") + grouping)) << grouping;
  for (const char* v : {"dtexl", "dtexl-zorder-const", "dtexl-zorder-flp", "dtexl-hlb-const", "dtexl-hlb-flp1",
                        "dtexl-hlb-flp3", "dtexl-sorder-const", "dtexl-sorder-flp", "dtexl-fg-decoupled",
                        "dtexl-one-core-bound"})
    EXPECT_TRUE(configs.count(std::string("mobile4+") + v)) << v;
  for (const char* v : {"", "+dtexl", "+dtexl-fg-decoupled"})
    EXPECT_TRUE(configs.count(std::string("mobile4") + v + "+gpu.flush_buffer=0")) << v;
  // Fig. 10's run-ahead (the window is ours): none, and twice the default.
  for (const char* v : {"+dtexl+raster.runahead_tiles=0", "+dtexl+raster.runahead_tiles=4",
                        "+dtexl-fg-decoupled+raster.runahead_tiles=0"})
    EXPECT_TRUE(configs.count(std::string("mobile4") + v)) << v;
  for (const std::string& c : f.captures) EXPECT_NE(c.find("-1960x768.tcap"), std::string::npos) << c;
}

// Paper 003 at mobile4's screen: Figs. 14-22 at 64 and 128 KiB; Figs. 11-12 like for like (TCOR's
// Attribute Cache of 16-496 KiB, OPT and LRU, fully associative and 1-16 ways); Fig. 13 (the
// unified 4-way cache of 16-256 KiB under LRU, MRU, DRRIP and OPT with TCOR's write bypass).
TEST(StudyFiles, Paper003CoversFigs11To22) {
  const SweepFile f = read_sweep_file(study("003-tcor.json"));
  const std::set<std::string> configs = names(f);
  EXPECT_EQ(configs.size(), f.configs.size()) << "a configuration listed twice";
  for (const char* v : {"", "+tcor", "+tcor-no-l2"}) {
    EXPECT_TRUE(configs.count(std::string("mobile4-64k") + v)) << v;
    EXPECT_TRUE(configs.count(std::string("mobile4-64k") + v + "+tile.size=131072")) << v;
  }
  // tile.size = the 16 KiB Primitive List Cache + the Attribute Cache (16, 48, 112, 240, 496 KiB).
  const auto tcor = [](const std::string& size, const std::string& ways, const std::string& policy) {
    std::string name = "mobile4-64k+tcor" + (size == "65536" ? "" : "+tile.size=" + size);
    if (ways != "4") name += "+tile.ways=" + ways;
    return policy == "opt" ? name : name + "+tcor.policy=" + policy;
  };
  for (const char* policy : {"opt", "lru"}) {
    for (const char* size : {"32768", "65536", "131072", "262144", "524288"})
      EXPECT_TRUE(configs.count(tcor(size, "0", policy))) << size << " " << policy;
    for (const char* ways : {"1", "2", "4", "8", "16"})
      for (const char* size : {"32768", "65536", "262144"})
        EXPECT_TRUE(configs.count(tcor(size, ways, policy))) << ways << " " << size << " " << policy;
    EXPECT_TRUE(configs.count(tcor("131072", "4", policy))) << policy;  // the 128 KiB Tile Cache of V-B
  }
  for (const char* policy : {"", "+tile.policy=mru", "+tile.policy=drrip", "+tile.policy=opt+tile.bypass=true"}) {
    EXPECT_TRUE(configs.count(std::string("mobile4-64k") + policy)) << policy;
    for (const char* bytes : {"16384", "32768", "131072", "262144"})
      EXPECT_TRUE(configs.count(std::string("mobile4-64k+tile.size=") + bytes + policy)) << bytes << policy;
  }
  for (const std::string& c : f.captures) EXPECT_NE(c.find("-1960x768.tcap"), std::string::npos) << c;
}

}  // namespace
}  // namespace tessera::sweep
