// The rasterizer (paper 001 section II-A): walks each tile's primitives and quads in stream
// order (the tiles in the configured order), waits for a primitive's Parameter Buffer data from
// the tile fetcher, and sends each quad to the core the quad scheduler names, raster.quads_per_
// cycle per cycle, blocking while that core's fragment queue (queue.fragment) is full. A cycle
// in which it emitted quads is busy; it stalls while waiting for primitives or queue space.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "frame_index.h"
#include "stage_meter.h"

namespace tessera::model {

class RasterPipeline;

class Rasterizer {
 public:
  explicit Rasterizer(RasterPipeline& p) : p_(p) {}
  void begin_phase(std::span<const uint8_t> bytes, uint64_t t0);
  void step(uint64_t t);
  // Early-Z took a quad from `core`'s fragment queue at t (it may have been full).
  void queue_freed(uint32_t core, uint64_t t);
  // The tile fetcher delivered group g (ready at `ready`).
  void group_fetched(uint32_t g, uint64_t ready);
  bool finished() const { return finished_; }

  StageMeter meter;

 private:
  void open_tile(uint64_t t);
  // Reads the current tile's body up to its next quad (into pending_); false when the rasterizer
  // must wait for the tile fetcher or the tile has ended.
  bool next_quad(uint64_t t);
  uint32_t read_quad(const stream::Event& quad);

  RasterPipeline& p_;
  std::optional<StreamCursor> cursor_;
  uint32_t k_ = 0;              // tile being rasterised (position in the order)
  bool tile_open_ = false;
  uint32_t primitive_ = 0;      // Primitive events of the tile read so far
  uint32_t draw_ = 0;           // draw of the last Primitive read (its quads' shader)
  int64_t pending_ = -1;        // quad record waiting to be sent
  bool finished_ = false;
  uint32_t wait_group_ = kListGroup;  // group it waits for
  int64_t blocked_core_ = -1;
  uint64_t cycle_ = ~uint64_t{0};
  uint32_t emitted_ = 0;        // quads sent in cycle_
  // The pending quad's lines a prefetcher may fetch ahead (its samples that are not dependent
  // reads) and its dependent samples; filled only when a prefetcher is installed.
  std::vector<uint64_t> prefetch_lines_;
  uint32_t dependent_samples_ = 0;
};

}  // namespace tessera::model
