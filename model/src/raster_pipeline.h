// The raster phase of one subpass as a discrete-event simulation: the timing units (one file
// each) and what they share -- the event queue, quad records, the per-tile counts the barriers
// need, and the barriers themselves (paper 001 section II-C, per tile; section III-E, per
// subtile). RasterPipeline::run() only composes the units: it dispatches each event to its unit.
//
//   tile_fetch_unit.cpp  PB reads through the tile cache into the triangle queue (queue.triangle)
//   raster_unit.cpp      quads in stream order into the cores' fragment queues (queue.fragment)
//   early_z.cpp          per core: depth test, attachment loads, early-Z in-flight bound
//   shader_core.cpp      per core: thread slots (core.max_quads), issue, the texture unit
//   blend_unit.cpp       per core: the colour queue (queue.color), blending, the colour flush
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "blend_unit.h"
#include "early_z.h"
#include "event_queue.h"
#include "frame_index.h"
#include "model_config.h"
#include "raster_unit.h"
#include "shader_core.h"
#include "stage_meter.h"
#include "tessera/model/energy.h"
#include "tessera/model/gpu_model.h"
#include "tessera/model/hierarchy.h"
#include "tessera/model/hooks.h"
#include "tile_fetch_unit.h"

namespace tessera::model {

// What a quad carries from the rasterizer to blending.
struct QuadRec {
  uint32_t tile = 0;  // position in the processing order
  uint32_t core = 0;
  uint32_t draw = 0;  // the draw of its primitive (its shader)
  uint32_t warp = 0;  // the core's thread slot it holds while resident (0 .. core.max_quads - 1)
  bool shaded = false;
  uint64_t cycles = 0;      // issue cycles of the whole quad
  uint64_t lane_instructions = 0;
  uint32_t tex_instrs = 0;  // texture instructions (the k-th sample of each lane is the k-th)
  uint32_t segment = 0;     // next segment to run
  uint64_t arrive = 0;      // cycle it entered early-Z's queue
  uint64_t ready = 0;       // cycle it left early-Z (for the core's admission)
  uint32_t probes = 0;      // filter probes of its samples
  uint32_t fragments = 0;   // covered pixels (blending takes blend.fragments_per_cycle of them a cycle)
  uint32_t varying_cycles = 0, ls_cycles = 0;  // its work on the core's varying and load/store units
  bool waiting_texture = false;  // its texture data is on its way
  OpCounts ops;             // its operations per class (energy), core.cost=classes
  std::vector<uint32_t> instr_probes;  // filter probes per texture instruction (the texture unit's work)
  uint32_t lane_samples[4] = {};
  std::vector<uint64_t> lines;
  std::vector<uint32_t> sample_end;    // end index into lines, per sample
  std::vector<uint32_t> sample_instr;  // texture instruction of each sample
  // Only with a front buffer (paper 004): each sample's filter probes and their blocks.
  std::vector<stream::TextureProbe> probe_records;  // first_block within the sample's blocks
  std::vector<uint64_t> blocks;
  std::vector<uint32_t> sample_probe_end;    // end index into probe_records, per sample
  std::vector<uint32_t> sample_block_end;    // end index into blocks, per sample
  std::vector<uint32_t> sample_block_bytes;
};

// The stages behind a barrier (paper 001 Fig. 4): early-Z, the fragment stage and blending.
enum class BarrierStage : uint8_t { EarlyZ = 0, Fragment = 1, Blend = 2 };
inline constexpr uint32_t kBarrierStages = 3;

// One stage's barrier: which tile each lane (the whole stage per tile, or each core per subtile)
// may take, and from when; a lane opens the next tile once every quad of its part of the current
// tile has left the stage.
struct TileBarrier {
  std::vector<uint32_t> done_core, done_tile;  // quads that left the stage, per (tile, core) / tile
  std::vector<uint64_t> max_core, max_tile;    // the last of them left at
  std::vector<uint32_t> allowed;               // per lane: the tile it may take
  std::vector<uint64_t> release;               // per lane: from this cycle
  void reset(uint32_t tiles, uint32_t cores, uint64_t t0);
  // The stage's lane `core` may take a quad of `tile` at t; else *wait is when to retry (0: a
  // quad_done will wake it).
  bool open(uint32_t core, uint32_t tile, uint64_t t, uint64_t* wait) const {
    if (allowed[core] < tile) return false;
    if (release[core] > t) {
      *wait = release[core];
      return false;
    }
    return true;
  }
};

class RasterPipeline {
 public:
  RasterPipeline(const ModelConfig& config, const Hooks& hooks, QuadScheduler* scheduler);

