// The report's figure SQL (report/figures/) on databases built row by row, with exact expected
// values: normalisation over the frames both runs measured, cold first frames left out, means over
// captures, stacked shares, lines over config_param values, the headline numbers read from the
// rows, and the configuration-name parser. Scheme configurations are fed as constructed rows, so
// each paper section is tested before its scheme runs in the GPU model.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>
#include <utility>

#include "config_spec.h"
#include "fixture_db.h"
#include "heatmaps.h"
#include "report_catalogue.h"
#include "report_queries.h"
#include "test_util.h"

namespace tessera::report {
namespace {

using tessera::testing::TempPath;

// A fixture database on a connection set up as tessera report's: the figure views created.
class FigureDb : public fixture::FixtureDb {
 public:
  explicit FigureDb(const std::string& path) : FixtureDb(path) { create_figure_views(db()); }
};

// The row of a figure for (capture, series[, part][, x]); fails the test when absent.
double at(const std::vector<FigureRow>& rows, const std::string& capture, const std::string& series,
          const std::string& part = "", std::optional<double> x = std::nullopt) {
  for (const auto& r : rows)
    if (r.capture == capture && r.series == series && r.part == part && (!x || (r.x && *r.x == *x))) return r.value;
  ADD_FAILURE() << "no row " << capture << " / " << series << " / " << part;
  return NAN;
}

const Headline& headline(const std::string& figure, const std::string& text_start) {
  for (const auto& p : papers())
    for (const auto& f : p.figures)
      if (f.id == figure)
        for (const auto& h : f.headlines)
          if (h.text.rfind(text_start, 0) == 0) return h;
  for (const auto& f : replication_figures())
    if (f.id == figure)
      for (const auto& h : f.headlines)
        if (h.text.rfind(text_start, 0) == 0) return h;
  throw std::out_of_range(figure + ": no headline " + text_start);
}

TEST(ConfigSpec, SplitsPresetSchemesAndOverrides) {
  const ConfigSpec s = ConfigSpec::parse("mobile32+dtm-nuca+tfm+gpu.shader_cores=4");
  EXPECT_EQ(s.preset, "mobile32");
  EXPECT_EQ(s.schemes, (std::vector<std::string>{"dtm-nuca", "tfm"}));
  EXPECT_EQ(s.overrides, (std::vector<std::string>{"gpu.shader_cores=4"}));
  EXPECT_EQ(s.default_base(), "mobile32");
  EXPECT_EQ(ConfigSpec::parse("mobile4").default_base(), "mobile4");
  EXPECT_TRUE(ConfigSpec::parse("mobile4").schemes.empty());
  for (const char* bad : {"", "mobile4++dtexl", "mobile4+", "+dtexl", "tile.size=4"})
    EXPECT_THROW(ConfigSpec::parse(bad), std::invalid_argument) << bad;
}

TEST(FigureSql, NormalisesToTheBaseOverSharedWarmFramesAndAveragesCaptures) {
  TempPath path("r.db");
  FigureDb f(path.str());
  // Frame 1 is cold (sim.warm = 0) and left out: counted, it would change both ratios.
  f.warm_run("a.tcap", "mobile4", "l2.accesses", 1000, 100, 300);
  f.warm_run("a.tcap", "mobile4+dtexl-group-cg-square", "l2.accesses", 9999, 50, 150);
  f.warm_run("b.tcap", "mobile4", "l2.accesses", 1000, 200, 200);
  f.warm_run("b.tcap", "mobile4+dtexl-group-cg-square", "l2.accesses", 1, 100, 60);
  f.warm_run("b.tcap", "mobile4+dtexl-group-cg-yrect", "l2.accesses", 1, 300, 300);
  const auto rows = figure_rows(f.db(), "001-fig11-l2-by-grouping");
  EXPECT_DOUBLE_EQ(at(rows, "a.tcap", "CG-square"), 0.5);   // (50 + 150) / (100 + 300)
  EXPECT_DOUBLE_EQ(at(rows, "b.tcap", "CG-square"), 0.4);   // 160 / 400
  EXPECT_DOUBLE_EQ(at(rows, "mean", "CG-square"), 0.45);
  EXPECT_DOUBLE_EQ(at(rows, "b.tcap", "CG-yrect"), 1.5);
  EXPECT_DOUBLE_EQ(at(rows, "mean", "CG-yrect"), 1.5);      // the one capture that has it
  EXPECT_DOUBLE_EQ(at(rows, "mean", "FG-xshift2"), 1.0);    // the base, drawn as the reference
  EXPECT_EQ(rows.size(), 2u * 2 + 1 + 3);                   // 2 captures x 2 + b's yrect + 3 means
  EXPECT_EQ(rows.back().capture, "mean");
  const auto v = headline_value(rows, headline("001-fig11-l2-by-grouping", "L2 accesses, CG-square"));
  ASSERT_TRUE(v);
  EXPECT_NEAR(*v, -55.0, 1e-9);
  EXPECT_EQ(format_headline(*v, Show::kChange), "-55.0 %");
  EXPECT_FALSE(headline_value(rows, headline("001-fig11-l2-by-grouping", "L2 accesses, CG-xrect")));
}

TEST(FigureSql, OnlyFramesBothRunsMeasuredAreCompared) {
  TempPath path("r.db");
  FigureDb f(path.str());
  f.run("a.tcap", "mobile32", {{1, {{"cycles", 100}}}, {2, {{"cycles", 300}}}});
  f.run("a.tcap", "mobile32+dtm-nuca", {{2, {{"cycles", 200}}}});  // frame 2 only
  const auto rows = figure_rows(f.db(), "000-fig09-speedup-nuca");
  EXPECT_DOUBLE_EQ(at(rows, "a.tcap", "DTM-NUCA"), 1.5);  // 300 / 200, frame 1 has no partner
  EXPECT_NEAR(*headline_value(rows, headline("000-fig09-speedup-nuca", "speedup, DTM-NUCA ")), 50.0, 1e-9);
}

TEST(FigureSql, ARunWithoutWarmFramesKeepsItsColdOnes) {
  TempPath path("r.db");
  FigureDb f(path.str());
  f.run("a.tcap", "mobile4", {{1, {{"cycles", 1000}, {"energy.total_nj", 100}, {"sim.warm", 0}}}});
  f.run("a.tcap", "mobile4+dtexl", {{1, {{"cycles", 800}, {"energy.total_nj", 90}, {"sim.warm", 0}}}});
  const auto speed = figure_rows(f.db(), "001-fig17-speedup-dtexl");
  EXPECT_DOUBLE_EQ(at(speed, "a.tcap", "DTexL (HLB-flp2)"), 1.25);
  const auto energy = figure_rows(f.db(), "001-fig18-energy-decrease-dtexl");
  EXPECT_NEAR(at(energy, "mean", "DTexL (HLB-flp2)"), 10.0, 1e-9);  // percent decrease
  EXPECT_NEAR(*headline_value(energy, headline("001-fig18-energy-decrease-dtexl", "GPU energy decrease, DTexL")),
              10.0, 1e-9);
}

TEST(FigureSql, OnlyTheBaseMeansNoFigure) {
  TempPath path("r.db");
  FigureDb f(path.str());
  f.warm_run("a.tcap", "mobile4", "l2.accesses", 1, 2, 3);
  f.warm_run("a.tcap", "mobile32", "energy.total_nj", 1, 2, 3);
  f.run("a.tcap", "mobile32", {{2, {{"energy.memory_nj", 1}, {"energy.total_nj", 2}}}});
  EXPECT_TRUE(figure_rows(f.db(), "001-fig11-l2-by-grouping").empty());
  EXPECT_TRUE(figure_rows(f.db(), "000-fig10-energy-nuca").empty());
  EXPECT_TRUE(figure_rows(f.db(), "000-fig07-l2-by-l1-size").empty());
}

TEST(FigureSql, EachSeriesIsNormalisedToItsOwnBase) {
  TempPath path("r.db");
  FigureDb f(path.str());
  f.run("a.tcap", "mobile4-64k", {{1, {{"pb.l2_accesses", 200}}}});
  f.run("a.tcap", "mobile4-64k+tcor", {{1, {{"pb.l2_accesses", 133}}}});
  f.run("a.tcap", "mobile4-64k+tile.size=131072", {{1, {{"pb.l2_accesses", 100}}}});
  f.run("a.tcap", "mobile4-64k+tcor+tile.size=131072", {{1, {{"pb.l2_accesses", 63}}}});
  const auto rows = figure_rows(f.db(), "003-fig14-pb-l2");
  EXPECT_DOUBLE_EQ(at(rows, "a.tcap", "TCOR"), 0.665);
  EXPECT_DOUBLE_EQ(at(rows, "a.tcap", "TCOR, 128 KiB"), 0.63);  // against the 128 KiB baseline
  EXPECT_NEAR(*headline_value(rows, headline("003-fig14-pb-l2", "PB accesses to L2, 128 KiB")), -37.0, 1e-9);
}

TEST(FigureSql, LocalAndRemoteSharesOfTextureAccesses) {
  TempPath path("r.db");
  FigureDb f(path.str());
  f.run("a.tcap", "mobile32+dtm-nuca",
        {{1, {{"l1tex.accesses", 1000}, {"l1tex.local_hits", 600}, {"l1tex.remote_hits", 200},
              {"l1tex.remote_l2_hits", 150}, {"l1tex.remote_l2_misses", 50}}}});
  f.run("b.tcap", "mobile32+dtm-nuca",
        {{1, {{"l1tex.accesses", 100}, {"l1tex.local_hits", 80}, {"l1tex.remote_hits", 10},
              {"l1tex.remote_l2_hits", 5}, {"l1tex.remote_l2_misses", 5}}}});
  const auto rows = figure_rows(f.db(), "000-fig08-local-remote");
  EXPECT_DOUBLE_EQ(at(rows, "a.tcap", "DTM-NUCA", "local hits"), 0.6);
  EXPECT_DOUBLE_EQ(at(rows, "a.tcap", "DTM-NUCA", "remote, L2 misses"), 0.05);
  EXPECT_DOUBLE_EQ(at(rows, "mean", "DTM-NUCA", "local hits"), 0.7);
  EXPECT_NEAR(*headline_value(rows, headline("000-fig08-local-remote", "local hits, DTM-NUCA ")), 70.0, 1e-9);
}

// The misses of a core that owns its block read L2 too: their own parts, so the stack sums to 1.
TEST(FigureSql, LocalL2AccessesStackWithTheRest) {
  TempPath path("r.db");
  FigureDb f(path.str());
  f.run("a.tcap", "mobile32+dtm-nuca-dist",
        {{1, {{"l1tex.accesses", 100}, {"l1tex.local_hits", 50}, {"l1tex.local_l2_hits", 8}, {"l1tex.local_l2_misses", 2},
              {"l1tex.remote_hits", 30}, {"l1tex.remote_l2_hits", 7}, {"l1tex.remote_l2_misses", 3}}}});
  const auto rows = figure_rows(f.db(), "000-fig08-local-remote");
  EXPECT_DOUBLE_EQ(at(rows, "a.tcap", "DTM-NUCA-Dist", "local, L2 hits"), 0.08);
  EXPECT_DOUBLE_EQ(at(rows, "a.tcap", "DTM-NUCA-Dist", "local, L2 misses"), 0.02);
  double sum = 0;
  for (const char* part : {"local hits", "local, L2 hits", "local, L2 misses", "remote hits", "remote, L2 hits",
                           "remote, L2 misses"}) {
    sum += at(rows, "a.tcap", "DTM-NUCA-Dist", part);
  }
  EXPECT_DOUBLE_EQ(sum, 1.0);
}

TEST(FigureSql, EnergyStackSplitsMemoryFromTheRestAndSumsToTheTotal) {
  TempPath path("r.db");
  FigureDb f(path.str());
  f.run("a.tcap", "mobile32", {{1, {{"energy.total_nj", 1000}, {"energy.memory_nj", 400}}}});
  f.run("a.tcap", "mobile32+d-nuca", {{1, {{"energy.total_nj", 1040}, {"energy.memory_nj", 500}}}});
  const auto rows = figure_rows(f.db(), "000-fig10-energy-nuca");
  EXPECT_DOUBLE_EQ(at(rows, "a.tcap", "Baseline", "memory hierarchy"), 0.4);
  EXPECT_DOUBLE_EQ(at(rows, "a.tcap", "D-NUCA", "memory hierarchy"), 0.5);
  EXPECT_DOUBLE_EQ(at(rows, "a.tcap", "D-NUCA", "rest of the GPU"), 0.54);
  EXPECT_NEAR(*headline_value(rows, headline("000-fig10-energy-nuca", "GPU energy, D-NUCA")), 4.0, 1e-9);
}

// A preset's baseline (baseline.sql): each state's share of the cycles, the flush share of main
// memory and the memory share of energy, over the warm frames and summed over them before the
// share; schemes and overridden configurations are not baselines.
TEST(FigureSql, BaselineSharesOfCyclesTrafficAndEnergy) {
  TempPath path("r.db");
  FigureDb f(path.str());
  auto frame = [](double cycles, double busy, double texture, double flushes, double dram, double warm) {
    return std::map<std::string, double>{{"cycles", cycles}, {"core.cycles.busy", busy},
                                         {"core.cycles.texture_wait", texture}, {"core.cycles.unit_wait", 0},
                                         {"core.cycles.barrier_wait", 0}, {"core.cycles.blocked", 0},
                                         {"core.cycles.starved", cycles - busy - texture}, {"dram.color_flushes", flushes},
                                         {"dram.accesses", dram}, {"energy.memory_nj", 3}, {"energy.total_nj", 4},
                                         {"sim.warm", warm}};
  };
  // Frame 1 is cold and left out; frames 2 and 3 sum to 400 cycles: 100 busy, 200 texture.
  f.run("a.tcap", "mobile4", {{1, frame(1000, 1000, 0, 0, 10, 0)}, {2, frame(100, 50, 50, 5, 10, 1)},
                              {3, frame(300, 50, 150, 15, 30, 1)}},
        {{"gpu.tile_writeback", "color"}});
  f.run("b.tcap", "mobile4", {{1, frame(100, 100, 0, 10, 10, 0)}}, {{"gpu.tile_writeback", "color"}});
  f.run("a.tcap", "mobile4+dtexl", {{2, frame(100, 100, 0, 0, 10, 1)}});
  f.run("a.tcap", "mobile32", {{2, frame(100, 10, 80, 1, 4, 1)}}, {{"gpu.tile_writeback", "store-ops"}});
  const auto rows = figure_rows(f.db(), "baseline");
  EXPECT_DOUBLE_EQ(at(rows, "a.tcap", "mobile4", "busy"), 0.25);
  EXPECT_DOUBLE_EQ(at(rows, "a.tcap", "mobile4", "texture_wait"), 0.5);
  EXPECT_DOUBLE_EQ(at(rows, "a.tcap", "mobile4", "flush_share"), 0.5);
  EXPECT_DOUBLE_EQ(at(rows, "b.tcap", "mobile4", "busy"), 1.0);  // its only frame is cold: kept
  EXPECT_DOUBLE_EQ(at(rows, "mean", "mobile4", "busy"), 0.625);
  EXPECT_DOUBLE_EQ(at(rows, "mean", "mobile4", "memory_energy_share"), 0.75);
  EXPECT_DOUBLE_EQ(at(rows, "mean", "mobile4", "writeback_color"), 1.0);
  EXPECT_DOUBLE_EQ(at(rows, "mean", "mobile32", "writeback_color"), 0.0);
  EXPECT_DOUBLE_EQ(at(rows, "mean", "mobile32", "flush_share"), 0.25);
  for (const auto& r : rows) EXPECT_NE(r.series, "mobile4+dtexl");
}

TEST(FigureSql, ScalingPairsEachCoreCountWithItsOwnBaseline) {
  TempPath path("r.db");
  FigureDb f(path.str());
  for (const char* capture : {"a.tcap", "b.tcap"}) {
    f.run(capture, "mobile32", {{1, {{"cycles", 1000}}}}, {{"gpu.shader_cores", "32"}});
    f.run(capture, "mobile32+dtm-nuca", {{1, {{"cycles", 800}}}}, {{"gpu.shader_cores", "32"}});
    f.run(capture, "mobile32+gpu.shader_cores=4", {{1, {{"cycles", 4000}}}}, {{"gpu.shader_cores", "4"}});
  }
  f.run("a.tcap", "mobile32+dtm-nuca+gpu.shader_cores=4", {{1, {{"cycles", 3200}}}}, {{"gpu.shader_cores", "4"}});
  f.run("b.tcap", "mobile32+dtm-nuca+gpu.shader_cores=4", {{1, {{"cycles", 4000}}}}, {{"gpu.shader_cores", "4"}});
  const auto rows = figure_rows(f.db(), "000-fig11-scaling");
  EXPECT_DOUBLE_EQ(at(rows, "a.tcap", "DTM-NUCA", "", 4), 1.25);
  EXPECT_DOUBLE_EQ(at(rows, "mean", "DTM-NUCA", "", 4), 1.125);
  EXPECT_DOUBLE_EQ(at(rows, "mean", "DTM-NUCA", "", 32), 1.25);
  for (const auto& r : rows) EXPECT_NE(r.series, "Baseline");
  EXPECT_NEAR(*headline_value(rows, headline("000-fig11-scaling", "speedup with 4 cores, DTM-NUCA ")), 12.5, 1e-9);
}

TEST(FigureSql, MissRatioCurvesPoolTheSuitePerPolicyAndSize) {
  TempPath path("r.db");
  FigureDb f(path.str());
  auto params = [](const char* size, const char* policy, const char* bypass = "false") {
    return results::Params{{"tile.size", size}, {"tile.policy", policy}, {"tile.ways", "4"}, {"tile.bypass", bypass}};
  };
  f.run("a.tcap", "mobile4-64k", {{1, {{"tile.accesses", 100}, {"tile.misses", 40}, {"tile.lower_bound_lines", 20}}}},
        params("65536", "lru"));
  f.run("b.tcap", "mobile4-64k", {{1, {{"tile.accesses", 300}, {"tile.misses", 80}, {"tile.lower_bound_lines", 60}}}},
        params("65536", "lru"));
  f.run("a.tcap", "mobile4-64k+tile.policy=opt", {{1, {{"tile.accesses", 100}, {"tile.misses", 25}}}},
        params("65536", "opt"));
  f.run("a.tcap", "mobile4-64k+tile.size=16384+tile.policy=opt", {{1, {{"tile.accesses", 100}, {"tile.misses", 50}}}},
        params("16384", "opt"));
  f.run("a.tcap", "mobile4-64k+tile.policy=opt+tile.bypass=true", {{1, {{"tile.accesses", 100}, {"tile.misses", 20}}}},
        params("65536", "opt", "true"));
  f.run("a.tcap", "mobile4-64k+tcor", {{1, {{"tile.accesses", 100}, {"tile.misses", 1}}}}, params("65536", "opt"));
  const auto rows = figure_rows(f.db(), "003-fig11-mrc");
  EXPECT_DOUBLE_EQ(at(rows, "suite", "LRU, 4-way", "", 64), 0.3);  // (40 + 80) / (100 + 300)
  EXPECT_DOUBLE_EQ(at(rows, "suite", "OPT, 4-way", "", 64), 0.25);
  EXPECT_DOUBLE_EQ(at(rows, "suite", "OPT, 4-way", "", 16), 0.5);
  EXPECT_DOUBLE_EQ(at(rows, "suite", "OPT (writes bypass), 4-way", "", 64), 0.2);
  EXPECT_DOUBLE_EQ(at(rows, "suite", "lower bound (LB)", "", 64), 0.2);
  EXPECT_EQ(rows.size(), 5u);  // the tcor scheme run is not a point of the curves
}

// Figs. 11-12 like for like: TCOR's Attribute Cache in primitives, OPT and LRU per associativity,
// each against the bound of its own capacity; x is the Attribute Cache (tile.size - tcor.plc_size).
TEST(FigureSql, AttributeCacheCurvesAgainstTheirOwnBound) {
  TempPath path("r.db");
  FigureDb f(path.str());
  auto params = [](const char* size, const char* ways, const char* policy) {
    return results::Params{{"tile.size", size}, {"tcor.plc_size", "16384"}, {"tile.ways", ways}, {"tcor.policy", policy}};
  };
  auto counts = [](double accesses, double misses, double lb) {
    return std::map<uint32_t, fixture::Metrics>{
        {1, {{"tile.attr.accesses", accesses}, {"tile.attr.misses", misses}, {"tcor.lower_bound", lb}}}};
  };
  f.run("a.tcap", "mobile4-64k+tcor+tile.ways=0", counts(100, 60, 55), params("65536", "0", "opt"));
  f.run("b.tcap", "mobile4-64k+tcor+tile.ways=0", counts(300, 150, 145), params("65536", "0", "opt"));
  f.run("a.tcap", "mobile4-64k+tcor+tile.ways=0+tcor.policy=lru", counts(100, 80, 55), params("65536", "0", "lru"));
  f.run("a.tcap", "mobile4-64k+tcor+tile.size=32KiB+tile.ways=0", counts(100, 90, 70), params("32768", "0", "opt"));
  f.run("a.tcap", "mobile4-64k+tcor", counts(100, 65, 57), params("65536", "4", "opt"));
  // Not points: TCOR without its L2 policy (the same Attribute Cache, counted once) and the unified cache.
  f.run("a.tcap", "mobile4-64k+tcor-no-l2", counts(100, 1, 1), params("65536", "4", "opt"));
  f.run("a.tcap", "mobile4-64k", counts(100, 1, 1), params("65536", "4", "opt"));
  const auto rows = figure_rows(f.db(), "003-fig11-attribute-cache");
  EXPECT_DOUBLE_EQ(at(rows, "suite", "OPT (TCOR), fully associative", "", 48), 0.525);  // (60 + 150) / 400
  EXPECT_DOUBLE_EQ(at(rows, "suite", "LRU, fully associative", "", 48), 0.8);
  EXPECT_DOUBLE_EQ(at(rows, "suite", "OPT (TCOR), fully associative", "", 16), 0.9);
  EXPECT_DOUBLE_EQ(at(rows, "suite", "OPT (TCOR), 4-way", "", 48), 0.65);
  EXPECT_DOUBLE_EQ(at(rows, "suite", "lower bound (LB), fully associative", "", 48), 0.5);  // (55 + 145) / 400: one run per point
  EXPECT_DOUBLE_EQ(at(rows, "suite", "lower bound (LB), fully associative", "", 16), 0.7);
  EXPECT_DOUBLE_EQ(at(rows, "suite", "lower bound (LB), 4-way", "", 48), 0.57);
  EXPECT_EQ(rows.size(), 7u);
}

TEST(FigureSql, FootprintCaseSharesAndTheirHeadlines) {
  TempPath path("r.db");
  FigureDb f(path.str());
  f.run("a.tcap", "mobile-256k+tfm",
        {{1, {{"tfm.case1", 29}, {"tfm.case2", 10}, {"tfm.case3", 8}, {"tfm.case4", 3}}},
         {2, {{"tfm.case1", 29}, {"tfm.case2", 10}, {"tfm.case3", 8}, {"tfm.case4", 3}}}});
  const auto rows = figure_rows(f.db(), "004-cases");
  EXPECT_DOUBLE_EQ(at(rows, "a.tcap", "TFM", "one block (case 1)"), 0.58);
  EXPECT_DOUBLE_EQ(at(rows, "a.tcap", "TFM", "two blocks (cases 2, 3)"), 0.36);
  EXPECT_DOUBLE_EQ(at(rows, "mean", "TFM", "four blocks (case 4)"), 0.06);
  EXPECT_NEAR(*headline_value(rows, headline("004-cases", "footprints in two blocks")), 36.0, 1e-9);
}

TEST(FigureSql, HitRatesAndEnergyRatiosOfTheTexturePath) {
  TempPath path("r.db");
  FigureDb f(path.str());
  // The conventional unit of Algorithm 1 is Fig. 8's L1 bar and Fig. 9's baseline; the
  // coalescing mobile-256k is drawn beside them under its own name.
  f.run("a.tcap", "mobile-256k+conventional-tu",
        {{1, {{"l1tex.accesses", 100}, {"l1tex.hits", 96}, {"energy.texture_path_pj_per_access", 40}}}});
  f.run("a.tcap", "mobile-256k",
        {{1, {{"l1tex.accesses", 50}, {"l1tex.hits", 41}, {"energy.texture_path_pj_per_access", 30}}}});
  f.run("a.tcap", "mobile-256k+filter-dm512",
        {{1, {{"tfm.accesses", 100}, {"tfm.hits", 75}, {"energy.texture_path_pj_per_access", 16}}}});
  f.run("a.tcap", "mobile-256k+tfm",
        {{1, {{"tfm.accesses", 200}, {"tfm.hits", 160}, {"energy.texture_path_pj_per_access", 12}}}});
  const auto hits = figure_rows(f.db(), "004-fig8-hit-rate");
  EXPECT_DOUBLE_EQ(at(hits, "a.tcap", "TFM"), 0.8);
  EXPECT_DOUBLE_EQ(at(hits, "mean", "L1 16 KiB 2-way"), 0.96);
  EXPECT_DOUBLE_EQ(at(hits, "mean", "L1 16 KiB 2-way, per line (ours)"), 0.82);
  EXPECT_NEAR(*headline_value(hits, headline("004-fig8-hit-rate", "TFM hit rate")), 80.0, 1e-9);
  const auto energy = figure_rows(f.db(), "004-fig9-access-energy");
  EXPECT_NEAR(*headline_value(energy, headline("004-fig9-access-energy", "access energy, TFM against a 512 B direct")),
              -25.0, 1e-9);
  EXPECT_NEAR(*headline_value(energy, headline("004-fig9-access-energy", "access energy, TFM against the conv")),
              -70.0, 1e-9);
  EXPECT_DOUBLE_EQ(at(energy, "a.tcap", "Coalescing L1 + L2 (ours)"), 30.0);
  EXPECT_FALSE(headline_value(energy, headline("004-fig9-access-energy", "access energy, TFM against a 512 B fully")));
  // Fig. 8 on one core in scanline tile order reads the runs named as studies/004-tfm.json names them.
  f.run("a.tcap", "mobile-256k+tfm+gpu.shader_cores=1+gpu.tile_order=scanline",
        {{1, {{"tfm.accesses", 100}, {"tfm.hits", 90}}}});
  f.run("a.tcap", "mobile-256k+conventional-tu+gpu.shader_cores=1+gpu.tile_order=scanline",
        {{1, {{"l1tex.accesses", 100}, {"l1tex.hits", 97}}}});
  const auto one_core = figure_rows(f.db(), "004-fig8-hit-rate-one-core");
  EXPECT_DOUBLE_EQ(at(one_core, "a.tcap", "TFM"), 0.9);
  EXPECT_DOUBLE_EQ(at(one_core, "mean", "L1 16 KiB 2-way"), 0.97);
}

TEST(FigureSql, EnergyAgainstSpeedupPerWarpCountAndScheme) {
  TempPath path("r.db");
  FigureDb f(path.str());
  f.run("a.tcap", "tegra2", {{1, {{"cycles", 3230}, {"energy.total_nj", 100}}}});
  f.run("a.tcap", "tegra2+core.max_quads=16", {{1, {{"cycles", 1000}, {"energy.total_nj", 125}}}});
  f.run("a.tcap", "tegra2+dae+core.max_quads=2", {{1, {{"cycles", 1075}, {"energy.total_nj", 82.5}}}});
  const auto rows = figure_rows(f.db(), "002-fig3b-energy-speedup");
  EXPECT_DOUBLE_EQ(*rows.front().x, 3.23);
  EXPECT_DOUBLE_EQ(rows.front().value, 1.25);
  EXPECT_NEAR(*headline_value(rows, headline("002-fig3b-energy-speedup", "GPU energy, 16 warps")), 25.0, 1e-9);
  EXPECT_NEAR(*headline_value(rows, headline("002-fig3b-energy-speedup", "GPU energy, DAE with 2 warps")), -34.0, 1e-9);
  const auto speed = figure_rows(f.db(), "002-fig3a-speedup");
  EXPECT_NEAR(*headline_value(speed, headline("002-fig3a-speedup", "speedup, 16 warps")), 3.23, 1e-9);
  EXPECT_NEAR(*headline_value(speed, headline("002-fig3a-speedup", "DAE with 2 warps")), 100 * 1000 / 1075.0, 1e-9);
}

// Fig. 3's prefetchers: the paper's "up to 1.9x" is the better of the GHB and MTA prefetchers, and
// DAE is compared with that one; perfect memory (pixel and texture caches) carries the 3.29x.
TEST(FigureSql, TheBetterPrefetcherAndPerfectMemory) {
  TempPath path("r.db");
  FigureDb f(path.str());
  f.run("a.tcap", "tegra2", {{1, {{"cycles", 3230}, {"energy.total_nj", 100}}}});
  f.run("a.tcap", "tegra2+prefetch-ghb", {{1, {{"cycles", 2000}, {"energy.total_nj", 90}}}});
  f.run("a.tcap", "tegra2+prefetch-mta", {{1, {{"cycles", 1700}, {"energy.total_nj", 95}}}});
  f.run("a.tcap", "tegra2+dae", {{1, {{"cycles", 1275}, {"energy.total_nj", 85.5}}}});
  f.run("a.tcap", "tegra2+perfect-l1", {{1, {{"cycles", 2584}, {"energy.total_nj", 80}}}});
  f.run("a.tcap", "tegra2+perfect-memory", {{1, {{"cycles", 1000}, {"energy.total_nj", 50}}}});
  const auto speed = figure_rows(f.db(), "002-fig3a-speedup");
  EXPECT_DOUBLE_EQ(at(speed, "a.tcap", "GHB prefetcher"), 1.615);
  EXPECT_DOUBLE_EQ(at(speed, "a.tcap", "MTA prefetcher"), 1.9);
  EXPECT_DOUBLE_EQ(at(speed, "mean", "Better prefetcher"), 1.9);
  EXPECT_DOUBLE_EQ(at(speed, "a.tcap", "Perfect caches"), 1.25);
  EXPECT_DOUBLE_EQ(at(speed, "a.tcap", "Perfect memory"), 3.23);
  EXPECT_NEAR(*headline_value(speed, headline("002-fig3a-speedup", "speedup, prefetchers at 1 warp")), 1.9, 1e-9);
  EXPECT_NEAR(*headline_value(speed, headline("002-fig3a-speedup", "speedup, perfect pixel and texture")), 3.23, 1e-9);
  EXPECT_NEAR(*headline_value(speed, headline("002-fig3a-speedup", "DAE over the better prefetcher")), 1700 / 1275.0,
              1e-9);
  // The better prefetcher's rows appear once per capture, next to the two it is chosen from.
  std::vector<std::string> series;
  for (const auto& r : speed)
    if (r.capture == "a.tcap") series.push_back(r.series);
  EXPECT_EQ(series, (std::vector<std::string>{"GHB prefetcher", "MTA prefetcher", "Better prefetcher", "DAE",
                                              "Perfect caches", "Perfect memory"}));
  const auto energy = figure_rows(f.db(), "002-fig3b-energy-speedup");
  EXPECT_NEAR(*headline_value(energy, headline("002-fig3b-energy-speedup", "GPU energy, DAE against the better")), -10.0,
              1e-9);
  // With the GHB prefetcher the faster, it is the better one.
  f.run("a.tcap", "tegra2+prefetch-mta", {{1, {{"cycles", 2500}, {"energy.total_nj", 95}}}});
  EXPECT_DOUBLE_EQ(at(figure_rows(f.db(), "002-fig3a-speedup"), "mean", "Better prefetcher"), 1.615);
  EXPECT_DOUBLE_EQ(at(figure_rows(f.db(), "002-fig3b-energy-speedup"), "mean", "Better prefetcher"), 0.9);
}

TEST(FigureSql, AbsoluteMetricsAndRatiosOfTwoMetrics) {
  TempPath path("r.db");
  FigureDb f(path.str());
  f.run("a.tcap", "tegra2", {{1, {{"l1tex.misses", 100}, {"l1tex.misses_remote_resident", 60}}},
                             {2, {{"l1tex.misses", 100}, {"l1tex.misses_remote_resident", 80}}}});
  f.run("a.tcap", "mobile4", {{1, {{"cores.imbalance", 0.04}, {"replication.avg", 2}}},
                              {2, {{"cores.imbalance", 0.06}, {"replication.avg", 3}}}});
  EXPECT_DOUBLE_EQ(at(figure_rows(f.db(), "002-remote-resident-misses"), "mean", "tegra2"), 0.7);
  EXPECT_DOUBLE_EQ(at(figure_rows(f.db(), "001-fig14-time-imbalance"), "a.tcap", "FG-xshift2"), 5.0);
  EXPECT_DOUBLE_EQ(at(figure_rows(f.db(), "replication-avg"), "a.tcap", "mobile4"), 2.5);
}

TEST(FigureSql, ReplicationSharesPerPreset) {
  TempPath path("r.db");
  FigureDb f(path.str());
  f.run("a.tcap", "mobile4", {{1, {{"replication.share_1", 0.154}, {"replication.share_2", 0.2},
                                   {"replication.share_3", 0.146}, {"replication.share_4plus", 0.5}}}});
  const auto rows = figure_rows(f.db(), "000-fig01-replication");
  EXPECT_DOUBLE_EQ(at(rows, "a.tcap", "mobile4", "4+ L1s"), 0.5);
  EXPECT_NEAR(*headline_value(rows, headline("000-fig01-replication", "blocks in exactly one")), 15.4, 1e-9);
}

TEST(FigureSql, SuiteDescribesEachCapture) {
  TempPath path("r.db");
  FigureDb f(path.str());
  // FixtureDb frames are 64x32 = 2048 pixels.
  for (const char* config : {"mobile4", "mobile32"}) {
    f.run("out/game.tcap", config,
          {{4, {{"draws", 10}, {"quads", 500}, {"fragments", 4096}, {"replay.psnr_db", 40},
                {"workload.texture_bytes", 2 * 1048576.0}}},
           {5, {{"draws", 20}, {"quads", 700}, {"fragments", 2048}, {"replay.psnr_db", 50}}}});
  }
  const Table t = run(f.db(), figure_sql("suite"));
  ASSERT_EQ(t.rows.size(), 1u);
  const auto& r = t.rows[0];
  EXPECT_EQ(*r[t.column("capture")], "out/game.tcap");
  EXPECT_EQ(*r[t.column("resolution")], "64x32");
  EXPECT_EQ(*r[t.column("frames")], "2");
  EXPECT_EQ(*r[t.column("configurations")], "2");
  EXPECT_DOUBLE_EQ(std::stod(*r[t.column("draws")]), 15);
  EXPECT_DOUBLE_EQ(std::stod(*r[t.column("overdraw")]), 1.5);
  EXPECT_DOUBLE_EQ(std::stod(*r[t.column("texture_mib")]), 2);
  EXPECT_DOUBLE_EQ(std::stod(*r[t.column("psnr_min_db")]), 40);
  EXPECT_DOUBLE_EQ(std::stod(*r[t.column("psnr_mean_db")]), 45);
  EXPECT_EQ(*r[t.column("worst_frame")], "4");
}

TEST(FigureSql, TilesAverageMeasuredFramesCountingMissingTilesAsZero) {
  TempPath path("r.db");
  FigureDb f(path.str());
  f.run("a.tcap", "mobile4",
        {{1, {{"sim.warm", 0}}}, {2, {{"sim.warm", 1}}}, {3, {{"sim.warm", 1}}}}, {},
        {{1, {{0, 0, "cycles", 1000}}}, {2, {{0, 0, "cycles", 10}, {1, 0, "cycles", 7}}}, {3, {{0, 0, "cycles", 30}}}});
  // The figure's rows: a grid per measured frame (the cold frame 1 left out), frame 2's 2x1.
  const Table t = run(f.db(), figure_sql("tiles"));
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_EQ(*t.rows[0][t.column("grid")], "[10,7]");
  EXPECT_EQ(*t.rows[0][t.column("frames")], "2");
  EXPECT_EQ(*t.rows[1][t.column("grid")], "[30]");
  const HeatMaps h = load_heat_maps(f.db(), {});
  const Grid& g = h.captures.at("a.tcap").at("mobile4").at("cycles");
  EXPECT_EQ(g.width, 2u);
  EXPECT_EQ(g.height, 1u);
  EXPECT_DOUBLE_EQ(g.cells.at({0, 0}), 20);   // (10 + 30) / 2
  EXPECT_DOUBLE_EQ(g.cells.at({1, 0}), 3.5);  // (7 + 0) / 2, not rounded down
  // A grid without any value measured nothing: no map (not one of zeros, nor a 0x0 one).
  {
    results::ResultsDb& db = f.db();
    int64_t run_id = 0, frame_id = 0;
    db.query("SELECT run_id, frame_id FROM run JOIN frame USING (capture_id) WHERE present = 2",
             [&](const auto&, const results::ResultsDb::Row& r) {
               run_id = std::stoll(r.values[0]);
               frame_id = std::stoll(r.values[1]);
             });
    db.begin();
    db.put_tile_grid(run_id, frame_id, "l2.accesses", {2, {std::nullopt, std::nullopt}});
    db.commit();
    EXPECT_EQ(load_heat_maps(f.db(), {}).captures.at("a.tcap").at("mobile4").count("l2.accesses"), 0u);
  }
  // A run with no warm frame keeps its cold ones (the rule of every figure); against its base,
  // tile by tile.
  f.run("b.tcap", "mobile4", {{1, {{"sim.warm", 0}}}, {2, {{"sim.warm", 0}}}}, {},
        {{1, {{0, 0, "cycles", 100}}}, {2, {{0, 0, "cycles", 300}}}});
  f.run("b.tcap", "mobile4+x", {{1, {{"sim.warm", 0}}}}, {}, {{1, {{0, 0, "cycles", 50}, {1, 1, "cycles", 4}}}});
  const HeatMaps u = load_heat_maps(f.db(), {{"mobile4+x", "mobile4"}});
  EXPECT_DOUBLE_EQ(u.captures.at("b.tcap").at("mobile4").at("cycles").cells.at({0, 0}), 200);  // (100 + 300) / 2
  const Grid& d = u.captures.at("b.tcap").at("mobile4+x \u2212 mobile4").at("cycles");
  EXPECT_DOUBLE_EQ(d.cells.at({0, 0}), -150);
  EXPECT_DOUBLE_EQ(d.cells.at({1, 1}), 4);
  EXPECT_EQ(d.width, 2u);  // the capture's largest extent
  EXPECT_EQ(d.height, 2u);
}

TEST(FigureSql, PairDeltasTakesItsPairsAndMetricsFromTheCaller) {
  TempPath path("r.db");
  FigureDb f(path.str());
  f.warm_run("a.tcap", "mobile4", "cycles", 1, 100, 300);
  f.warm_run("a.tcap", "mobile4+dtexl", "cycles", 1, 100, 100);
  f.warm_run("b.tcap", "mobile4", "cycles", 1, 100, 100);
  f.warm_run("b.tcap", "mobile4+dtexl", "cycles", 1, 50, 50);
  const Table t = run(f.db(), pair_deltas_sql({{"mobile4+dtexl", "mobile4"}}, {"cycles"}));
  ASSERT_EQ(t.rows.size(), 3u);
  EXPECT_EQ(*t.rows[0][t.column("capture")], "a.tcap");
  EXPECT_DOUBLE_EQ(std::stod(*t.rows[0][t.column("value")]), 100);
  EXPECT_DOUBLE_EQ(std::stod(*t.rows[0][t.column("base_value")]), 200);
  EXPECT_DOUBLE_EQ(std::stod(*t.rows[0][t.column("ratio")]), 0.5);
  EXPECT_EQ(*t.rows[0][t.column("frames")], "2");
  EXPECT_EQ(*t.rows[2][t.column("capture")], "mean");
  EXPECT_DOUBLE_EQ(std::stod(*t.rows[2][t.column("ratio")]), 0.5);
  // The file as a user runs it pairs each configuration with its preset and the default metrics.
  const Table as_is = run(f.db(), figure_sql("pair-deltas"));
  std::set<std::string> pairs;
  for (const auto& r : as_is.rows) pairs.insert(*r[as_is.column("config")] + "/" + *r[as_is.column("base")]);
  EXPECT_EQ(pairs, (std::set<std::string>{"mobile4/mobile4", "mobile4+dtexl/mobile4"}));
  // A name with a quote stays one literal.
  EXPECT_NO_THROW(run(f.db(), pair_deltas_sql({{"it's", "mobile4"}}, {"cycles"})));
}

TEST(FigureSql, EveryFileRunsOnAnEmptyDatabaseAndEveryFigureHasOne) {
  TempPath path("r.db");
  FigureDb f(path.str());
  std::set<std::string> files;
  for (const auto& name : figure_names()) {
    files.insert(name);
    EXPECT_NO_THROW(run(f.db(), figure_sql(name))) << name;
  }
  std::set<std::string> used = {"suite", "tiles", "pair-deltas", "baseline"};
  auto check = [&](const Figure& fig) {
    EXPECT_TRUE(files.count(fig.id)) << fig.id << " has no report/figures/" << fig.id << ".sql";
    EXPECT_FALSE(fig.needs.empty()) << fig.id;
    used.insert(fig.id);
  };
  for (const auto& p : papers())
    for (const auto& fig : p.figures) check(fig);
  for (const auto& fig : replication_figures()) check(fig);
  EXPECT_EQ(used, files) << "a figure file the report never draws";
}

TEST(FigureSql, EveryFigureReadsMeasuredFramesThroughTheViews) {
  // One rule for which frames count, stated once in report/views.sql: no figure restates it (no
  // figure reads sim.warm), each reads the rows the views leave.
  for (const auto& name : figure_names()) {
    const std::string& sql = figure_sql(name);
    EXPECT_EQ(sql.find("sim.warm"), std::string::npos) << name;
    if (name == "suite") continue;  // the functional pass: every frame counts
    bool reads_view = false;
    for (const char* view : {"measured_frame_metrics", "normalised_rows", "metric_rows", "stacked_rows", "cold_frame_ids"})
      reads_view = reads_view || sql.find(view) != std::string::npos;
    EXPECT_TRUE(reads_view) << name;
  }
}

TEST(FigureSql, AFigureFillsItsOwnSeriesOnAConnectionThatRanAnother) {
  // The series tables are shared by the connection: each figure replaces their rows, so the one
  // drawn before leaves none behind.
  TempPath path("r.db");
  FigureDb f(path.str());
  auto frames = [](double cycles, double l2) {
    return std::map<uint32_t, fixture::Metrics>{{1, {{"cycles", 1}, {"l2.accesses", 1}, {"sim.warm", 0}}},
                                                {2, {{"cycles", cycles}, {"l2.accesses", l2}, {"sim.warm", 1}}}};
  };
  f.run("a.tcap", "mobile32", frames(400, 200));
  f.run("a.tcap", "mobile32+dtm-nuca", frames(200, 100));
  f.run("a.tcap", "mobile4",
        {{1, {{"replication.avg", 1}, {"replication.share_1", 1}, {"sim.warm", 0}}},
         {2, {{"replication.avg", 2}, {"replication.share_1", 0.25}, {"sim.warm", 1}}},
         {3, {{"replication.avg", 4}, {"replication.share_1", 0.75}, {"sim.warm", 1}}}});
  for (int pass = 0; pass < 2; ++pass) {
    const auto speedup = figure_rows(f.db(), "000-fig09-speedup-nuca");
    ASSERT_EQ(speedup.size(), 2u);  // a.tcap and the mean, DTM-NUCA only
    EXPECT_DOUBLE_EQ(at(speedup, "a.tcap", "DTM-NUCA"), 2.0);
    const auto l2 = figure_rows(f.db(), "000-fig06-l2-nuca");
    ASSERT_EQ(l2.size(), 2u);
    EXPECT_DOUBLE_EQ(at(l2, "mean", "DTM-NUCA"), 0.5);
    const auto replication = figure_rows(f.db(), "replication-avg");
    ASSERT_EQ(replication.size(), 2u);
    EXPECT_DOUBLE_EQ(at(replication, "mean", "mobile4"), 3.0);  // (2 + 4) / 2, the cold frame out
    const auto shares = figure_rows(f.db(), "000-fig01-replication");
    ASSERT_EQ(shares.size(), 2u);
    EXPECT_DOUBLE_EQ(at(shares, "mean", "mobile4", "1 L1"), 0.5);
  }
  // A series with a normalisation the view does not know is refused, not drawn as a ratio.
  EXPECT_THROW(run(f.db(), "INSERT INTO normalised_series VALUES (0, 's', 'a', 'b', 'cycles', 'speedups')"),
               results::Error);
}

TEST(FigureSql, TheViewsWorkOnADatabaseOpenedReadOnlyAndFollowATempFrameMetrics) {
  TempPath path("r.db");
  {
    FigureDb f(path.str());
    f.warm_run("a.tcap", "mobile4", "cycles", 1, 100, 300);
    f.warm_run("a.tcap", "mobile4+dtexl", "cycles", 1, 100, 100);
    f.warm_run("b.tcap", "mobile4", "cycles", 1, 100, 100);
    f.warm_run("b.tcap", "mobile4+dtexl", "cycles", 1, 25, 25);
  }
  auto db = open_for_figures(path.str());
  create_figure_views(*db);  // a second time: nothing changes
  auto rows = figure_rows(*db, "001-fig17-speedup-dtexl");
  EXPECT_DOUBLE_EQ(at(rows, "a.tcap", "DTexL (HLB-flp2)"), 2.0);
  EXPECT_DOUBLE_EQ(at(rows, "mean", "DTexL (HLB-flp2)"), 3.0);  // (2 + 4) / 2
  // tessera report --captures shadows frame_metrics with a temp view: the figure views read it.
  run(*db, "CREATE TEMP VIEW frame_metrics AS SELECT * FROM main.frame_metrics WHERE capture = 'a.tcap'");
  rows = figure_rows(*db, "001-fig17-speedup-dtexl");
  EXPECT_EQ(rows.size(), 2u);
  EXPECT_DOUBLE_EQ(at(rows, "mean", "DTexL (HLB-flp2)"), 2.0);
}

TEST(Headlines, FormatAsThePaperPrints) {
  EXPECT_EQ(format_headline(-46.8, Show::kChange), "-46.8 %");
  EXPECT_EQ(format_headline(16.9, Show::kChange), "+16.9 %");
  EXPECT_EQ(format_headline(66.3, Show::kPercent), "66.3 %");
  EXPECT_EQ(format_headline(1.2, Show::kTimes), "1.20x");
  EXPECT_EQ(format_headline(46.5, Show::kPoints), "46.5 %");
}

// The verdict column: direction from the effects' signs (a dead band of 1 point, 0.01 for a
// ratio), within 2x on the effects' sizes; shares have no direction.
TEST(Headlines, VerdictJudgesDirectionAndMagnitude) {
  auto j = [](double paper, double ours, Show show) {
    const Verdict v = judge(paper, ours, show);
    return std::make_pair(v.direction, v.within_2x);
  };
  // DTexL's L2 accesses: -46.8 % against -47.9 %; DTexL's speedup 1.2x against 1.00x (no change).
  EXPECT_EQ(j(-46.8, -47.9, Show::kChange), std::make_pair(Direction::kAgrees, true));
  EXPECT_EQ(j(1.2, 1.004, Show::kTimes), std::make_pair(Direction::kFlat, false));
  // Energy -6.3 % against +2.0 %: opposite; against -0.6 %: no change where the paper has one.
  EXPECT_EQ(j(-6.3, 2.0, Show::kChange), std::make_pair(Direction::kOpposite, false));
  EXPECT_EQ(j(-6.3, -0.6, Show::kChange), std::make_pair(Direction::kFlat, false));
  // Same sign: within 2x up to a factor of exactly two of the effect, either way.
  EXPECT_EQ(j(-13.9, -5.4, Show::kChange), std::make_pair(Direction::kAgrees, false));
  EXPECT_EQ(j(-10, -20, Show::kChange), std::make_pair(Direction::kAgrees, true));
  EXPECT_EQ(j(-10, -20.1, Show::kChange), std::make_pair(Direction::kAgrees, false));
  EXPECT_EQ(j(-10, -5, Show::kChange), std::make_pair(Direction::kAgrees, true));
  // A ratio's effect is v - 1: 1.2x against 1.35x is 0.2 against 0.35.
  EXPECT_EQ(j(1.2, 1.35, Show::kTimes), std::make_pair(Direction::kAgrees, true));
  EXPECT_EQ(j(1.2, 1.45, Show::kTimes), std::make_pair(Direction::kAgrees, false));
  EXPECT_EQ(j(0.5, 0.7, Show::kTimes), std::make_pair(Direction::kAgrees, true));   // -0.5, -0.3
  EXPECT_EQ(j(0.5, 0.8, Show::kTimes), std::make_pair(Direction::kAgrees, false));  // -0.5, -0.2
  // "No speedup" (1x) against 0.995x: both no change, which is within 2x; against 0.98x: not.
  EXPECT_EQ(j(1, 0.995, Show::kTimes), std::make_pair(Direction::kAgrees, true));
  EXPECT_EQ(j(1, 0.98, Show::kTimes), std::make_pair(Direction::kFlat, false));
  // Points are already percentages: Fig. 16's L2 decrease of 46.5 against 44.7.
  EXPECT_EQ(j(46.5, 44.7, Show::kPoints), std::make_pair(Direction::kAgrees, true));
  // Shares (local hits 66.3 % against 37.2 %, 27.5 % against 4.1 %): no direction, size only.
  EXPECT_EQ(j(66.3, 37.2, Show::kPercent), std::make_pair(Direction::kNone, true));
  EXPECT_EQ(j(27.5, 4.1, Show::kPercent), std::make_pair(Direction::kNone, false));
}

// --- the catalogue, read from the figure and paper files ---------------------------------------

TEST(Catalogue, ReadsEachFigureFromItsOwnLinesAndEachPaperFromItsFile) {
  const NamedTexts papers = {{"007", "# a comment\n\ntitle: X: a paper\nschemes: x, y on mobile4\npreset: mobile4\n"}};
  const NamedTexts figures = {
      {"007-fig2-b", "-- prose\n--@ paper: 007\n--@ title: Fig. 2: second\n--@ chart: stacked\n--@ y: share\n"
                     "--@ needs: runs of x\n--@ headline: X | 66.3 | percent | hits (Fig. 2) | part=local hits\n"
                     "SELECT 1;\n"},
      {"007-fig1-a", "--@ paper: 007\n--@ title: Fig. 1: first: a colon\n--@ chart: lines\n--@ y: ratio\n"
                     "--@ x: size (KiB)\n--@ rule: 1\n--@ log-x: yes\n--@ needs: runs of y\n"
                     "--@ explain: core.cycles.*, dram.row_misses (x/README.md)\n"
                     "--@ headline: Y | -41.8 | change | L2 accesses, Y (Fig. 1, sec. VI) | x=4\n"
                     "--@ headline: Y | 1.33 | times | Y over X | over=X\nSELECT 1;\n"},
      {"helper", "-- the page's own query\nSELECT 1;\n"},
      {"degree", "--@ section: replication\n--@ title: degree\n--@ chart: bars\n--@ y: L1s\n--@ needs: runs\n"},
  };
  const Catalogue c = parse_catalogue(figures, papers);
  ASSERT_EQ(c.papers.size(), 1u);
  const Paper& p = c.papers[0];
  EXPECT_EQ(p.id, "007");
  EXPECT_EQ(p.title, "X: a paper");
  EXPECT_EQ(p.scheme, "x, y on mobile4");
  EXPECT_EQ(p.preset, "mobile4");
  ASSERT_EQ(p.figures.size(), 2u);  // by file name; the helper is no figure
  const Figure& a = p.figures[0];
  EXPECT_EQ(a.id, "007-fig1-a");
  EXPECT_EQ(a.paper, "007");
  EXPECT_EQ(a.title, "Fig. 1: first: a colon");
  EXPECT_EQ(a.chart, Chart::kLines);
  EXPECT_EQ(a.y_title, "ratio");
  EXPECT_EQ(a.x_title, "size (KiB)");
  EXPECT_EQ(a.rule, std::optional<double>(1.0));
  EXPECT_TRUE(a.log_x);
  EXPECT_EQ(a.needs, "runs of y");
  EXPECT_EQ(a.explain, "core.cycles.*, dram.row_misses (x/README.md)");
  ASSERT_EQ(a.headlines.size(), 2u);
  EXPECT_EQ(a.headlines[0].series, "Y");
  EXPECT_DOUBLE_EQ(a.headlines[0].paper, -41.8);
  EXPECT_EQ(a.headlines[0].show, Show::kChange);
  EXPECT_EQ(a.headlines[0].text, "L2 accesses, Y (Fig. 1, sec. VI)");
  EXPECT_EQ(a.headlines[0].x, std::optional<double>(4.0));
  EXPECT_EQ(a.headlines[0].part, "");
  EXPECT_EQ(a.headlines[1].over, "X");
  EXPECT_EQ(a.headlines[1].show, Show::kTimes);
  const Figure& b = p.figures[1];
  EXPECT_EQ(b.chart, Chart::kStacked);
  EXPECT_FALSE(b.rule);
  EXPECT_FALSE(b.log_x);
  EXPECT_EQ(b.x_title, "");
  EXPECT_EQ(b.explain, "");
  ASSERT_EQ(b.headlines.size(), 1u);
  EXPECT_EQ(b.headlines[0].part, "local hits");
  EXPECT_EQ(b.headlines[0].show, Show::kPercent);
  ASSERT_EQ(c.replication.size(), 1u);
  EXPECT_EQ(c.replication[0].id, "degree");
  EXPECT_EQ(c.replication[0].paper, "");
}

TEST(Catalogue, RefusesAWrongLineNamingItsFileAndLine) {
  const NamedTexts papers = {{"007", "title: X\nschemes: x\npreset: mobile4\n"}};
  const std::string good = "--@ paper: 007\n--@ title: t\n--@ chart: bars\n--@ y: y\n--@ needs: n\n";
  auto error = [&](const std::string& sql, const NamedTexts& p) {
    try {
      parse_catalogue({{"007-f", sql}}, p);
    } catch (const CatalogueError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(error(good, papers), "accepted");
  EXPECT_EQ(error(good + "--@ colour: red\n", papers),
            "report/figures/007-f.sql:6: unknown key 'colour' (paper, section, title, chart, y, x, rule, log-x, "
            "needs, explain, headline)");
  EXPECT_EQ(error("--@ chart: pie\n", papers),
            "report/figures/007-f.sql:1: chart 'pie' is none of bars, stacked, lines, scatter");
  EXPECT_EQ(error(good + "--@ rule: one\n", papers), "report/figures/007-f.sql:6: rule 'one' is not a finite number");
  EXPECT_EQ(error(good + "--@ title: again\n", papers), "report/figures/007-f.sql:6: 'title' given twice");
  EXPECT_EQ(error(good + "--@ log-x: maybe\n", papers), "report/figures/007-f.sql:6: log-x is yes or no, not 'maybe'");
  EXPECT_EQ(error(good + "--@ no colon\n", papers), "report/figures/007-f.sql:6: 'no colon' is not 'key: value'");
  EXPECT_EQ(error(good + "--@ section: appendix\n", papers),
            "report/figures/007-f.sql:6: section 'appendix' is not replication (a paper's figures say paper:)");
  EXPECT_EQ(error(good + "--@ headline: X | 1.2 | times\n", papers),
            "report/figures/007-f.sql:6: a headline is 'series | number | change|percent|times|points | text', "
            "then part=, over=, x=");
  EXPECT_EQ(error(good + "--@ headline: X | 1.2x | times | t\n", papers),
            "report/figures/007-f.sql:6: the paper's number '1.2x' is not a finite number");
  EXPECT_EQ(error(good + "--@ headline: X | 1.2 | fold | t\n", papers),
            "report/figures/007-f.sql:6: headline shows 'fold', none of change, percent, times, points");
  EXPECT_EQ(error(good + "--@ headline: X | 1.2 | times | t | under=Y\n", papers),
            "report/figures/007-f.sql:6: headline field 'under=Y' is not part=, over= or x=");
  EXPECT_EQ(error(good + "--@ headline: X | 1.2 | times | t | x=four\n", papers),
            "report/figures/007-f.sql:6: x 'four' is not a finite number");
  EXPECT_EQ(error("--@ paper: 007\n--@ title: t\n--@ chart: bars\n--@ needs: n\n", papers),
            "report/figures/007-f.sql: no '--@ y:' line");
  EXPECT_EQ(error("--@ title: t\n--@ chart: bars\n--@ y: y\n--@ needs: n\n", papers),
            "report/figures/007-f.sql: neither '--@ paper:' nor '--@ section:'");
  EXPECT_EQ(error("--@ section: replication\n--@ title: t\n--@ chart: bars\n--@ y: y\n--@ needs: n\n"
                  "--@ headline: X | 1 | times | t\n",
                  papers),
            "report/figures/007-f.sql: headlines need the paper they quote ('--@ paper:')");
  EXPECT_EQ(error(good, {}), "report/figures/007-f.sql:1: paper '007' has no report/papers/007.txt");
  EXPECT_EQ(error(good + "--@ x:\n", papers), "report/figures/007-f.sql:6: 'x' has no value");
  EXPECT_EQ(error(good + "--@ rule: nan\n", papers), "report/figures/007-f.sql:6: rule 'nan' is not a finite number");
  EXPECT_EQ(error(good + "--@ headline: X | 1 | times | t | part = p | part=q\n", papers),
            "report/figures/007-f.sql:6: headline field part= given twice");
  EXPECT_EQ(error(good + "--@ headline: X | 1 | times | t | over=\n", papers),
            "report/figures/007-f.sql:6: headline field over= has no value");
  // Only the leading comment block is read: a '--@' in the SQL is not a catalogue line.
  EXPECT_EQ(error(good + "SELECT '\n--@ rule: 5\n';\n", papers), "accepted");
  EXPECT_EQ(error(good + "  --@ rule: 5\n", papers), "report/figures/007-f.sql:6: a '--@' line must start in column 1");
  // What a chart can draw.
  EXPECT_EQ(error(good + "--@ x: size\n", papers),
            "report/figures/007-f.sql: '--@ x:' titles an x axis this chart has not (chart: bars)");
  EXPECT_EQ(error(good + "--@ log-x: yes\n", papers), "report/figures/007-f.sql: '--@ log-x:' needs an x axis (chart: bars)");
  EXPECT_EQ(error(good + "--@ headline: X | 1 | percent | t | part=p\n", papers),
            "report/figures/007-f.sql: headline 't' reads a part= of an unstacked chart (chart: bars)");
  EXPECT_EQ(error(good + "--@ headline: X | 1 | percent | t | x=4\n", papers),
            "report/figures/007-f.sql: headline 't' reads a point x= of a chart without lines (chart: bars)");
  EXPECT_EQ(error("--@ paper: 007\n--@ title: t\n--@ chart: lines\n--@ y: y\n--@ needs: n\n", papers),
            "report/figures/007-f.sql: a chart along x needs '--@ x:' (chart: lines)");
  // A paper's figures carry its number in their names; paper files are named by the number.
  EXPECT_EQ([&] {
    try {
      parse_catalogue({{"fig-f", good}}, papers);
    } catch (const CatalogueError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  }(), "report/figures/fig-f.sql: a figure of paper 007 is named 007-<figure>.sql");
  EXPECT_THROW(parse_catalogue({}, {{"README", "title: X\nschemes: x\npreset: p\n"}}), CatalogueError);
  EXPECT_EQ(error(good, {{"007", "title: X\nschemes: x\n"}}), "report/papers/007.txt: no 'preset:' line");
  EXPECT_EQ(error(good, {{"007", "title: X\nschemes: x\npreset: p\nyear: 2020\n"}}),
            "report/papers/007.txt:4: unknown key 'year' (title, schemes, preset)");
}

TEST(Catalogue, EveryEmbeddedFigureBelongsToThePaperItsFileNames) {
  std::set<std::string> ids;
  size_t headlines = 0;
  for (const auto& p : papers()) {
    ids.insert(p.id);
    EXPECT_FALSE(p.figures.empty()) << p.id;
    for (const auto& f : p.figures) {
      EXPECT_EQ(f.paper, p.id) << f.id;
      EXPECT_EQ(f.id.substr(0, 4), p.id + "-") << f.id;
      headlines += f.headlines.size();
    }
  }
  EXPECT_EQ(ids, (std::set<std::string>{"000", "001", "002", "003", "004"}));
  ASSERT_EQ(replication_figures().size(), 2u);
  EXPECT_EQ(replication_figures()[0].paper, "000");  // paper 000 Fig. 1, drawn with the replication
  for (const auto& f : replication_figures()) headlines += f.headlines.size();
  EXPECT_EQ(headlines, 57u);
}

}  // namespace
}  // namespace tessera::report
