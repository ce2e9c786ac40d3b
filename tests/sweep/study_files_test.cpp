// The paper studies of studies/ (one sweep file per paper): each reads, each of its
// configurations builds as tessera replay would build it, and together they cover the axes of
// the paper's figures, so the report draws every point of them (paper 000 Figs. 6-11: L1
// texture caches of 16-512 KiB and 4-32 shader cores, paper 002 Fig. 3: 1, 2 and 16 warps with
// every prefetcher and bound).
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

}  // namespace
}  // namespace tessera::sweep
