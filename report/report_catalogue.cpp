// The papers' figures and headline numbers. Each headline was checked against the paper text in
// ../papers (000 DTM-NUCA, 001 DTexL, 002 DAE, 003 TCOR, 004 TFM); its text cites the figure and
// section it comes from.
#include "report_catalogue.h"

namespace tessera::report {

namespace {

Headline at(std::string series, double paper, Show show, std::string text) {
  Headline h;
  h.series = std::move(series);
  h.paper = paper;
  h.show = show;
  h.text = std::move(text);
  return h;
}

Headline part(Headline h, std::string p) {
  h.part = std::move(p);
  return h;
}

Headline over(Headline h, std::string base) {
  h.over = std::move(base);
  return h;
}

Headline at_x(Headline h, double x) {
  h.x = x;
  return h;
}

std::vector<Paper> make_papers() {
  std::vector<Paper> p;

  p.push_back(Paper{"000", "DTM-NUCA: Dynamic Texture Mapping-NUCA for energy-efficient graphics rendering",
                    "dtm-nuca, dtm-nuca-dist, d-nuca on mobile32", "mobile32", {}});
  p.back().figures = {
      {"000-fig06-l2-nuca", "Fig. 6: L2 accesses, normalised to private texture caches", Chart::kBars,
       "L2 accesses / baseline", "", 1.0, false, "runs of mobile32 and mobile32+dtm-nuca, +dtm-nuca-dist or +d-nuca",
       {at("DTM-NUCA", -41.8, Show::kChange, "L2 accesses, DTM-NUCA (Fig. 6, sec. VI)"),
        at("DTM-NUCA-Dist", -33.3, Show::kChange, "L2 accesses, DTM-NUCA-Dist (Fig. 6, sec. VI)"),
        at("D-NUCA", -46.2, Show::kChange, "L2 accesses, D-NUCA (Fig. 6, sec. VI)")}},
      {"000-fig07-l2-by-l1-size", "Fig. 7: L2 accesses against the L1 texture cache size", Chart::kLines,
       "L2 accesses / baseline 16 KiB", "L1 texture cache (KiB)", 1.0, true,
       "runs of mobile32 with --set l1tex.size=N, with and without +dtm-nuca / +dtm-nuca-dist", {}},
      {"000-fig08-local-remote", "Fig. 8: local and remote accesses to the texture caches", Chart::kStacked,
       "share of L1 texture accesses", "", std::nullopt, false,
       "runs of mobile32+dtm-nuca, +dtm-nuca-dist or +d-nuca with the l1tex.local_hits / remote_* metrics",
       {part(at("DTM-NUCA", 66.3, Show::kPercent, "local hits, DTM-NUCA (Fig. 8, sec. VI)"), "local hits"),
        part(at("DTM-NUCA-Dist", 73.9, Show::kPercent, "local hits, DTM-NUCA-Dist (Fig. 8, sec. VI)"), "local hits"),
        part(at("D-NUCA", 27.5, Show::kPercent, "local hits, D-NUCA (Fig. 8, sec. VI)"), "local hits")}},
      {"000-fig09-speedup-nuca", "Fig. 9: speedup over private texture caches", Chart::kBars, "speedup", "", 1.0,
       false, "runs of mobile32 and mobile32+dtm-nuca, +dtm-nuca-dist or +d-nuca",
       {at("DTM-NUCA", 16.9, Show::kChange, "speedup, DTM-NUCA (Fig. 9, sec. VI)"),
        at("DTM-NUCA-Dist", 15.7, Show::kChange, "speedup, DTM-NUCA-Dist (Fig. 9, sec. VI)"),
        at("D-NUCA", -22.0, Show::kChange, "speedup, D-NUCA: a 22 % slowdown (Fig. 9, sec. VI)")}},
      {"000-fig10-energy-nuca", "Fig. 10: energy, memory hierarchy and rest of the GPU, normalised to the baseline",
       Chart::kStacked, "energy / baseline", "", 1.0, false,
       "runs of mobile32 and mobile32+dtm-nuca, +dtm-nuca-dist or +d-nuca",
       {at("DTM-NUCA", -6.9, Show::kChange, "GPU energy, DTM-NUCA (Fig. 10, sec. VI)"),
        at("DTM-NUCA-Dist", -7.6, Show::kChange, "GPU energy, DTM-NUCA-Dist (Fig. 10, sec. VI)"),
        at("D-NUCA", 4.0, Show::kChange, "GPU energy, D-NUCA (Fig. 10, sec. VI)")}},
      {"000-fig11-scaling", "Fig. 11: speedup against the number of shader cores", Chart::kLines,
       "speedup over private caches, same cores", "shader cores", 1.0, true,
       "runs of mobile32 with --set gpu.shader_cores=N, with and without +dtm-nuca / +dtm-nuca-dist",
       {at_x(at("DTM-NUCA", 10.2, Show::kChange, "speedup with 4 cores, DTM-NUCA (Fig. 11, sec. VI)"), 4),
        at_x(at("DTM-NUCA-Dist", 7.0, Show::kChange, "speedup with 4 cores, DTM-NUCA-Dist (Fig. 11, sec. VI)"),
             4)}},
  };

  p.push_back(Paper{"001", "DTexL: decoupled raster pipeline for texture locality",
                    "dtexl and its variants on mobile4", "mobile4", {}});
  const std::string groupings = "runs of mobile4 and mobile4+dtexl-group-<grouping>";
  p.back().figures = {
      {"001-fig11-l2-by-grouping", "Fig. 11: L2 accesses per quad grouping, normalised to FG-xshift2", Chart::kBars,
       "L2 accesses / FG-xshift2", "", 1.0, false, groupings,
       {at("CG-square", -46.8, Show::kChange, "L2 accesses, CG-square (Fig. 11, sec. V-B)"),
        at("CG-xrect", -40.0, Show::kChange, "L2 accesses, CG-xrect (Fig. 11, sec. V-A)"),
        at("CG-yrect", -45.0, Show::kChange, "L2 accesses, CG-yrect (Fig. 11, sec. V-A)")}},
      {"001-fig12-quad-deviation-by-grouping",
       "Fig. 12: mean deviation of quads per core per tile, normalised to FG-xshift2", Chart::kBars,
       "quad deviation / FG-xshift2", "", 1.0, false, groupings + " with the cores.quad_deviation metric",
       {at("CG-xrect", 6.0, Show::kTimes, "quad deviation, CG-xrect (Fig. 12, sec. V-A)"),
        at("CG-yrect", 10.0, Show::kTimes, "quad deviation, CG-yrect (Fig. 12, sec. V-A)")}},
      {"001-fig13-speedup-cg", "Fig. 13: speedup of CG-square and CG-yrect over FG-xshift2", Chart::kBars,
       "speedup", "", 1.0, false, "runs of mobile4 and mobile4+dtexl-group-cg-square / cg-yrect",
       {at("CG-square", 1.0, Show::kTimes, "speedup, CG-square: none with tile barriers (Fig. 13, sec. V-B)")}},
      {"001-fig14-time-imbalance", "Fig. 14: execution-time imbalance of the shader cores per tile", Chart::kBars,
       "mean deviation of core time per tile (%)", "", std::nullopt, false,
       "runs of mobile4 and mobile4+dtexl-group-cg-square with the cores.imbalance metric",
       {at("FG-xshift2", 5.0, Show::kPoints, "core time deviation, FG-xshift2: about 5 % (Fig. 14, sec. V-B)")}},
      {"001-fig15-quad-imbalance", "Fig. 15: quad-distribution imbalance of the shader cores per tile", Chart::kBars,
       "mean deviation of quads per tile (%)", "", std::nullopt, false,
       "runs of mobile4 and mobile4+dtexl-group-cg-square with the cores.quad_deviation metric", {}},
      {"001-fig16-l2-decrease-by-assignment",
       "Fig. 16: decrease in L2 accesses per subtile assignment, against non-decoupled FG-xshift2", Chart::kBars,
       "decrease in L2 accesses (%)", "", 0.0, false,
       "runs of mobile4 and mobile4+dtexl-<assignment> (zorder-const ... sorder-flp, upper-bound)",
       {at("Zorder-const", 40.7, Show::kPoints, "L2 decrease, Zorder-const (Fig. 16, sec. V-C1)"),
        at("HLB-flp2", 46.5, Show::kPoints, "L2 decrease, HLB-flp1/2/3 (Fig. 16, sec. V-C1)"),
        at("Sorder-flp", 46.8, Show::kPoints, "L2 decrease, Sorder-const/flp (Fig. 16, sec. V-C1)")}},
      {"001-fig17-speedup-dtexl", "Fig. 17: speedup over non-decoupled FG-xshift2", Chart::kBars, "speedup", "",
       1.0, false, "runs of mobile4 and mobile4+dtexl / mobile4+dtexl-fg-decoupled",
       {at("DTexL (HLB-flp2)", 1.2, Show::kTimes, "speedup, DTexL (Fig. 17, sec. V-C2)"),
        at("FG-xshift2 decoupled", 1.09, Show::kTimes, "speedup, FG-xshift2 decoupled (Fig. 17, sec. V-C2)")}},
      {"001-fig18-energy-decrease-dtexl", "Fig. 18: decrease in total GPU energy over non-decoupled FG-xshift2",
       Chart::kBars, "decrease in GPU energy (%)", "", 0.0, false,
       "runs of mobile4 and mobile4+dtexl / mobile4+dtexl-fg-decoupled",
       {at("DTexL (HLB-flp2)", 6.3, Show::kPoints, "GPU energy decrease, DTexL (Fig. 18, sec. V-C3)"),
        at("FG-xshift2 decoupled", 3.0, Show::kPoints,
           "GPU energy decrease, FG-xshift2 decoupled (Fig. 18, sec. V-C3)")}},
  };

  p.push_back(Paper{"002", "DAE: decoupled access/execute on a mobile GPU",
                    "dae, dae-no-sharing, perfect-l1, prefetch-ghb on tegra2 (--set core.max_quads=N warps)", "tegra2", {}});
  p.back().figures = {
      {"002-fig3a-speedup", "Fig. 3a: speedup over one warp per core", Chart::kBars, "speedup", "", 1.0, false,
       "runs of tegra2 and tegra2+<scheme> or tegra2 --set core.max_quads=N",
       {at("Perfect caches", 3.29, Show::kTimes, "speedup, perfect caches (Fig. 3a, sec. 3)"),
        at("16 warps", 3.23, Show::kTimes, "speedup, 16 warps per core (Fig. 3a, sec. 3)"),
        at("GHB prefetcher", 1.9, Show::kTimes, "speedup, prefetchers at 1 warp: up to 1.9x (Fig. 3a, sec. 3)"),
        over(at("DAE, 2 warps", 93.0, Show::kPercent,
                "DAE with 2 warps: share of the 16-warp performance (Fig. 3, sec. 3)"),
             "16 warps"),
        over(at("DAE", 1.33, Show::kTimes, "DAE over the GHB prefetcher at 1 warp: 33 % faster (Fig. 3, sec. 3)"),
             "GHB prefetcher")}},
      {"002-fig3b-energy-speedup", "Fig. 3b: normalised energy against speedup", Chart::kScatter,
       "energy / one warp", "speedup", std::nullopt, false,
       "runs of tegra2 and tegra2+<scheme> or tegra2 --set core.max_quads=N",
       {at("16 warps", 25.0, Show::kChange, "GPU energy, 16 warps per core (Fig. 3b, sec. 3)"),
        over(at("DAE, 2 warps", -34.0, Show::kChange, "GPU energy, DAE with 2 warps against 16 warps (sec. 3)"),
             "16 warps"),
        over(at("DAE", -9.0, Show::kChange, "GPU energy, DAE against the GHB prefetcher at 1 warp (sec. 3)"),
             "GHB prefetcher")}},
      {"002-remote-resident-misses", "Sec. 3: L1 misses whose block another core's cache holds", Chart::kBars,
       "share of L1 misses", "", std::nullopt, false,
       "runs of tegra2 with the l1tex.misses_remote_resident metric",
       {at("tegra2", 66.3, Show::kPercent, "misses another pixel processor's cache could serve (sec. 3)")}},
  };

  p.push_back(Paper{"003", "TCOR: a tile cache with optimal replacement",
                    "tcor, tcor-no-l2 on mobile4-64k (and with --set tile.size=131072 for 128 KiB)", "mobile4-64k", {}});
  const std::string tcor_runs =
      "runs of mobile4-64k and mobile4-64k+tcor (+tcor-no-l2), or of both with --set tile.size=131072";
  p.back().figures = {
      {"003-mrc", "Figs. 11-13: tile cache miss ratio against its size, per replacement policy", Chart::kLines,
       "miss ratio", "tile cache (KiB)", std::nullopt, true,
       "runs of mobile4-64k with --set tile.size=N and tile.policy=lru|opt|mru|drrip (tile.ways=N, 0: fully associative)",
       {}},
      {"003-fig14-pb-l2", "Figs. 14-15: Parameter Buffer accesses to L2, normalised to the baseline",
       Chart::kBars, "PB L2 accesses / baseline", "", 1.0, false, tcor_runs,
       {at("TCOR", -33.5, Show::kChange, "PB accesses to L2, 64 KiB tile cache (Fig. 14, sec. V-B1)"),
        at("TCOR, 128 KiB", -37.1, Show::kChange, "PB accesses to L2, 128 KiB tile cache (Fig. 15, sec. V-B1)")}},
      {"003-fig16-pb-dram", "Figs. 16-17: Parameter Buffer accesses to main memory, normalised to the baseline",
       Chart::kBars, "PB DRAM accesses / baseline", "", 1.0, false, tcor_runs,
       {at("TCOR", -93.0, Show::kChange, "PB accesses to main memory, 64 KiB (Fig. 16, sec. V-B1)"),
        at("TCOR, 128 KiB", -94.1, Show::kChange, "PB accesses to main memory, 128 KiB (Fig. 17, sec. V-B1)")}},
      {"003-fig18-dram", "Figs. 18-19: total main-memory accesses, normalised to the baseline", Chart::kBars,
       "DRAM accesses / baseline", "", 1.0, false, tcor_runs,
       {at("TCOR", -13.9, Show::kChange, "main-memory accesses, 64 KiB (Fig. 18, sec. V-B1)"),
        at("TCOR, 128 KiB", -13.3, Show::kChange, "main-memory accesses, 128 KiB (Fig. 19, sec. V-B1)")}},
      {"003-fig20-memory-energy", "Figs. 20-21: energy of the memory hierarchy, normalised to the baseline",
       Chart::kBars, "memory energy / baseline", "", 1.0, false, tcor_runs,
       {at("TCOR", -14.1, Show::kChange,
           "memory-hierarchy energy, 64 KiB (Fig. 20, sec. V-B2; 13.8 % over both sizes in the abstract)"),
        at("TCOR, 128 KiB", -13.6, Show::kChange, "memory-hierarchy energy, 128 KiB (Fig. 21, sec. V-B2)"),
        at("TCOR without L2 changes", -9.0, Show::kChange,
           "memory-hierarchy energy, TCOR without the L2 policy (Fig. 20, sec. V-B2)")}},
      {"003-fig22-gpu-energy-decrease", "Fig. 22: decrease in total GPU energy", Chart::kBars,
       "decrease in GPU energy (%)", "", 0.0, false, tcor_runs,
       {at("TCOR", 5.6, Show::kPoints, "GPU energy decrease, 64 KiB tile cache (Fig. 22, sec. V-B2)"),
        at("TCOR, 128 KiB", 5.3, Show::kPoints, "GPU energy decrease, 128 KiB tile cache (Fig. 22, sec. V-B2)")}},
  };

  p.push_back(Paper{"004", "TFM: Texture Filter Memory", "tfm, filter-dm512, filter-fa512 on mobile-256k", "mobile-256k",
                    {}});
  p.back().figures = {
      {"004-cases", "Sec. III: bilinear footprints in one, two and four texture blocks", Chart::kStacked,
       "share of texture accesses", "", std::nullopt, false, "runs of mobile-256k+tfm with the tfm.case1..4 metrics",
       {part(at("TFM", 58.0, Show::kPercent, "footprints in one block, case 1 (sec. III)"), "one block (case 1)"),
        part(at("TFM", 36.0, Show::kPercent, "footprints in two blocks, cases 2-3 (sec. III)"),
             "two blocks (cases 2, 3)"),
        part(at("TFM", 6.0, Show::kPercent, "footprints in four blocks, case 4 (sec. III)"),
             "four blocks (case 4)")}},
      {"004-fig8-hit-rate", "Fig. 8: hit rate of the first texture memory level", Chart::kBars, "hit rate", "",
       std::nullopt, false, "runs of mobile-256k and mobile-256k+tfm / +filter-dm512 / +filter-fa512",
       {at("TFM", 80.0, Show::kPercent, "TFM hit rate (Fig. 8, sec. V-A1)"),
        at("L1 16 KiB 2-way", 96.0, Show::kPercent, "L1 hit rate, conventional (Fig. 8, sec. V-A1)")}},
      {"004-fig9-access-energy", "Fig. 9: average energy per texture access", Chart::kBars, "pJ per access", "",
       std::nullopt, false, "runs of mobile-256k and mobile-256k+tfm / +filter-dm512 / +filter-fa512",
       {over(at("TFM", -25.0, Show::kChange, "access energy, TFM against a 512 B direct-mapped filter (Fig. 9, sec. V-A2)"),
             "Filter 512 B direct-mapped"),
        over(at("TFM", -60.0, Show::kChange, "access energy, TFM against a 512 B fully associative filter (Fig. 9)"),
             "Filter 512 B fully assoc."),
        over(at("TFM", -77.0, Show::kChange, "access energy, TFM against the conventional L1 + L2 (Fig. 9)"),
             "Conventional L1 + L2")}},
  };
  return p;
}

}  // namespace

const std::vector<Paper>& papers() {
  static const std::vector<Paper> all = make_papers();
  return all;
}

const std::vector<Figure>& replication_figures() {
  static const std::vector<Figure> all = {
      {"000-fig01-replication",
       "Paper 000 Fig. 1: replication degree, serviced blocks by the number of L1 texture caches holding them",
       Chart::kStacked, "share of serviced blocks", "", std::nullopt, false,
       "runs with the replication.share_1 .. share_4plus metrics",
       {part(at("mobile4", 15.4, Show::kPercent,
                "blocks in exactly one of 4 L1s; 84.6 % are replicated (paper 000 Fig. 1, sec. I)"),
             "1 L1")}},
      {"replication-avg", "Mean replication degree: L1 texture caches holding a block right after it is serviced",
       Chart::kBars, "L1s holding the block", "", 1.0, false, "runs with the replication.avg metric", {}},
  };
  return all;
}

}  // namespace tessera::report
