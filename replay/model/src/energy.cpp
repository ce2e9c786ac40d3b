#include "tessera/model/energy.h"

#include "tessera/model/hierarchy.h"

namespace tessera::model {

AccessEnergy sram16KiB4Way(TechVariant tech) {
  // DESIGN.md section 7, CACTI 7.0, 16 KiB 4-way, 64 B lines.
  switch (tech) {
    case TechVariant::Nm32Hp: return {61.2, 58.0};
    case TechVariant::Nm32Lop: return {30.6, 28.2};
    case TechVariant::Nm22Hp: return {31.8, 30.4};
    case TechVariant::Nm22Lop: return {21.0, 19.6};
  }
  return {};
}

AccessEnergy sram1MiB8Way(TechVariant tech) {
  // DESIGN.md section 7, CACTI 7.0, 1 MiB 8-way 4 banks, 64 B lines.
  switch (tech) {
    case TechVariant::Nm32Hp: return {403.0, 423.0};
    case TechVariant::Nm32Lop: return {207.0, 206.0};
    case TechVariant::Nm22Hp: return {217.0, 222.0};
    case TechVariant::Nm22Lop: return {147.0, 145.0};
  }
  return {};
}

// DESIGN.md section 7, CACTI 7.0, 1 KiB RAM with a 128-bit port, 32 nm lop.
AccessEnergy ram1KiB32nmLop() { return {0.82, 1.14}; }

DramAccessEnergy dramAccessEnergy(DramType type) {
  // DESIGN.md section 7, per 64 B, derived from DRAMPower IDD values.
  switch (type) {
    case DramType::Lpddr3: return {2600.0, 6700.0};
    case DramType::Lpddr4: return {2700.0, 4700.0};  // miss 3.9-5.5 nJ: midpoint
  }
  return {};
}

double sramLeakageMwPerKiB(TechVariant tech) {
  // Stated assumption, see energy.h.
  switch (tech) {
    case TechVariant::Nm32Hp: return 0.50;
    case TechVariant::Nm32Lop: return 0.05;
    case TechVariant::Nm22Hp: return 0.40;
    case TechVariant::Nm22Lop: return 0.04;
  }
  return 0;
}

EnergyParams EnergyParams::fromParams(const ParamSet& p) {
  EnergyParams e;
  const std::string& tech = p.getString("energy.tech");
  if (tech == "32nm-hp") e.tech = TechVariant::Nm32Hp;
  else if (tech == "32nm-lop") e.tech = TechVariant::Nm32Lop;
  else if (tech == "22nm-hp") e.tech = TechVariant::Nm22Hp;
  else if (tech == "22nm-lop") e.tech = TechVariant::Nm22Lop;
  else throw ParamError("energy.tech: unknown technology '" + tech + "'");
  const std::string& dram = p.getString("dram.type");
  if (dram == "lpddr3") e.dram = DramType::Lpddr3;
  else if (dram == "lpddr4") e.dram = DramType::Lpddr4;
  else throw ParamError("dram.type: unknown DRAM '" + dram + "'");
  e.leakage_scale = p.getFloat("energy.leakage_scale");
  e.dram_background_mw = p.getFloat("energy.dram_background_mw");
  e.gpu_freq_mhz = static_cast<double>(p.getInt("gpu.freq_mhz"));
  return e;
}

const StructureEnergy* EnergyReport::find(std::string_view name) const {
  for (const auto& s : structures) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

namespace {

// P [mW] over `cycles` at f [MHz]: P * 1e-3 W * cycles / (f * 1e6) s = P * cycles / f * 1e-9 J.
double leakageNj(double mw, uint64_t cycles, double freq_mhz) { return mw * static_cast<double>(cycles) / freq_mhz; }

void addCache(StructureEnergy& s, const CacheCounters& c, const AccessEnergy& e) {
  const uint64_t reads = c.reads + c.prefetches;
  const uint64_t writes = c.writes + c.fills;
  s.reads += reads;
  s.writes += writes;
  s.dynamic_nj += (static_cast<double>(reads) * e.read_pj + static_cast<double>(writes) * e.write_pj) * 1e-3;
}

}  // namespace

EnergyReport computeEnergy(const MemoryHierarchy& h, const EnergyParams& p, uint64_t cycles) {
  const HierarchyConfig& cfg = h.config();
  const AccessEnergy small = sram16KiB4Way(p.tech);
  const AccessEnergy large = sram1MiB8Way(p.tech);
  const double leak_per_kib = sramLeakageMwPerKiB(p.tech) * p.leakage_scale;
  auto kib = [](uint64_t bytes) { return static_cast<double>(bytes) / 1024.0; };

  EnergyReport r;
  StructureEnergy l1{"l1tex"};
  for (uint32_t i = 0; i < cfg.shader_cores; ++i) addCache(l1, h.l1tex(i).counters(), small);
  l1.leakage_nj = leakageNj(leak_per_kib * kib(cfg.l1tex.size_bytes) * cfg.shader_cores, cycles, p.gpu_freq_mhz);
  StructureEnergy vx{"vertex"};
  for (uint32_t i = 0; i < cfg.vertex_processors; ++i) addCache(vx, h.vertexCache(i).counters(), small);
  vx.leakage_nj = leakageNj(leak_per_kib * kib(cfg.vertex.size_bytes) * cfg.vertex_processors, cycles, p.gpu_freq_mhz);
  StructureEnergy tile{"tile"};
  addCache(tile, h.tileCache().counters(), small);
  tile.leakage_nj = leakageNj(leak_per_kib * kib(cfg.tile.size_bytes), cycles, p.gpu_freq_mhz);
  StructureEnergy l2{"l2"};
  addCache(l2, h.l2().counters(), large);
  l2.leakage_nj = leakageNj(leak_per_kib * kib(cfg.l2.size_bytes), cycles, p.gpu_freq_mhz);
  StructureEnergy dram{"dram"};
  const DramAccessEnergy de = dramAccessEnergy(p.dram);
  const DramCounters& dc = h.dram().counters();
  dram.reads = dc.row_hits;
  dram.writes = dc.row_misses;
  dram.dynamic_nj = (static_cast<double>(dc.row_hits) * de.row_hit_pj + static_cast<double>(dc.row_misses) * de.row_miss_pj) * 1e-3;
  dram.leakage_nj = leakageNj(p.dram_background_mw, cycles, p.gpu_freq_mhz);

  r.structures = {l1, vx, tile, l2, dram};
  for (const auto& s : r.structures) {
    r.dynamic_nj += s.dynamic_nj;
    r.leakage_nj += s.leakage_nj;
  }
  r.total_nj = r.dynamic_nj + r.leakage_nj;
  return r;
}

}  // namespace tessera::model
