// Early-Z, one unit per core (paper 001 section II-A and III-E: one parallel pipeline per shader
// core, 1 quad per cycle): takes quads from the core's fragment queue in order once the barrier
// lets its tile in and the tile's depth/stencil loads have arrived, tests depth (depthbuf.latency
// cycles), and drops quads that early tests killed; at most gpu.earlyz_inflight_quads quads may
// be past it and not yet in the shader core. It also reads a tile's attachment loads (straight
// to main memory, paper 003 Fig. 2) when the previous tile's flush has left the tile buffers
// (RasterPipeline::flushed).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

#include "stage_meter.h"

namespace tessera::model {

class RasterPipeline;

class EarlyZ {
 public:
  explicit EarlyZ(RasterPipeline& p) : p_(p) {}
  void begin_phase(uint64_t t0);
  // The rasterizer puts quad record `slot` into `core`'s fragment queue; it arrives at `t`.
  void enqueue(uint32_t core, uint32_t slot, uint64_t t);
  // The rasterizer may not put a quad of `tile` for `core` into its fragment queue: queue.fragment
  // entries per core (or for every core together with queue.scope=shared) are taken, and with
  // decoupled barriers the tile is more than raster.runahead_tiles past the one at the queue's
  // head.
  bool queue_full(uint32_t core, uint32_t tile) const;
  // `core`'s early-Z has a quad it may not take at t because the barrier holds its tile.
  bool held_by_barrier(uint32_t core, uint64_t t) const;
  void step(uint32_t core, uint64_t t);
  // The shader core took one of `core`'s quads past early-Z.
  void admitted(uint32_t core, uint64_t t);
  // Reads tile k's depth/stencil or colour attachment loads for `core` (all cores when `all`)
  // from t; early-Z waits for the depth/stencil ones (RasterPipeline::depth_loaded), blending for
  // the colour ones (RasterPipeline::color_loaded).
  void issue_loads(uint32_t k, uint32_t core, bool all, bool depth_stencil, uint64_t t);

  StageMeter meter;
  // Paper 001 Fig. 10, measured: when a core's early-Z takes a quad, how many tiles (positions in
  // the order) it is past the oldest tile some core's early-Z has not finished; the largest, and
  // the sum over the quads taken, this frame (subtile barriers only).
  uint32_t lead_max = 0;
  uint64_t lead_sum = 0, lead_quads = 0;

 private:
  // One step of `core`'s early-Z: takes its next quad if it may.
  void take(uint32_t core, uint64_t t);
  // Wakes the next core waiting for the shared in-flight budget while the budget has room.
  void pass_budget(uint64_t t);

  RasterPipeline& p_;
  std::vector<std::deque<uint32_t>> fifo_;
  std::vector<uint64_t> free_;
  std::vector<uint32_t> out_;  // shaded quads past early-Z not yet admitted, per core
  uint32_t out_total_ = 0;     // the same over every core (gpu.earlyz_scope=shared)
  // Cores whose early-Z waits for the shared in-flight budget, in the order they began to wait:
  // each quad a core admits lets the longest-waiting one go on.
  std::deque<uint32_t> budget_waiters_;
  std::vector<uint8_t> waiting_budget_;
  size_t queued_ = 0;          // quads in every core's fragment queue
  size_t fragment_queue_ = 64;
  bool p_cfg_shared_ = true;
  uint32_t runahead_ = 0;  // raster.runahead_tiles with subtile barriers, else 0
};

}  // namespace tessera::model
