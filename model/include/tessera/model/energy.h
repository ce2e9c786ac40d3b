// Whole-GPU energy: dynamic energy per event of every structure times its count, plus leakage
// power times run time. The papers report whole-GPU energy (000 Fig. 10, 001 Fig. 18, 003
// Fig. 22, 002's 34 % saving), so the shader cores and fixed-function stages are charged next
// to the memory hierarchy.
//
// Memory hierarchy (docs/model.md, "Energy", CACTI 7.0, 64 B lines, pJ per read / write access):
//   16 KiB 4-way:         32 nm hp 61.2/58.0, 32 nm lop 30.6/28.2, 22 nm hp 31.8/30.4, 22 nm lop 21.0/19.6
//   1 MiB 8-way 4 banks:  32 nm hp 403/423,   32 nm lop 207/206,   22 nm hp 217/222,   22 nm lop 147/145
//   1 KiB RAM 128-bit port (register buffers such as TFM): 32 nm lop 0.82/1.14
//   DRAM per 64 B: LPDDR3-1600 x32 row hit 2.6 nJ, row miss 6.7 nJ; LPDDR4-3200 hit 2.7 nJ,
//   miss 3.9-5.5 nJ (derived from DRAMPower IDD values); we take the midpoint 4.7 nJ.
// Every cache is charged by its own geometry (sram_cache()): a power law through the two CACTI
// points above, in the capacity of the one bank an access reads (the 1 MiB point's bank is
// 256 KiB), times sqrt(ways / 4) for the ways a set-associative lookup reads in parallel (the
// exponent is ours: the two points differ in both capacity and ways, so the split is not in
// them; fully associative lookups count as 16 ways: a tag search reads one data way). The fit
// reproduces both points exactly in every technology variant. Charged: each demand read (and each
// prefetch probe) one read access; each demand write and each line fill one write access; DRAM
// one row-hit or row-miss energy per 64 B transfer.
//
// Shader cores and fixed function (per-operation energies; logic_scale() below):
//   arithmetic: M. Horowitz, "Computing's energy problem (and what we can do about it)", ISSCC
//     2014, 45 nm at 0.9 V: 32-bit FP add 0.9 pJ, FP multiply 3.7 pJ, integer add 0.1 pJ,
//     integer multiply 3.1 pJ. Scaled to the papers' 32 nm at 1 V (paper 001 Table II) by
//     capacitance (32/45) and voltage squared ((1.0/0.9)^2): x0.878. One FP32 multiply-add =
//     (0.9 + 3.7) x 0.878 = 4.04 pJ. With core.cost=classes every scalar operation of the stream's
//     classes is charged per lane of its quad (4 lanes a warp): an ALU operation one multiply-add,
//     a transcendental core.sfu_ops of them (its issue slots; ours), a varying component two (the
//     plane equation a x + b y + c; ours), a load/store one 128-bit access of a 1 KiB RAM per warp;
//     with core.cost=instructions every dynamic SPIR-V instruction of a lane one multiply-add.
//   register file: per issue cycle two operand reads and one result write of a 128-bit row (4
//     lanes x 32 bit), each the 1 KiB 128-bit RAM access above scaled by sqrt(capacity / 1 KiB)
//     (bitlines and wordlines of a square array grow with the square root of its capacity); the
//     file holds core.max_quads x 4 lanes x core.registers words, so more resident quads (warps)
//     cost more per access and leak more (paper 002: 16 warps cost 25 % more energy).
//   instruction issue: one 128-bit read of a 1 KiB instruction buffer per issue cycle.
//   texture unit, per filter probe: 3 linear interpolations x 4 channels (12 multiply-adds) and
//     4 integer multiply-adds for the texel addresses.
//   rasterizer, per quad: 3 edge functions x 4 pixels (12 integer multiply-adds) and the depth
//     plane at 4 pixels (4 multiply-adds).
//   early-Z, per quad: one 128-bit read and one write of the depth buffer (depthbuf.size) and 4
//     integer compares.
//   blending, per quad: one 128-bit read and one write of the colour buffer (colorbuf.size) and
//     16 multiply-adds (4 pixels x 4 channels; charged for every quad: the stream does not say
//     whether blending was enabled, an upper bound for opaque draws).
//   tile buffers: attachment loads and colour flushes move 64 B lines in and out of the colour /
//     depth buffers: 4 accesses of 128 bits per line.
//   queues (paper 000 Table I: vertex 16 x 136 B, triangle 16 x 388 B, fragment 64 x 233 B,
//     colour 64 x 24 B): each entry pushed is written and read once, 128 bits at a time, in a
//     small RAM of the queue's capacity; leakage by capacity.
//   L1-to-L2 interconnect: every flit's bits over a wire of sqrt(cores + vertex processors + 1)
//     tile pitches (the requesters laid out in a square, the L2 at its side; ours) at the wire
//     energy of dtm-nuca/network_energy.h (0.12 pJ per bit and mm, R. Ho, K. Mai, M. Horowitz,
//     "The Future of Wires", 2001), plus one arbitration / switch traversal (0.12 pJ per bit, the
//     mesh router figure there).
//   vertex processors: the same per-instruction and register-file charges, with a register file
//     of 64 lanes (a vertex batch) x core.registers words.
//   Technology variants: these figures are hp-like (Horowitz's process); other variants scale
//   them by the ratio CACTI gives the 16 KiB SRAM between variants (lop 0.50, 22 nm hp 0.52,
//   22 nm lop 0.34 of 32 nm hp), and the 1 KiB RAM (given for 32 nm lop) by the same ratios.
//
// Leakage (no source gives one, so these are OUR STATED ASSUMPTIONS, not tool outputs): SRAM
// leakage power proportional to capacity, 32 nm hp 0.50 mW/KiB, 32 nm lop 0.05 mW/KiB, 22 nm hp
// 0.40 mW/KiB, 22 nm lop 0.04 mW/KiB (hp cells leak about ten times lop cells; the order of
// magnitude of CACTI leakage reports for caches of these sizes), for the caches, register files
// and tile buffers; logic 2.0 / 0.2 / 1.6 / 0.16 mW per shader core or vertex processor (its
// datapath and control), the same ratios. All scaled by energy.leakage_scale. DRAM background
// power (standby + refresh) energy.dram_background_mw, default 20 mW, also a stated assumption.
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

