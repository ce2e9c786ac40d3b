// Early-Z, one unit per core (paper 001 section II-A and III-E: one parallel pipeline per shader
// core, 1 quad per cycle): takes quads from the core's fragment queue in order once the barrier
// lets its tile in and the tile's attachment loads have arrived, tests depth (depthbuf.latency
// cycles), and drops quads that early tests killed; at most gpu.earlyz_inflight_quads quads may
// be past it and not yet in the shader core. It also issues a tile's attachment loads (straight
// to main memory, paper 003 Fig. 2) when the barrier lets it begin that tile.
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
  size_t queue_size(uint32_t core) const { return fifo_[core].size(); }
  void step(uint32_t core, uint64_t t);
  // The shader core took one of `core`'s quads past early-Z.
  void admitted(uint32_t core, uint64_t t);
  // Reads tile k's attachment loads for `core` (all cores when `all`) from t; early-Z and
  // blending of that tile wait for them (RasterPipeline::load_done).
  void issue_loads(uint32_t k, uint32_t core, bool all, uint64_t t);

  StageMeter meter;

 private:
  RasterPipeline& p_;
  std::vector<std::deque<uint32_t>> fifo_;
  std::vector<uint64_t> free_;
  std::vector<uint32_t> out_;  // shaded quads past early-Z not yet admitted
};

}  // namespace tessera::model
