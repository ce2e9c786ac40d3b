#include "tessera/model/energy.h"

#include <algorithm>
#include <cmath>

#include "tessera/model/hierarchy.h"

namespace tessera::model {

AccessEnergy sram_16kib_4way(TechVariant tech) {
  // docs/model.md, "Energy", CACTI 7.0, 16 KiB 4-way, 64 B lines.
  switch (tech) {
    case TechVariant::Nm32Hp: return {61.2, 58.0};
    case TechVariant::Nm32Lop: return {30.6, 28.2};
    case TechVariant::Nm22Hp: return {31.8, 30.4};
    case TechVariant::Nm22Lop: return {21.0, 19.6};
  }
  return {};
}

AccessEnergy sram_1mib_8way(TechVariant tech) {
  // docs/model.md, "Energy", CACTI 7.0, 1 MiB 8-way 4 banks, 64 B lines.
  switch (tech) {
    case TechVariant::Nm32Hp: return {403.0, 423.0};
    case TechVariant::Nm32Lop: return {207.0, 206.0};
    case TechVariant::Nm22Hp: return {217.0, 222.0};
    case TechVariant::Nm22Lop: return {147.0, 145.0};
  }
  return {};
}

AccessEnergy sram_cache(TechVariant tech, uint64_t bytes, uint32_t ways, uint32_t banks) {
  // energy.h: E = E(16 KiB 4-way) x (bank / 16 KiB)^a x sqrt(ways / 4), a per variant and per
  // read / write from the 1 MiB 8-way 4-bank point (its bank 256 KiB, 8 ways).
  const AccessEnergy small = sram_16kib_4way(tech), large = sram_1mib_8way(tech);
  const double way_ratio = std::sqrt(8.0 / 4.0), size_ratio = std::log((1024.0 / 4.0) / 16.0);
  const double a_read = std::log(large.read_pj / small.read_pj / way_ratio) / size_ratio;
  const double a_write = std::log(large.write_pj / small.write_pj / way_ratio) / size_ratio;
  const double bank_kib = static_cast<double>(bytes) / std::max(1u, banks) / 1024.0;
  const double w = ways == 0 ? 16.0 : std::min(16.0, static_cast<double>(ways));
  const double ways_factor = std::sqrt(w / 4.0);
  return {small.read_pj * std::pow(bank_kib / 16.0, a_read) * ways_factor,
          small.write_pj * std::pow(bank_kib / 16.0, a_write) * ways_factor};
}

// docs/model.md, "Energy", CACTI 7.0, 1 KiB RAM with a 128-bit port, 32 nm lop.
AccessEnergy ram_1kib_32nm_lop() { return {0.82, 1.14}; }

double logic_scale(TechVariant tech) {
  // Ratios of the CACTI 16 KiB 4-way read energy to its 32 nm hp value (61.2 pJ).
  return sram_16kib_4way(tech).read_pj / sram_16kib_4way(TechVariant::Nm32Hp).read_pj;
}

AccessEnergy small_ram(TechVariant tech, double bytes) {
  // The 1 KiB figure is for 32 nm lop: move it to `tech` by the CACTI ratio, then to `bytes`.
  const double to_tech = logic_scale(tech) / logic_scale(TechVariant::Nm32Lop);
  const double size = std::sqrt(std::max(bytes, 16.0) / 1024.0);
  const AccessEnergy base = ram_1kib_32nm_lop();
  return {base.read_pj * to_tech * size, base.write_pj * to_tech * size};
}

namespace {
// Horowitz ISSCC 2014 (45 nm, 0.9 V) to 32 nm at 1 V: capacitance 32/45, voltage (1.0/0.9)^2.
constexpr double kTo32nm1V = (32.0 / 45.0) * (1.0 / 0.9) * (1.0 / 0.9);
}  // namespace

double fma_pj(TechVariant tech) { return (0.9 + 3.7) * kTo32nm1V * logic_scale(tech); }
double int_mac_pj(TechVariant tech) { return (3.1 + 0.1) * kTo32nm1V * logic_scale(tech); }
double int_add_pj(TechVariant tech) { return 0.1 * kTo32nm1V * logic_scale(tech); }

DramAccessEnergy dram_access_energy(DramType type) {
  // docs/model.md, "Energy", per 64 B, derived from DRAMPower IDD values.
  switch (type) {
    case DramType::Lpddr3: return {2600.0, 6700.0};
    case DramType::Lpddr4: return {2700.0, 4700.0};  // miss 3.9-5.5 nJ: midpoint
  }
  return {};
}

double sram_leakage_mw_per_kib(TechVariant tech) {
  // Stated assumption, see energy.h.
  switch (tech) {
    case TechVariant::Nm32Hp: return 0.50;
    case TechVariant::Nm32Lop: return 0.05;
    case TechVariant::Nm22Hp: return 0.40;
    case TechVariant::Nm22Lop: return 0.04;
  }
  return 0;
}

double logic_leakage_mw(TechVariant tech) {
  // Stated assumption, see energy.h: the SRAM leakage ratios between variants.
  return 2.0 * sram_leakage_mw_per_kib(tech) / sram_leakage_mw_per_kib(TechVariant::Nm32Hp);
}

CoreActivity& CoreActivity::operator+=(const CoreActivity& o) {
  fragment_lane_instructions += o.fragment_lane_instructions;
  fragment_issue_cycles += o.fragment_issue_cycles;
  fragment_ops += o.fragment_ops;
  vertex_lane_instructions += o.vertex_lane_instructions;
  vertex_issue_cycles += o.vertex_issue_cycles;
  vertex_ops += o.vertex_ops;
  vertex_queue_pushes += o.vertex_queue_pushes;
  triangle_queue_pushes += o.triangle_queue_pushes;
  fragment_queue_pushes += o.fragment_queue_pushes;
  color_queue_pushes += o.color_queue_pushes;
  texture_probes += o.texture_probes;
  quads_rasterized += o.quads_rasterized;
  quads_depth_tested += o.quads_depth_tested;
  quads_blended += o.quads_blended;
  tile_buffer_loads += o.tile_buffer_loads;
  tile_buffer_flushes += o.tile_buffer_flushes;
  return *this;
}

EnergyParams EnergyParams::from_params(const ParamSet& p) {
  EnergyParams e;
  const std::string& tech = p.get_string("energy.tech");
  if (tech == "32nm-hp") e.tech = TechVariant::Nm32Hp;
  else if (tech == "32nm-lop") e.tech = TechVariant::Nm32Lop;
  else if (tech == "22nm-hp") e.tech = TechVariant::Nm22Hp;
  else if (tech == "22nm-lop") e.tech = TechVariant::Nm22Lop;
  else throw ParamError("energy.tech: unknown technology '" + tech + "'");
  const std::string& dram = p.get_string("dram.type");
  if (dram == "lpddr3") e.dram = DramType::Lpddr3;
  else if (dram == "lpddr4") e.dram = DramType::Lpddr4;
  else throw ParamError("dram.type: unknown DRAM '" + dram + "'");
  e.leakage_scale = p.get_float("energy.leakage_scale");
  e.dram_background_mw = p.get_float("energy.dram_background_mw");
  e.gpu_freq_mhz = static_cast<double>(p.get_int("gpu.freq_mhz"));
  e.shader_cores = p.get_u32("gpu.shader_cores");
  e.vertex_processors = p.get_u32("gpu.vertex_processors");
  e.issue_lanes = p.get_u32("core.issue_lanes");
  e.vp_issue_lanes = p.get_u32("vp.issue_lanes");
  const uint64_t registers = p.get_u32("core.registers");
  e.register_file_bytes = uint64_t{p.get_u32("core.max_quads")} * 4 * registers * 4;
  e.vp_register_file_bytes = uint64_t{64} * registers * 4;
  e.colorbuf_bytes = static_cast<uint64_t>(p.get_int("colorbuf.size"));
  e.depthbuf_bytes = static_cast<uint64_t>(p.get_int("depthbuf.size"));
  e.class_cost = p.get_string("core.cost") == "classes";
  e.sfu_ops = p.get_u32("core.sfu_ops");
  e.vertex_queue = p.get_u32("queue.vertex");
  e.triangle_queue = p.get_u32("queue.triangle");
  e.fragment_queue = p.get_u32("queue.fragment");
  e.color_queue = p.get_u32("queue.color");
  e.shared_queues = p.get_string("queue.scope") == "shared";
  e.interconnect_width = p.get_u32("interconnect.width");
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
double leakage_nj(double mw, uint64_t cycles, double freq_mhz) { return mw * static_cast<double>(cycles) / freq_mhz; }

void add_cache(StructureEnergy& s, const CacheCounters& c, const AccessEnergy& e) {
  const uint64_t reads = c.reads + c.prefetches;
  const uint64_t writes = c.writes + c.fills;
  s.reads += reads;
  s.writes += writes;
  s.dynamic_nj += (static_cast<double>(reads) * e.read_pj + static_cast<double>(writes) * e.write_pj) * 1e-3;
}

double d(uint64_t v) { return static_cast<double>(v); }

}  // namespace

// Bytes of an entry of each queue, paper 000 Table I.
constexpr uint32_t kVertexEntryBytes = 136, kTriangleEntryBytes = 388, kFragmentEntryBytes = 233, kColorEntryBytes = 24;

EnergyReport compute_energy(const MemoryHierarchy& h, const CoreActivity& a, const EnergyParams& p, uint64_t cycles,
                            const std::vector<StructureEnergy>& extra) {
  const HierarchyConfig& cfg = h.config();
  const double leak_per_kib = sram_leakage_mw_per_kib(p.tech) * p.leakage_scale;
  auto kib = [](uint64_t bytes) { return static_cast<double>(bytes) / 1024.0; };
  auto leak = [&](double mw) { return leakage_nj(mw, cycles, p.gpu_freq_mhz); };
  auto geometry = [&](const CacheConfig& c) { return sram_cache(p.tech, c.size_bytes, c.ways, c.banks); };

  EnergyReport r;
  // Memory hierarchy, each cache by its own geometry.
  StructureEnergy l1{"l1tex", true};
  for (uint32_t i = 0; i < cfg.shader_cores; ++i) add_cache(l1, h.l1tex(i).counters(), geometry(cfg.l1tex));
  l1.leakage_nj = leak(leak_per_kib * kib(cfg.l1tex.size_bytes) * cfg.shader_cores);
  StructureEnergy vx{"vertex", true};
  for (uint32_t i = 0; i < cfg.vertex_processors; ++i) add_cache(vx, h.vertex_cache(i).counters(), geometry(cfg.vertex));
  vx.leakage_nj = leak(leak_per_kib * kib(cfg.vertex.size_bytes) * cfg.vertex_processors);
  StructureEnergy tile{"tile", true};
  add_cache(tile, h.tile_cache().counters(), geometry(cfg.tile));
  tile.leakage_nj = leak(leak_per_kib * kib(cfg.tile.size_bytes));
  StructureEnergy l2{"l2", true};
  add_cache(l2, h.l2().counters(), geometry(cfg.l2));
  l2.leakage_nj = leak(leak_per_kib * kib(cfg.l2.size_bytes));
  StructureEnergy dram{"dram", true};
  const DramAccessEnergy de = dram_access_energy(p.dram);
  const DramCounters& dc = h.dram().counters();
  dram.reads = dc.row_hits;
  dram.writes = dc.row_misses;
  dram.dynamic_nj = (d(dc.row_hits) * de.row_hit_pj + d(dc.row_misses) * de.row_miss_pj) * 1e-3;
  dram.leakage_nj = leak(p.dram_background_mw);
  // The L1-to-L2 interconnect (energy.h): every flit over the requesters' side of the chip.
  StructureEnergy link{"interconnect", true};
  const double wire_mm =
      kTilePitchMm * std::sqrt(static_cast<double>(cfg.shader_cores + cfg.vertex_processors + 1));
  link.reads = h.interconnect().flits();
  link.dynamic_nj = d(h.interconnect().flits()) * p.interconnect_width * 8 *
                    (kWirePjPerBitMm * wire_mm + kSwitchPjPerBit) * 1e-3;

  // Shader cores and fixed function (energy.h: every constant and its source).
  const double fma = fma_pj(p.tech), mac = int_mac_pj(p.tech), add = int_add_pj(p.tech);
  const AccessEnergy ibuf = small_ram(p.tech, 1024);
  // Operations of a warp run on its 4 lanes.
  const auto class_pj = [&](const OpCounts& o) {
    return 4 * (d(o.alu) + d(o.sfu) * p.sfu_ops + 2 * d(o.varying)) * fma + d(o.memory) * ibuf.read_pj;
  };
  StructureEnergy shader{"shader"};
  shader.reads = a.fragment_issue_cycles;
  shader.dynamic_nj = ((p.class_cost ? class_pj(a.fragment_ops) : d(a.fragment_lane_instructions) * fma) +
                       d(a.fragment_issue_cycles) * ibuf.read_pj) * 1e-3;
  shader.leakage_nj = leak(logic_leakage_mw(p.tech) * p.leakage_scale * cfg.shader_cores);

  const double rf_width = static_cast<double>(p.issue_lanes) / 4.0;  // 128-bit rows per issue cycle
  const AccessEnergy rf = small_ram(p.tech, d(p.register_file_bytes));
  StructureEnergy regfile{"regfile"};
  regfile.reads = 2 * a.fragment_issue_cycles;
  regfile.writes = a.fragment_issue_cycles;
  regfile.dynamic_nj = d(a.fragment_issue_cycles) * rf_width * (2 * rf.read_pj + rf.write_pj) * 1e-3;
  regfile.leakage_nj = leak(leak_per_kib * kib(p.register_file_bytes) * cfg.shader_cores);

  const double vp_width = static_cast<double>(p.vp_issue_lanes) / 4.0;
  const AccessEnergy vrf = small_ram(p.tech, d(p.vp_register_file_bytes));
  StructureEnergy vshader{"vertex_shader"};
  vshader.reads = a.vertex_issue_cycles;
  vshader.dynamic_nj = ((p.class_cost ? class_pj(a.vertex_ops) : d(a.vertex_lane_instructions) * fma) +
                        d(a.vertex_issue_cycles) * ibuf.read_pj +
                        d(a.vertex_issue_cycles) * vp_width * (2 * vrf.read_pj + vrf.write_pj)) * 1e-3;
  vshader.leakage_nj = leak((logic_leakage_mw(p.tech) * p.leakage_scale + leak_per_kib * kib(p.vp_register_file_bytes)) *
                            cfg.vertex_processors);

  StructureEnergy texture{"texture_unit"};
  texture.reads = a.texture_probes;
  texture.dynamic_nj = d(a.texture_probes) * (12 * fma + 4 * mac) * 1e-3;

  StructureEnergy raster{"raster"};
  raster.reads = a.quads_rasterized;
  raster.dynamic_nj = d(a.quads_rasterized) * (12 * mac + 4 * fma) * 1e-3;

  const AccessEnergy zb = small_ram(p.tech, d(p.depthbuf_bytes));
  StructureEnergy earlyz{"earlyz"};
  earlyz.reads = a.quads_depth_tested;
  earlyz.writes = a.quads_depth_tested;
  earlyz.dynamic_nj = d(a.quads_depth_tested) * (zb.read_pj + zb.write_pj + 4 * add) * 1e-3;

  const AccessEnergy cb = small_ram(p.tech, d(p.colorbuf_bytes));
  StructureEnergy blend{"blend"};
  blend.reads = a.quads_blended;
  blend.writes = a.quads_blended;
  blend.dynamic_nj = d(a.quads_blended) * (cb.read_pj + cb.write_pj + 16 * fma) * 1e-3;

  StructureEnergy tile_buffers{"tile_buffers"};
  tile_buffers.reads = 4 * a.tile_buffer_flushes;
  tile_buffers.writes = 4 * a.tile_buffer_loads;
  tile_buffers.dynamic_nj = (d(a.tile_buffer_flushes) * cb.read_pj + d(a.tile_buffer_loads) * cb.write_pj) * 4 * 1e-3;
  tile_buffers.leakage_nj = leak(leak_per_kib * kib(p.colorbuf_bytes + p.depthbuf_bytes) * cfg.shader_cores);

  // Queues between the stages: each pushed entry written and read once, 128 bits at a time.
  StructureEnergy queues{"queues"};
  const uint32_t per_core = p.shared_queues ? 1 : cfg.shader_cores;
  const auto queue = [&](uint64_t pushes, uint32_t entries, uint32_t entry_bytes, uint32_t copies) {
    const AccessEnergy e = small_ram(p.tech, d(uint64_t{entries} * entry_bytes));
    const double accesses = std::ceil(entry_bytes * 8.0 / 128.0);
    queues.reads += pushes;
    queues.writes += pushes;
    queues.dynamic_nj += d(pushes) * accesses * (e.read_pj + e.write_pj) * 1e-3;
    queues.leakage_nj += leak(leak_per_kib * kib(uint64_t{entries} * entry_bytes) * copies);
  };
  queue(a.vertex_queue_pushes, p.vertex_queue, kVertexEntryBytes, 1);
  queue(a.triangle_queue_pushes, p.triangle_queue, kTriangleEntryBytes, 1);
  queue(a.fragment_queue_pushes, p.fragment_queue, kFragmentEntryBytes, per_core);
  queue(a.color_queue_pushes, p.color_queue, kColorEntryBytes, per_core);

  r.structures = {l1, vx, tile, l2, dram, link, shader, regfile, vshader, texture, raster, earlyz, blend, tile_buffers, queues};
  r.structures.insert(r.structures.end(), extra.begin(), extra.end());
  for (const auto& s : r.structures) {
    r.dynamic_nj += s.dynamic_nj;
    r.leakage_nj += s.leakage_nj;
    (s.memory ? r.memory_nj : r.core_nj) += s.total_nj();
  }
  r.total_nj = r.dynamic_nj + r.leakage_nj;
  return r;
}

EnergyReport compute_energy(const MemoryHierarchy& h, const EnergyParams& p, uint64_t cycles) {
  return compute_energy(h, CoreActivity{}, p, cycles);
}

}  // namespace tessera::model