AccessEnergy sram_16kib_4way(TechVariant tech);
AccessEnergy sram_1mib_8way(TechVariant tech);
// A cache of `bytes` in `banks` banks with `ways` ways (0: fully associative), 64 B lines, per
// access (the fit described above).
AccessEnergy sram_cache(TechVariant tech, uint64_t bytes, uint32_t ways, uint32_t banks);
// Interconnect wires (above): pJ per bit and mm of wire, per bit and switch traversal, mm per
// tile pitch.
inline constexpr double kWirePjPerBitMm = 0.12;
inline constexpr double kSwitchPjPerBit = 0.12;
inline constexpr double kTilePitchMm = 1.0;
AccessEnergy ram_1kib_32nm_lop();
// A small RAM with a 128-bit port of `bytes` capacity in `tech` (register files, tile buffers,
// instruction buffers): the 1 KiB figure scaled by technology and sqrt(capacity / 1 KiB).
AccessEnergy small_ram(TechVariant tech, double bytes);
struct DramAccessEnergy {
  double row_hit_pj = 0;
  double row_miss_pj = 0;
};
DramAccessEnergy dram_access_energy(DramType type);
double sram_leakage_mw_per_kib(TechVariant tech);
// Logic energy relative to 32 nm hp (see above).
double logic_scale(TechVariant tech);
// One FP32 multiply-add at 32 nm hp, 1 V (Horowitz ISSCC 2014 scaled): 4.04 pJ.
double fma_pj(TechVariant tech);
// One 32-bit integer multiply-add at 32 nm hp, 1 V: (3.1 + 0.1) x 0.878 = 2.81 pJ.
double int_mac_pj(TechVariant tech);
// One 32-bit integer add (compare): 0.1 x 0.878 pJ.
double int_add_pj(TechVariant tech);
double logic_leakage_mw(TechVariant tech);  // per shader core or vertex processor

// Operations of one class per warp (a quad of lanes), as the access stream counts them (version
// 4): alu and sfu scalar operations, varying components, texture instructions, 32-bit memory
// accesses.
struct OpCounts {
  uint64_t alu = 0, sfu = 0, varying = 0, texture = 0, memory = 0;
  OpCounts& operator+=(const OpCounts& o) {
    alu += o.alu, sfu += o.sfu, varying += o.varying, texture += o.texture, memory += o.memory;
    return *this;
  }
};

