// Energy of the memory hierarchy: dynamic energy per access of each structure times its counts,
// plus leakage power times run time.
//
// Dynamic constants: DESIGN.md section 7 (CACTI 7.0, 64 B lines, pJ per read / write access):
//   16 KiB 4-way:         32 nm hp 61.2/58.0, 32 nm lop 30.6/28.2, 22 nm hp 31.8/30.4, 22 nm lop 21.0/19.6
//   1 MiB 8-way 4 banks:  32 nm hp 403/423,   32 nm lop 207/206,   22 nm hp 217/222,   22 nm lop 147/145
//   1 KiB RAM 128-bit port (register buffers such as TFM): 32 nm lop 0.82/1.14
//   DRAM per 64 B: LPDDR3-1600 x32 row hit 2.6 nJ, row miss 6.7 nJ; LPDDR4-3200 hit 2.7 nJ,
//   miss 3.9-5.5 nJ (derived from DRAMPower IDD values); we take the midpoint 4.7 nJ.
// The L1 texture, vertex and tile caches are all charged the 16 KiB 4-way figures (the only
// first-level point CACTI was run for); the L2 the 1 MiB figures.
//
// What is charged: each demand read (and each prefetch probe) one read access; each demand
// write and each line fill (data array written by a line arriving from below) one write
// access; DRAM one row-hit or row-miss energy per 64 B transfer.
//
// Leakage (DESIGN.md gives none, so these are OUR STATED ASSUMPTIONS, not CACTI outputs): SRAM
// leakage power proportional to capacity, 32 nm hp 0.50 mW/KiB, 32 nm lop 0.05 mW/KiB,
// 22 nm hp 0.40 mW/KiB, 22 nm lop 0.04 mW/KiB (hp cells leak about ten times lop cells; the
// order of magnitude is that of CACTI leakage reports for caches of these sizes). Scale them
// with energy.leakage_scale. DRAM background power (standby + refresh) energy.dram_background_mw,
// default 20 mW, also a stated assumption.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/model/params.h"

namespace tessera::model {

class MemoryHierarchy;

enum class TechVariant { Nm32Hp, Nm32Lop, Nm22Hp, Nm22Lop };
enum class DramType { Lpddr3, Lpddr4 };

struct AccessEnergy {
  double read_pj = 0;
  double write_pj = 0;
};

AccessEnergy sram16KiB4Way(TechVariant tech);
AccessEnergy sram1MiB8Way(TechVariant tech);
AccessEnergy ram1KiB32nmLop();
struct DramAccessEnergy {
  double row_hit_pj = 0;
  double row_miss_pj = 0;
};
DramAccessEnergy dramAccessEnergy(DramType type);
double sramLeakageMwPerKiB(TechVariant tech);

struct EnergyParams {
  TechVariant tech = TechVariant::Nm32Lop;
  DramType dram = DramType::Lpddr3;
  double leakage_scale = 1.0;
  double dram_background_mw = 20.0;
  double gpu_freq_mhz = 600.0;

  static EnergyParams fromParams(const ParamSet& params);
};

struct StructureEnergy {
  std::string name;  // l1tex, vertex, tile, l2, dram
  uint64_t reads = 0;    // charged read accesses (DRAM: row hits)
  uint64_t writes = 0;   // charged write accesses (DRAM: row misses)
  double dynamic_nj = 0;
  double leakage_nj = 0;
  double totalNj() const { return dynamic_nj + leakage_nj; }
};

struct EnergyReport {
  std::vector<StructureEnergy> structures;
  double dynamic_nj = 0;
  double leakage_nj = 0;
  double total_nj = 0;
  const StructureEnergy* find(std::string_view name) const;
};

// Energy of everything `hierarchy` counted, over a run of `cycles` GPU cycles.
EnergyReport computeEnergy(const MemoryHierarchy& hierarchy, const EnergyParams& params, uint64_t cycles);

}  // namespace tessera::model
