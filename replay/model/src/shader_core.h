// The shader cores (fragment processors) with their texture units, one of each per core.
//
// A core holds up to core.max_quads resident quads (its thread slots; a quad is one 4-lane
// warp). A quad's ceil(instructions / core.issue_lanes) issue cycles are cut into (texture
// instructions + 1) segments; the core runs one ready segment at a time, oldest ready quad
// first, and switches quads while one waits for texture data: the multithreading that hides
// memory latency (paper 002 section 3). After a segment its texture instruction sends the lines
// of the k-th sample of every lane through the texture unit, tex.lines_per_cycle per cycle, to
// the L1 (or a buffer in front of it, paper 004); the quad is ready again tex.latency cycles
// after its last line arrives. A finished quad leaves for blending through the colour queue
// (queue.color); while that is full it keeps its thread slot.
#pragma once

#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

#include "stage_meter.h"

namespace tessera::model {

class RasterPipeline;

class ShaderCore {
 public:
  explicit ShaderCore(RasterPipeline& p) : p_(p) {}
  void begin_phase(uint64_t t0);
  // Early-Z passed quad record `slot` to `core`; it may be taken from `ready`.
  void admit(uint32_t core, uint32_t slot, uint64_t ready);
  void admit_step(uint32_t core, uint64_t t);
  void core_step(uint32_t core, uint64_t t);
  void texture_issue(uint32_t core, uint32_t slot, uint64_t t);
  // Blending took a quad from `core`'s colour queue at t.
  void color_queue_freed(uint32_t core, uint64_t t);

  StageMeter meter;  // the fragment stage

 private:
  struct Ready {
    uint64_t ready;
    uint64_t order;
    uint32_t slot;
    bool operator>(const Ready& o) const { return ready != o.ready ? ready > o.ready : order > o.order; }
  };
  void push_ready(uint32_t core, uint32_t slot, uint64_t ready);
  // Quad `slot` finished on `core` at `end`: into the colour queue, or wait for room.
  void leave(uint32_t core, uint32_t slot, uint64_t end);
  void retire(uint32_t core, uint32_t slot, uint64_t t);

  RasterPipeline& p_;
  std::vector<std::deque<uint32_t>> admit_q_;
  std::vector<std::vector<Ready>> ready_heap_;
  std::vector<std::deque<std::pair<uint32_t, uint64_t>>> leaving_;  // (slot, finished at): colour queue full
  std::vector<uint64_t> core_free_, tex_free_;
  std::vector<uint32_t> resident_, tex_in_cycle_;
  std::vector<uint64_t> front_l1_;  // lines a front buffer sends on to L1, reused
  std::vector<uint64_t> front_ready_;  // when each of them is served, reused
  uint64_t order_ = 0;
};

}  // namespace tessera::model
