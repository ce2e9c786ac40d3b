// Blending and the tile flush, one blending unit per core (paper 001 sections II-A and III-E):
// blending takes shaded quads from the colour queue (queue.color entries, per core or shared) in
// order, at blend.fragments_per_cycle covered pixels a cycle (colorbuf.latency), once the barrier
// lets their tile in and the tile's colour loads have arrived. When the barrier closes a tile
// (or, per subtile, a core's part of it), its store lines leave for main memory (paper 003 Fig.
// 2), one per cycle, through a write buffer of gpu.flush_buffer lines that the flush units share:
// a line enters once an entry is free (its oldest write has completed), and the flush waits, as
// an event at that cycle, while none is; the lines are sent to DRAM as they enter, in cycle order
// with the other units' requests. Blending of the next tile waits until the last line is in the
// buffer (0 lines: until the last write has completed). With gpu.tile_writeback=color only colour
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
  // Starts flushing tile k's store lines of `core` (every line when `all`: flush unit 0) at t.
  // Returns true when every line is already in the write buffer; otherwise the flush goes on as
  // Flush events and flush_step() returns true once it is done.
  bool start_flush(uint32_t k, uint32_t core, bool all, uint64_t t);
  bool flushing(uint32_t unit) const { return flush_[unit].active; }
  // The flush unit's event: lines enter the write buffer while it has room.
  bool flush_step(uint32_t unit, uint64_t t);
  // A finished flush: its tile, when the colour buffer (bank) may take the next tile, and when
  // its last line is in memory.
  struct Flushed {
    uint32_t tile;
    uint64_t released;
    uint64_t written;
  };
  Flushed flushed(uint32_t unit) const { return {flush_[unit].tile, flush_[unit].released, flush_[unit].written}; }

  StageMeter meter;        // blending
  StageMeter flush_meter;  // the colour flush (busy: lines written)
  std::vector<uint64_t> lines_flushed;  // per flush unit (per core; unit 0 flushes every line per tile), this frame

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
  // A flush in progress: its lines, the next to enter, and when the next may enter. Per subtile
  // (gpu.barrier=subtile) a line whose pixels several cores' quads cover is written once, by the
  // last of those cores to finish the tile (paper 001 section III-E gives each core a bank of the
  // colour buffer; a line cannot leave before every bank's part of it is final): its lines come
  // after the flush's own, and the banks of the other owners stay held until it is written.
  struct Flush {
    bool active = false;
    uint32_t tile = 0;
    std::vector<uint64_t> lines;  // its own lines, then [shared_from, end) the shared ones it writes
    size_t shared_from = 0;
    std::vector<uint16_t> credits;  // per shared line it writes, each other owner (repeated)
    size_t next = 0;
    uint64_t slot = 0;          // the next line enters at this cycle at the earliest (one a cycle)
    uint64_t shared_ready = 0;  // the shared lines enter no earlier: the latest owner's finish
    uint64_t written = 0;       // the last completion of its lines so far
    bool lines_done = false;    // every line is in the write buffer (or written)
    uint64_t own_released = 0;  // then: when the bank could take the next tile, for its own lines
    bool waiting = false;       // a shared line of the bank is still to be written by another core
    uint64_t hold_until = 0;    // once it has been: when that line entered the write buffer
    uint64_t released = 0;      // once done: the colour buffer (bank) may take the next tile
  };
  // Flush `unit`'s lines of tile k are in the write buffer at `at`: each other owner of a shared
  // line it wrote has one line less to wait for, and a bank with none left is released.
  void shared_lines_written(uint32_t unit, uint32_t k, uint64_t at);

  std::vector<Flush> flush_;  // per flush unit: one, or one per core with gpu.barrier=subtile
  // Per subtile only, per (tile, core): the cycle its flush began (kNotFinished before), the
  // shared lines of its bank another core is still to write, and when the last of those written
  // so far entered the write buffer.
  static constexpr uint64_t kNotFinished = UINT64_MAX;
  std::vector<uint64_t> finished_at_;
  std::vector<uint32_t> pending_;
  std::vector<uint64_t> pending_done_at_;
};

}  // namespace tessera::model