// What the non-memory structures did in a frame, counted by the timing units.
struct CoreActivity {
  uint64_t fragment_lane_instructions = 0;  // dynamic instructions of shaded quads (helper lanes too)
  uint64_t fragment_issue_cycles = 0;       // shader-core issue cycles
  OpCounts fragment_ops;                    // core.cost=classes: per class, per warp
  uint64_t vertex_lane_instructions = 0;
  uint64_t vertex_issue_cycles = 0;
  OpCounts vertex_ops;
  uint64_t vertex_queue_pushes = 0, triangle_queue_pushes = 0;  // entries written (paper 000 Table I queues)
  uint64_t fragment_queue_pushes = 0, color_queue_pushes = 0;
  uint64_t texture_probes = 0;              // filter probes of every texture sample
  uint64_t quads_rasterized = 0;
  uint64_t quads_depth_tested = 0;          // quads early-Z took
  uint64_t quads_blended = 0;               // shaded quads blending took
  uint64_t tile_buffer_loads = 0;           // attachment lines loaded into the tile buffers
  uint64_t tile_buffer_flushes = 0;         // colour / depth lines flushed from them
  CoreActivity& operator+=(const CoreActivity& o);
};

struct EnergyParams {
  TechVariant tech = TechVariant::Nm32Lop;
  DramType dram = DramType::Lpddr3;
  double leakage_scale = 1.0;
  double dram_background_mw = 20.0;
  double gpu_freq_mhz = 600.0;
  uint32_t shader_cores = 4;
  uint32_t vertex_processors = 1;
  uint32_t issue_lanes = 4;        // lanes per issue cycle (register-file port width / 4 lanes)
  uint32_t vp_issue_lanes = 4;
  uint64_t register_file_bytes = 0;     // per shader core
  uint64_t vp_register_file_bytes = 0;  // per vertex processor
  uint64_t colorbuf_bytes = 1024, depthbuf_bytes = 1024;  // per shader core
  bool class_cost = true;          // core.cost=classes: instructions charged per class
  uint32_t sfu_ops = 4;
  // Queue capacities in entries (queue.*), per core with queue.scope=per-core for the fragment and
  // colour queues.
  uint32_t vertex_queue = 16, triangle_queue = 16, fragment_queue = 64, color_queue = 64;
  bool shared_queues = true;
  uint32_t interconnect_width = 64;  // bytes per flit

  static EnergyParams from_params(const ParamSet& params);

  // Static energy of a structure leaking `mw` (before energy.leakage_scale) for `cycles` GPU
  // cycles: mW x cycles / MHz = nJ. A scheme's own structures are charged through these.
  double leakage_nj(double mw, uint64_t cycles) const {
    return mw * leakage_scale * static_cast<double>(cycles) / gpu_freq_mhz;
  }
  // The same for `kib` KiB of SRAM (sram_leakage_mw_per_kib).
  double sram_leakage_nj(double kib, uint64_t cycles) const {
    return leakage_nj(sram_leakage_mw_per_kib(tech) * kib, cycles);
  }
};

struct StructureEnergy {
  std::string name;      // l1tex, vertex, tile, l2, dram; shader, regfile, texture_unit, ...
  bool memory = false;   // part of the memory hierarchy (caches + DRAM)
  uint64_t reads = 0;    // charged read accesses (DRAM: row hits)
  uint64_t writes = 0;   // charged write accesses (DRAM: row misses)
  double dynamic_nj = 0;
  double leakage_nj = 0;
  double total_nj() const { return dynamic_nj + leakage_nj; }
};

struct EnergyReport {
  std::vector<StructureEnergy> structures;
  double dynamic_nj = 0;
  double leakage_nj = 0;  // static energy of every structure
  double memory_nj = 0;   // caches + DRAM, dynamic and static
  double core_nj = 0;     // everything else (shader cores, fixed function, their buffers)
  double total_nj = 0;    // the whole GPU = memory_nj + core_nj = dynamic_nj + leakage_nj
  const StructureEnergy* find(std::string_view name) const;
};

// Energy of everything `hierarchy` counted and the cores did, over a run of `cycles` GPU cycles,
// with the energy of structures schemes add (`extra`).
EnergyReport compute_energy(const MemoryHierarchy& hierarchy, const CoreActivity& activity, const EnergyParams& params,
                            uint64_t cycles, const std::vector<StructureEnergy>& extra = {});
// The memory hierarchy with no core activity (core structures leak only).
EnergyReport compute_energy(const MemoryHierarchy& hierarchy, const EnergyParams& params, uint64_t cycles);

}  // namespace tessera::model
