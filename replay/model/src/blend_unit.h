// Blending and the colour flush, one unit per core (paper 001 sections II-A and III-E): takes
// shaded quads from the core's colour queue (queue.color entries) in order, 1 per cycle
// (colorbuf.latency), once the barrier lets their tile in and the tile's attachment loads have
// arrived. When the barrier closes a tile (or, per subtile, a core's part of it), its colour /
// depth store lines are flushed to main memory (paper 003 Fig. 2), one per cycle, and blending
// of the next tile waits for the flush (the colour buffer holds one tile).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

#include "stage_meter.h"

namespace tessera::model {

class RasterPipeline;

class BlendUnit {
 public:
  explicit BlendUnit(RasterPipeline& p) : p_(p) {}
  void begin_phase(uint64_t t0);
  bool has_room(uint32_t core) const { return fifo_[core].size() < capacity_; }
  // A quad of tile k (position in the order) enters `core`'s colour queue, ready at t.
  void enqueue(uint32_t core, uint32_t k, uint64_t t);
  void step(uint32_t core, uint64_t t);
  // Flushes tile k's store lines of `core` (every line when `all`) from t; returns when the
  // last write completes.
  uint64_t flush(uint32_t k, uint32_t core, bool all, uint64_t t);

  StageMeter meter;        // blending
  StageMeter flush_meter;  // the colour flush (busy: lines written)

 private:
  RasterPipeline& p_;
  size_t capacity_ = 64;
  std::vector<std::deque<std::pair<uint32_t, uint64_t>>> fifo_;  // (tile, ready)
  std::vector<uint64_t> free_;
};

}  // namespace tessera::model
