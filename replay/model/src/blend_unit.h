// Blending and the colour flush, one unit per core (paper 001 sections II-A and III-E): takes
// shaded quads from the colour queue (queue.color entries, per core or shared) in order, at
// blend.fragments_per_cycle covered pixels a cycle (colorbuf.latency), once the barrier lets
// their tile in and the tile's attachment loads have arrived. When the barrier closes a tile (or,
// per subtile, a core's part of it), its store lines leave for main memory (paper 003 Fig. 2),
// one per cycle, through a write buffer of gpu.flush_buffer lines: blending of the next tile waits
// only until the last line is in the buffer, and the buffer waits for its oldest write when full
// (0 lines: blending waits for the writes themselves). With gpu.tile_writeback=color only colour
// lines leave (paper 001 section II-A: "the Color Buffer is flushed to the Frame Buffer in main
// memory"; depth stays on chip).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <queue>
#include <vector>

#include "stage_meter.h"

namespace tessera::model {

class RasterPipeline;

class BlendUnit {
 public:
  explicit BlendUnit(RasterPipeline& p) : p_(p) {}
  void begin_phase(uint64_t t0);
  bool has_room(uint32_t core) const { return (shared_ ? queued_ : fifo_[core].size()) < capacity_; }
  // A quad of tile k (position in the order) with `fragments` covered pixels enters `core`'s
  // colour queue, ready at t.
  void enqueue(uint32_t core, uint32_t k, uint32_t fragments, uint64_t t);
  void step(uint32_t core, uint64_t t);
  // Flushes tile k's store lines of `core` (every line when `all`) from t.
  struct FlushTimes {
    uint64_t released = 0;  // the colour buffer (bank) may take the next tile
    uint64_t written = 0;   // the last line is in memory
  };
  FlushTimes flush(uint32_t k, uint32_t core, bool all, uint64_t t);

  StageMeter meter;        // blending
  StageMeter flush_meter;  // the colour flush (busy: lines written)

 private:
  struct Entry {
    uint32_t tile;
    uint32_t fragments;
    uint64_t ready;
  };
  RasterPipeline& p_;
  size_t capacity_ = 64;
  bool shared_ = true;
  size_t queued_ = 0;  // quads in every core's colour queue
  std::vector<std::deque<Entry>> fifo_;
  std::vector<uint64_t> free_;
  // Completion cycles of the writes in the flush write buffer.
  std::priority_queue<uint64_t, std::vector<uint64_t>, std::greater<>> write_buffer_;
};

}  // namespace tessera::model