  // A new frame: the hierarchy, where results and activity go, the stream and its index.
  void begin_frame(MemoryHierarchy* hierarchy, FrameResults* results, CoreActivity* activity, const FrameIndex* index,
                   std::span<const uint8_t> bytes, const std::vector<uint64_t>* tile_next_use, size_t* tile_access);
  // Simulates the raster phase of `phase` from cycle t0 in `order` (positions into its tiles);
  // returns the cycle its last flush completes.
  uint64_t run(const PassIndex& pass, const PhaseIndex& phase, std::span<const uint32_t> order, uint64_t t0);

  // Services for the units.
  // Unit `unit` of `kind` runs at t (or now, if t is past); an earlier pending wake-up stands.
  void wake(UnitKind kind, uint32_t unit, uint64_t t) {
    t = std::max(t, events.now());  // a barrier opened in the past opens now
    uint64_t& pending = scheduled[static_cast<size_t>(kind)][unit];
    if (pending <= t) return;
    pending = t;
    events.push(SimEvent{t, unit, 0, kind});
  }
  void wake_stage(BarrierStage s, uint32_t core, uint64_t t);
  // A quad of tile k (position in the order) on `core` left stage s at t.
  void quad_done(BarrierStage s, uint32_t k, uint32_t core, uint64_t t);
  // Opens the next tile(s) of stage s for `core` (or the whole stage per tile) when due.
  void advance(BarrierStage s, uint32_t core);
  // Blending's flush unit `unit` (0 per tile, the core per subtile) has flushed its tile: the
  // colour buffer (bank) takes the next tile once the last line is in the write buffer.
  void flushed(uint32_t unit);
  uint32_t new_rec();
  void free_rec(uint32_t slot) { free_recs.push_back(slot); }
  [[noreturn]] void fail(const std::string& what) const;
  // The next number of the tile cache's OPT Number sequence (kNoNextUse when not computed).
  uint64_t next_tile_use();
  const TileIndex& tile(uint32_t k) const { return phase->tiles[order[k]]; }
  const TileBarrier& gate(BarrierStage s) const { return barrier[static_cast<size_t>(s)]; }

  // Configuration and hooks.
  const ModelConfig& cfg;
  const Hooks& hooks;
  QuadScheduler* scheduler;

  // Per frame.
  MemoryHierarchy* h = nullptr;
  FrameResults* res = nullptr;
  CoreActivity* activity = nullptr;
  const FrameIndex* index = nullptr;
  Timeline* timeline = nullptr;  // where the units' intervals also go (GpuModel::set_timeline)
  std::span<const uint8_t> bytes;
  const std::vector<uint64_t>* tile_next_use = nullptr;  // null: no OPT Numbers this run
  size_t* tile_access = nullptr;
  uint64_t sim_events[kUnitKinds] = {};
  std::vector<QuadRec> recs;
  std::vector<uint32_t> free_recs;

  // Per phase.
  const PassIndex* pass = nullptr;
  const PhaseIndex* phase = nullptr;
  std::span<const uint32_t> order;
  uint32_t ntiles = 0;
  EventQueue events;
  std::vector<uint64_t> scheduled[kUnitKinds];  // pending wake-up per unit; kIdle when none
  uint64_t last_time = 0;
  uint64_t now = 0;  // the cycle of the event being handled
  // Per (tile, core) and per tile, tile = position in the order.
  std::vector<uint32_t> q_core, q_tile;  // quads the rasterizer sent
  std::vector<uint8_t> raster_done;      // the rasterizer has sent every quad of the tile
  std::vector<uint64_t> tile_start, tile_end, depth_loaded, color_loaded, tile_busy;
  std::vector<uint64_t> tile_l2;         // L2 accesses made for the tile (texture misses, PB reads)
  // The core the rasterizer sent each quad position of each tile to (kNoOwner: no quad there):
  // per subtile, a core's colour-buffer bank holds, and flushes, the pixels of its quads.
  static constexpr uint16_t kNoOwner = 0xffff;
  std::vector<uint16_t> quad_owner;      // tile x quad position
  uint32_t quads_x = 16, quads_y = 16;   // quad positions of a tile
  uint16_t owner(uint32_t k, uint32_t px, uint32_t py) const {
    const uint32_t qx = px / 2, qy = py / 2;
    if (qx >= quads_x || qy >= quads_y) return kNoOwner;
    return quad_owner[(size_t{k} * quads_y + qy) * quads_x + qx];
  }
  TileBarrier barrier[kBarrierStages];

  // The units.
  TileFetcher fetcher;
  Rasterizer rasterizer;
  EarlyZ earlyz;
  ShaderCore core;
  BlendUnit blend;
};

}  // namespace tessera::model
