// Energy = counts x constants (docs/model.md, "Energy") + leakage x time, on a constructed case.
#include <gtest/gtest.h>

#include <cmath>

#include "tessera/model/energy.h"
#include "tessera/model/hierarchy.h"

namespace tessera::model {
namespace {

TEST(Energy, ConstantsAreDesignSection7) {
  EXPECT_DOUBLE_EQ(sram_16kib_4way(TechVariant::Nm32Hp).read_pj, 61.2);
  EXPECT_DOUBLE_EQ(sram_16kib_4way(TechVariant::Nm32Lop).write_pj, 28.2);
  EXPECT_DOUBLE_EQ(sram_16kib_4way(TechVariant::Nm22Hp).read_pj, 31.8);
  EXPECT_DOUBLE_EQ(sram_16kib_4way(TechVariant::Nm22Lop).write_pj, 19.6);
  EXPECT_DOUBLE_EQ(sram_1mib_8way(TechVariant::Nm32Hp).write_pj, 423.0);
  EXPECT_DOUBLE_EQ(sram_1mib_8way(TechVariant::Nm32Lop).read_pj, 207.0);
  EXPECT_DOUBLE_EQ(sram_1mib_8way(TechVariant::Nm22Hp).read_pj, 217.0);
  EXPECT_DOUBLE_EQ(sram_1mib_8way(TechVariant::Nm22Lop).write_pj, 145.0);
  EXPECT_DOUBLE_EQ(ram_1kib_32nm_lop().write_pj, 1.14);
  EXPECT_DOUBLE_EQ(dram_access_energy(DramType::Lpddr3).row_hit_pj, 2600.0);
  EXPECT_DOUBLE_EQ(dram_access_energy(DramType::Lpddr3).row_miss_pj, 6700.0);
  EXPECT_DOUBLE_EQ(dram_access_energy(DramType::Lpddr4).row_hit_pj, 2700.0);
}

// Constructed case on mobile4: core 0 reads line X twice, core 1 reads X once, core 0 reads the
// line Y two lines on (same DRAM channel and row). Counts:
//   L1 core 0: 3 reads, 2 fills; L1 core 1: 1 read, 1 fill  -> 4 reads, 3 writes (16 KiB figures)
//   L2: 3 reads (X from core 0, X from core 1, Y), 2 fills  -> 3 reads, 2 writes (1 MiB figures)
//   DRAM: X row miss, Y row hit.
TEST(Energy, CountsTimesConstantsPlusLeakage) {
  for (const char* tech : {"32nm-lop", "32nm-hp", "22nm-hp", "22nm-lop"}) {
    ParamSet p = make_preset("mobile4");
    p.set("energy.tech", tech);
    MemoryHierarchy h(HierarchyConfig::from_params(p));
    MemRequest r;
    r.addr = 0x2000;
    h.access(r, 0);
    h.access(r, 200);
    r.unit = 1;
    h.access(r, 400);
    r.unit = 0;
    r.addr = 0x20c0;  // line 3 of the page: on line 0's channel (dram.channel_map=xor), same row
    h.access(r, 600);

    const EnergyParams ep = EnergyParams::from_params(p);
    const uint64_t cycles = 6000;  // 10 us at 600 MHz
    const EnergyReport e = compute_energy(h, ep, cycles);
    const AccessEnergy s = sram_16kib_4way(ep.tech);
    const AccessEnergy l = sram_1mib_8way(ep.tech);
    const double us = 10.0;
    const double leak = sram_leakage_mw_per_kib(ep.tech);  // mW per KiB; mW x us = nJ

    const StructureEnergy* l1 = e.find("l1tex");
    ASSERT_NE(l1, nullptr);
    EXPECT_EQ(l1->reads, 4u);
    EXPECT_EQ(l1->writes, 3u);
    EXPECT_NEAR(l1->dynamic_nj, (4 * s.read_pj + 3 * s.write_pj) / 1000, 1e-9) << tech;
    EXPECT_NEAR(l1->leakage_nj, leak * 64 * us, 1e-9) << tech;
    const StructureEnergy* l2 = e.find("l2");
    EXPECT_EQ(l2->reads, 3u);
    EXPECT_EQ(l2->writes, 2u);
    EXPECT_NEAR(l2->dynamic_nj, (3 * l.read_pj + 2 * l.write_pj) / 1000, 1e-9);
    EXPECT_NEAR(l2->leakage_nj, leak * 1024 * us, 1e-9);
    const StructureEnergy* dram = e.find("dram");
    EXPECT_NEAR(dram->dynamic_nj, 6.7 + 2.6, 1e-9);
    EXPECT_NEAR(dram->leakage_nj, 20.0 * us, 1e-9);
    const StructureEnergy* vx = e.find("vertex");
    EXPECT_EQ(vx->dynamic_nj, 0.0);
    EXPECT_NEAR(vx->leakage_nj, leak * 8 * us, 1e-9);
    const StructureEnergy* tile = e.find("tile");
    EXPECT_NEAR(tile->leakage_nj, leak * 64 * us, 1e-9);
    // The interconnect: each of the 3 L2 reads is a request flit and a 64 B line back (64 B
    // flits), every bit over sqrt(4 cores + 1 vertex processor + the tile cache) mm of wire and
    // one switch.
    const StructureEnergy* link = e.find("interconnect");
    ASSERT_NE(link, nullptr);
    EXPECT_EQ(link->reads, 6u);
    EXPECT_NEAR(link->dynamic_nj, 6 * 64 * 8 * (kWirePjPerBitMm * std::sqrt(6.0) + kSwitchPjPerBit) / 1000, 1e-9);
    EXPECT_TRUE(link->memory);
  }
}

// Cache energy by geometry (energy.h): the fit goes through both CACTI points in every variant,
// grows with the capacity an access reads and with the ways a lookup reads, and a bank of a
// banked cache costs what a cache of its size does.
TEST(Energy, CacheEnergyByGeometry) {
  for (TechVariant t : {TechVariant::Nm32Hp, TechVariant::Nm32Lop, TechVariant::Nm22Hp, TechVariant::Nm22Lop}) {
    const AccessEnergy s = sram_cache(t, 16 * 1024, 4, 1), l = sram_cache(t, 1024 * 1024, 8, 4);
    EXPECT_NEAR(s.read_pj, sram_16kib_4way(t).read_pj, 1e-9);
    EXPECT_NEAR(s.write_pj, sram_16kib_4way(t).write_pj, 1e-9);
    EXPECT_NEAR(l.read_pj, sram_1mib_8way(t).read_pj, 1e-9);
    EXPECT_NEAR(l.write_pj, sram_1mib_8way(t).write_pj, 1e-9);
    EXPECT_LT(sram_cache(t, 4 * 1024, 2, 1).read_pj, s.read_pj);   // mobile32's vertex caches
    EXPECT_GT(sram_cache(t, 64 * 1024, 4, 1).read_pj, s.read_pj);  // paper 003's 64 KiB caches
    EXPECT_LT(sram_cache(t, 16 * 1024, 2, 1).read_pj, s.read_pj);  // paper 004's 2-way L1
    EXPECT_LT(sram_cache(t, 1024 * 1024, 8, 8).read_pj, l.read_pj);  // mobile32's 8 banks
    EXPECT_NEAR(sram_cache(t, 1024 * 1024, 8, 8).read_pj, sram_cache(t, 128 * 1024, 8, 1).read_pj, 1e-9);
    // A fully associative lookup reads one data way after its tag search: counted as 16 ways.
    EXPECT_NEAR(sram_cache(t, 16 * 1024, 0, 1).read_pj, sram_cache(t, 16 * 1024, 16, 1).read_pj, 1e-9);
  }
}

// The leakage the schemes charge their own structures: mW x energy.leakage_scale x cycles / MHz.
TEST(Energy, SchemeStructureLeakage) {
  EnergyParams p;
  p.tech = TechVariant::Nm32Hp;
  p.leakage_scale = 2;
  p.gpu_freq_mhz = 300;
  EXPECT_DOUBLE_EQ(p.leakage_nj(10, 600), 40.0);  // 20 mW for 2 us
  EXPECT_DOUBLE_EQ(p.sram_leakage_nj(4, 600), sram_leakage_mw_per_kib(TechVariant::Nm32Hp) * 4 * 2 * 2);
  EXPECT_EQ(p.leakage_nj(10, 0), 0.0);
}

TEST(Energy, HpCostsMoreThanLop) {
  ParamSet p = make_preset("mobile4");
  MemoryHierarchy h(HierarchyConfig::from_params(p));
  for (uint64_t i = 0; i < 1000; ++i) {
    MemRequest r;
    r.addr = (i % 300) * 64;
    r.unit = static_cast<uint16_t>(i % 4);
    h.access(r, i);
  }
  p.set("energy.tech", "32nm-hp");
  const double hp = compute_energy(h, EnergyParams::from_params(p), 1000).total_nj;
  p.set("energy.tech", "32nm-lop");
  const double lop = compute_energy(h, EnergyParams::from_params(p), 1000).total_nj;
  EXPECT_GT(hp, lop);
  p.set("dram.type", "lpddr4");
  const DramCounters& d = h.dram().counters();
  ASSERT_GT(d.row_hits, 0u);
  ASSERT_GT(d.row_misses, 0u);
  EXPECT_NEAR(compute_energy(h, EnergyParams::from_params(p), 1000).find("dram")->dynamic_nj,
              (static_cast<double>(d.row_hits) * 2.7 + static_cast<double>(d.row_misses) * 4.7), 1e-6);
}

}  // namespace
}  // namespace tessera::model
