// report_fixture_db OUT.db: a results database with constructed runs of every configuration the
// report's paper figures read (schemes included), on two captures with three frames each (the
// first one cold), plus per-tile rows. The numbers are made up near the papers' own, so a report
// on it draws every chart; the browser test checks that it does.
#include <cmath>
#include <cstdio>
#include <string>

#include "fixture_db.h"

using tessera::report::fixture::FixtureDb;
using tessera::report::fixture::Metrics;
using tessera::report::fixture::Tile;

namespace {

// Three frames: frame 1 cold (its numbers doubled, which the report must leave out), 2 and 3 warm.
std::map<uint32_t, Metrics> frames(const Metrics& m) {
  std::map<uint32_t, Metrics> f;
  for (uint32_t present : {1u, 2u, 3u}) {
    Metrics copy;
    for (const auto& [k, v] : m) copy[k] = present == 1 ? v * 2 : v * (1 + 0.01 * present);
    copy["sim.warm"] = present == 1 ? 0 : 1;
    f[present] = copy;
  }
  return f;
}

std::map<uint32_t, std::vector<Tile>> tiles(double scale) {
  std::map<uint32_t, std::vector<Tile>> t;
  for (uint32_t present : {1u, 2u, 3u})
    for (uint32_t y = 0; y < 6; ++y)
      for (uint32_t x = 0; x < 10; ++x) {
        const double q = 100 + 80 * std::sin(0.6 * x) * std::cos(0.9 * y);
        t[present].push_back({x, y, "quads", std::round(q)});
        t[present].push_back({x, y, "cycles", std::round(q * 40 * scale)});
        for (uint32_t c = 0; c < 4; ++c)
          t[present].push_back({x, y, "core." + std::to_string(c) + ".busy_cycles", std::round(q * (9 + c) * scale)});
      }
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: report_fixture_db OUT.db\n");
    return 2;
  }
  FixtureDb f(argv[1]);
  const char* captures[] = {"fixture/racing.tcap", "fixture/puzzle.tcap"};
  for (int ci = 0; ci < 2; ++ci) {
    const std::string cap = captures[ci];
    const double k = ci == 0 ? 1.0 : 0.8;  // the two captures differ
    auto run = [&](const std::string& config, const Metrics& m, const tessera::results::Params& p = {}) {
      f.run(cap, config, frames(m), p, config == "mobile4" || config == "mobile4+dtexl" ? tiles(config == "mobile4" ? 1.0 : 0.85) : std::map<uint32_t, std::vector<Tile>>{});
    };
    // Suite numbers (the functional pass) on every base.
    const Metrics suite = {{"draws", 120 * k}, {"quads", 40000 * k}, {"fragments", 3000 * k},
                           {"replay.psnr_db", 45 + 5 * ci}, {"workload.texture_bytes", (2 + ci) * 1048576.0}};
    auto with = [&](Metrics m) {
      m.insert(suite.begin(), suite.end());
      return m;
    };

    // Paper 001 on mobile4.
    run("mobile4", with({{"l2.accesses", 1000 * k}, {"cycles", 1e6 * k}, {"energy.total_nj", 5e5 * k},
                         {"energy.memory_nj", 2e5 * k}, {"dram.accesses", 300 * k}, {"cores.quad_deviation", 0.02},
                         {"cores.imbalance", 0.05 * k}, {"replication.avg", 2.4},
                         {"replication.share_1", 0.154}, {"replication.share_2", 0.2},
                         {"replication.share_3", 0.146}, {"replication.share_4plus", 0.5}}));
    const char* groupings[] = {"fg-yshift2", "fg-xshift1", "fg-yshift1", "fg-xstripe", "fg-ystripe",
                               "cg-xrect", "cg-yrect", "cg-triangle", "cg-square"};
    for (int g = 0; g < 9; ++g) {
      const double l2 = g < 5 ? 1.0 + 0.02 * g : 0.6 - 0.02 * (g - 5);
      run(std::string("mobile4+dtexl-group-") + groupings[g],
          {{"l2.accesses", 1000 * k * l2}, {"cycles", 1e6 * k * (g < 5 ? 1.0 : 1.01)},
           {"cores.quad_deviation", g < 5 ? 0.02 * (1 + 0.1 * g) : 0.02 * (6 + g)},
           {"cores.imbalance", g < 5 ? 0.05 : 0.4}});
    }
    // HLB-flp2 is DTexL itself (mobile4+dtexl below).
    const char* assignments[] = {"zorder-const", "zorder-flp", "hlb-const", "hlb-flp1",
                                 "hlb-flp3", "sorder-const", "sorder-flp", "one-core-bound"};
    for (int a = 0; a < 8; ++a) run(std::string("mobile4+dtexl-") + assignments[a], {{"l2.accesses", 1000 * k * (0.6 - 0.01 * a)}});
    run("mobile4+dtexl", {{"l2.accesses", 540 * k}, {"cycles", 8.3e5 * k}, {"energy.total_nj", 4.7e5 * k},
                          {"dram.accesses", 298 * k}});
    run("mobile4+dtexl-fg-decoupled", {{"cycles", 9.2e5 * k}, {"energy.total_nj", 4.85e5 * k}});

    // Paper 000 on mobile32: schemes, the L1 size sweep and the core-count sweep.
    run("mobile32", with({{"l2.accesses", 2000 * k}, {"cycles", 2e6 * k}, {"energy.total_nj", 9e5 * k},
                          {"energy.memory_nj", 3e5 * k}, {"l1tex.accesses", 10000 * k}, {"replication.avg", 6.5},
                          {"replication.share_1", 0.05}, {"replication.share_2", 0.1},
                          {"replication.share_3", 0.1}, {"replication.share_4plus", 0.75}}),
        {{"l1tex.size", "16384"}, {"gpu.shader_cores", "32"}});
    const struct {
      const char* name;
      double l2, speed, energy, local;
    } nuca[] = {{"dtm-nuca", 0.58, 1.17, 0.93, 0.66}, {"dtm-nuca-dist", 0.67, 1.16, 0.92, 0.74},
                {"d-nuca", 0.54, 0.82, 1.04, 0.27}};
    for (const auto& n : nuca) {
      const double remote = 1 - n.local - 0.05;
      run(std::string("mobile32+") + n.name,
          {{"l2.accesses", 2000 * k * n.l2}, {"cycles", 2e6 * k / n.speed}, {"energy.total_nj", 9e5 * k * n.energy},
           {"energy.memory_nj", 2.6e5 * k}, {"l1tex.accesses", 10000 * k}, {"l1tex.local_hits", 10000 * k * n.local},
           {"l1tex.remote_hits", 10000 * k * remote * 0.7}, {"l1tex.remote_l2_hits", 10000 * k * remote * 0.3},
           {"l1tex.remote_l2_misses", 10000 * k * 0.05}},
          {{"l1tex.size", "16384"}, {"gpu.shader_cores", "32"}});
    }
    for (int kib : {32, 64, 128, 256, 512}) {
      run("mobile32+l1tex.size=" + std::to_string(kib * 1024), {{"l2.accesses", 2000 * k * (1.0 - 0.45 * std::log2(kib / 16.0) / 5)}},
          {{"l1tex.size", std::to_string(kib * 1024)}, {"gpu.shader_cores", "32"}});
    }
    for (int cores : {4, 8, 16}) {
      const std::string n = std::to_string(cores);
      run("mobile32+gpu.shader_cores=" + n, {{"cycles", 2e6 * k * 32 / cores}}, {{"gpu.shader_cores", n}});
      run("mobile32+dtm-nuca+gpu.shader_cores=" + n, {{"cycles", 2e6 * k * 32 / cores / (1.10 + 0.02 * cores / 4)}},
          {{"gpu.shader_cores", n}});
      run("mobile32+dtm-nuca-dist+gpu.shader_cores=" + n, {{"cycles", 2e6 * k * 32 / cores / (1.07 + 0.025 * cores / 4)}},
          {{"gpu.shader_cores", n}});
    }

    // Paper 002 on tegra2.
    run("tegra2", with({{"cycles", 3.3e6 * k}, {"energy.total_nj", 1e6 * k}, {"l1tex.misses", 1000 * k},
                        {"l1tex.misses_remote_resident", 663 * k}}));
    const struct {
      const char* config;
      double speed, energy;
    } dae[] = {{"tegra2+core.max_quads=2", 1.8, 1.05}, {"tegra2+core.max_quads=16", 3.23, 1.25},
               {"tegra2+prefetch-ghb", 1.9, 0.96}, {"tegra2+prefetch-mta", 1.7, 0.97}, {"tegra2+dae", 2.5, 0.88},
               {"tegra2+dae+core.max_quads=2", 3.0, 0.83}, {"tegra2+dae-no-sharing+core.max_quads=2", 2.8, 0.86},
               {"tegra2+perfect-l1", 1.65, 0.8}, {"tegra2+perfect-memory", 3.29, 0.5}};
    for (const auto& d : dae) run(d.config, {{"cycles", 3.3e6 * k / d.speed}, {"energy.total_nj", 1e6 * k * d.energy}});

    // Paper 003 on mobile4-64k: schemes and the miss-ratio sweeps.
    run("mobile4-64k", with({{"pb.l2_accesses", 500 * k}, {"pb.dram_accesses", 100 * k}, {"dram.accesses", 700 * k},
                             {"energy.memory_nj", 3e5 * k}, {"energy.total_nj", 8e5 * k}, {"tile.accesses", 1000 * k},
                             {"tile.misses", 420 * k}, {"tile.lower_bound_lines", 260 * k}}),
        {{"tile.size", "65536"}, {"tile.policy", "lru"}, {"tile.ways", "4"}, {"tile.bypass", "false"}});
    run("mobile4-64k+tcor", {{"pb.l2_accesses", 330 * k}, {"pb.dram_accesses", 7 * k}, {"dram.accesses", 600 * k},
                             {"energy.memory_nj", 2.58e5 * k}, {"energy.total_nj", 7.55e5 * k}});
    run("mobile4-64k+tcor-no-l2", {{"pb.l2_accesses", 340 * k}, {"pb.dram_accesses", 60 * k}, {"dram.accesses", 650 * k},
                                   {"energy.memory_nj", 2.73e5 * k}, {"energy.total_nj", 7.8e5 * k}});
    // The 128 KiB tile cache of Figs. 15, 17, 19 and 21.
    run("mobile4-64k+tile.size=131072", {{"pb.l2_accesses", 450 * k}, {"pb.dram_accesses", 80 * k}, {"dram.accesses", 680 * k},
                                         {"energy.memory_nj", 2.9e5 * k}, {"energy.total_nj", 7.9e5 * k}},
        {{"tile.size", "131072"}, {"tile.policy", "lru"}, {"tile.ways", "4"}, {"tile.bypass", "false"}});
    run("mobile4-64k+tcor+tile.size=131072", {{"pb.l2_accesses", 283 * k}, {"pb.dram_accesses", 4.7 * k},
                                              {"dram.accesses", 590 * k}, {"energy.memory_nj", 2.5e5 * k},
                                              {"energy.total_nj", 7.48e5 * k}},
        {{"tile.size", "131072"}, {"tile.policy", "opt"}, {"tile.ways", "4"}});
    for (const char* policy : {"lru", "opt", "mru", "drrip"}) {
      for (int kib : {16, 32, 64, 128, 256, 512}) {
        const double lb = 0.26, base = policy == std::string("opt") ? 0.3 : policy == std::string("mru") ? 0.7 : 0.5;
        const double ratio = lb + (base - lb) * std::exp(-kib / (policy == std::string("opt") ? 40.0 : 200.0));
        const bool opt = policy == std::string("opt");  // with TCOR's write bypass, as --schemes tcor runs it
        const std::string name = "mobile4-64k+tile.size=" + std::to_string(kib * 1024) + "+tile.policy=" + policy +
                                 (opt ? "+tile.bypass=true" : "");
        run(name, {{"tile.accesses", 1000 * k}, {"tile.misses", 1000 * k * ratio}, {"tile.lower_bound_lines", 260 * k}},
            {{"tile.size", std::to_string(kib * 1024)}, {"tile.policy", policy}, {"tile.ways", "4"},
             {"tile.bypass", opt ? "true" : "false"}});
      }
    }
    // Figs. 11-12 like for like: TCOR's fully associative Attribute Cache (tile.size less the 16 KiB
    // Primitive List Cache), OPT and LRU per primitive, against the bound of each capacity.
    for (const char* policy : {"opt", "lru"}) {
      for (int kib : {32, 64, 128, 256, 512}) {
        const double lb = 0.45 - 0.0001 * kib, base = policy == std::string("opt") ? 0.6 : 0.75;
        const double ratio = lb + (base - lb) * std::exp(-kib / (policy == std::string("opt") ? 40.0 : 300.0));
        std::string name = "mobile4-64k+tcor+tile.size=" + std::to_string(kib * 1024) + "+tile.ways=0";
        if (policy == std::string("lru")) name += "+tcor.policy=lru";
        run(name, {{"tile.attr.accesses", 1000 * k}, {"tile.attr.misses", 1000 * k * ratio}, {"tcor.lower_bound", 1000 * k * lb}},
            {{"tile.size", std::to_string(kib * 1024)}, {"tcor.plc_size", "16384"}, {"tile.ways", "0"},
             {"tcor.policy", policy}});
      }
    }

    // Paper 004 on mobile-256k.
    run("mobile-256k", with({{"l1tex.accesses", 10000 * k}, {"l1tex.hits", 9600 * k},
                             {"energy.texture_path_pj_per_access", 40}}));
    run("mobile-256k+conventional-tu", {{"l1tex.accesses", 40000 * k}, {"l1tex.hits", 38400 * k},
                                        {"energy.texture_path_pj_per_access", 40}});
    run("mobile-256k+l1-dm512", {{"l1tex.accesses", 40000 * k}, {"l1tex.hits", 30200 * k},
                                 {"energy.texture_path_pj_per_access", 16.4}});
    // Fig. 8 on one core in scanline tile order (004-fig8-hit-rate-one-core).
    const std::string one_core = "+gpu.shader_cores=1+gpu.tile_order=scanline";
    run("mobile-256k" + one_core, {{"l1tex.accesses", 5000 * k}, {"l1tex.hits", 4600 * k}});
    run("mobile-256k+conventional-tu" + one_core, {{"l1tex.accesses", 40000 * k}, {"l1tex.hits", 38800 * k}});
    run("mobile-256k+l1-dm512" + one_core, {{"l1tex.accesses", 40000 * k}, {"l1tex.hits", 31000 * k}});
    for (const auto& [front, hits] : {std::pair{"filter-dm512", 7700}, std::pair{"filter-fa512", 8100}, std::pair{"tfm", 8200}})
      run(std::string("mobile-256k+") + front + one_core, {{"tfm.accesses", 10000 * k}, {"tfm.hits", hits * k}});
    run("mobile-256k+filter-dm512", {{"tfm.accesses", 10000 * k}, {"tfm.hits", 7550 * k}, {"energy.texture_path_pj_per_access", 12.3}});
    run("mobile-256k+filter-fa512", {{"tfm.accesses", 10000 * k}, {"tfm.hits", 8000 * k}, {"energy.texture_path_pj_per_access", 23}});
    run("mobile-256k+tfm", {{"tfm.accesses", 10000 * k}, {"tfm.hits", 8000 * k}, {"energy.texture_path_pj_per_access", 9.2},
                            {"tfm.case1", 5800 * k}, {"tfm.case2", 2000 * k}, {"tfm.case3", 1600 * k}, {"tfm.case4", 600 * k}});
  }
  std::printf("wrote %s\n", argv[1]);
  return 0;
}
