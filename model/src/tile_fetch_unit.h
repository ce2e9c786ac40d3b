// The tile fetcher of the Tiling Engine (paper 003 section II-A; paper 001 Fig. 3): reads each
// tile's Parameter Buffer lines through the tile cache, one per cycle, in the configured tile
// order, and hands the primitives to the rasterizer through the triangle queue (queue.triangle
// primitives). A primitive is ready when its PB-Lists line and its attribute lines have arrived.
// It fetches a tile once the rasterizer has begun the tile before it, and never holds more than
// queue.triangle primitives the rasterizer has not taken -- except the one the rasterizer is
// waiting for, so a primitive larger than the queue cannot deadlock the pair.
// With a tile-cache organisation (TCOR's split Tile Cache, paper 003 section III-C): a primitive
// the organisation serves whole takes one request (the remaining lines' OPT Numbers are consumed
// unsent); a refused request is retried once the rasterizer takes a primitive or an outstanding
// fill the organisation names arrives; and the organisation hears of each primitive the
// rasterizer takes (its locks are released).
#pragma once

#include <cstdint>
#include <vector>

#include "stage_meter.h"

namespace tessera::model {

class RasterPipeline;

class TileFetcher {
 public:
  explicit TileFetcher(RasterPipeline& p) : p_(p) {}
  void begin_phase(uint64_t t0);
  void step(uint64_t t);
  // Cycle by which group g (absolute index) and every group before it in its tile have arrived;
  // kIdle while not yet fetched.
  uint64_t ready(uint32_t g) const { return ready_[g - base_]; }
  // The rasterizer waits for group g: fetch up to it even past a full queue.
  void need(uint32_t g, uint64_t t);
  // The rasterizer set up the primitives of tile k (position in the order) up to group g
  // (tile_end: every group of the tile) at t: their queue entries free.
  void consume(uint32_t k, uint32_t g, uint64_t t);
  // The rasterizer began tile k at t: the tile after it may be fetched.
  void tile_started(uint32_t k, uint64_t t);
  // Primitives fetched and not taken by the rasterizer (in the triangle queue).
  uint32_t queued() const { return queued_; }
  uint64_t primitives = 0;     // this frame: primitives put in the queue
  uint64_t active_cycles = 0;  // this frame: cycles issuing requests or held by the memory hierarchy

  StageMeter meter;  // busy: lines issued; stall: a primitive to fetch but the queue full

 private:
  RasterPipeline& p_;
  uint64_t free_ = 0;        // next issue cycle of the fetcher
  uint32_t k_ = 0;           // tile (position in the order) being fetched
  uint32_t g_ = 0;           // next group to fetch in it
  uint32_t may_fetch_ = 0;   // tiles [0, may_fetch_) may be fetched
  uint32_t need_ = 0;        // the rasterizer waits for groups up to this one (+1; 0: none)
  uint32_t queued_ = 0;
  uint32_t base_ = 0;        // first group of the phase
  std::vector<uint64_t> ready_;
  std::vector<uint8_t> taken_;  // per group: its queue entry was freed
};

}  // namespace tessera::model
