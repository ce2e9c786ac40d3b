// The shader cores (fragment processors) with their texture, varying and load/store units, one of
// each per core, modelled on Arm's Bifrost shader core (Arm, "The Bifrost Shader Core" developer
// guide: a Mali-G71 core has three execution engines, each running one warp of four threads, a
// quad; the texture, varying and load/store units sit beside them on the core's messaging fabric
// and are shared by the engines; a small core reads one texture sample per clock).
//
// A core holds up to core.max_quads resident quads (its thread slots) and runs up to core.engines
// of them at once, one per engine. A quad's arithmetic issue cycles (core.cost=classes: its ALU
// operations over core.alu_rate per lane and cycle, a transcendental core.sfu_ops slots, one slot
// per texture instruction's message; core.cost=instructions: ceil(instructions / core.issue_lanes))
// are cut into (texture instructions + 1) segments; an engine runs one ready segment at a time,
// oldest ready quad first, and takes another quad while one waits for data: the multithreading
// that hides memory latency (paper 002 section 3). Before its first segment a quad's varyings
// are interpolated by the core's varying unit (core.varying_rate components a cycle); after its
// last, its buffer and image accesses go through the load/store unit (core.ls_rate a cycle).
// After segment k its texture instruction sends the lines of the k-th sample of every lane
// through the texture unit, which takes tex.probes_per_cycle bilinear probes and sends
// tex.lines_per_cycle lines per cycle to the L1 (or a buffer in front of it, paper 004); the quad
// is ready again tex.latency cycles after its last line arrives. A finished quad leaves for
// blending through the colour queue (queue.color); while that is full it keeps its thread slot.
//
// Where each core's cycles go (CoreCycles, summing to the frame's cycles): busy (an engine
// issued), waiting for texture data, waiting for the varying or load/store unit, waiting at a
// barrier (the next quad held by the fragment or early-Z barrier), blocked (finished quads held
// by a full colour queue), starved (nothing to run: the fragment queue is empty).
#pragma once

#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

#include "stage_meter.h"
#include "tessera/model/gpu_model.h"

namespace tessera::model {

class RasterPipeline;

class ShaderCore {
 public:
  explicit ShaderCore(RasterPipeline& p) : p_(p) {}
  void begin_phase(uint64_t t0);
  // Closes every core's cycle accounting at the phase's end and adds it to the results.
  void end_phase(uint64_t t);
  // Early-Z passed quad record `slot` to `core`; it may be taken from `ready`.
  void admit(uint32_t core, uint32_t slot, uint64_t ready);
  void admit_step(uint32_t core, uint64_t t);
  void core_step(uint32_t core, uint64_t t);
  void texture_issue(uint32_t core, uint32_t slot, uint64_t t);
  // Blending took a quad from `core`'s colour queue at t.
  void color_queue_freed(uint32_t core, uint64_t t);
  // Something upstream of `core` changed at t (early-Z took or held a quad): its idle cycles may
  // change cause.
  void touch(uint32_t core, uint64_t t);

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
  // The earliest-free engine of `core`.
  uint32_t free_engine(uint32_t core) const {
    const uint64_t* e = engine_free_.data() + size_t{core} * engines_;
    uint32_t best = 0;
    for (uint32_t i = 1; i < engines_; ++i) best = e[i] < e[best] ? i : best;
    return best;
  }
  // Why `core`, with no engine issuing, is idle at t.
  CoreState idle_state(uint32_t core, uint64_t t) const;

  RasterPipeline& p_;
  std::vector<std::deque<uint32_t>> admit_q_;
  std::vector<std::vector<Ready>> ready_heap_;
  std::vector<std::deque<std::pair<uint32_t, uint64_t>>> leaving_;  // (slot, finished at): colour queue full
  std::vector<uint64_t> engine_free_;  // per core x engine
  std::vector<uint64_t> tex_free_, varying_free_, ls_free_;
  std::vector<uint32_t> resident_, tex_in_cycle_;
  // Per core: thread slots freed by quads that left (a min-heap: the lowest is reused first) and
  // the next slot never used; a quad takes one on admission (QuadRec::warp).
  std::vector<std::vector<uint32_t>> free_slots_;
  std::vector<uint32_t> next_slot_;
  std::vector<uint32_t> waiting_texture_;  // resident quads whose texture data is on its way
  std::vector<uint64_t> front_l1_;  // lines a front buffer sends on to L1, reused
  std::vector<uint64_t> front_ready_;  // when each of them is served, reused
  uint64_t order_ = 0;
  uint32_t engines_ = 1;
  // Cycle accounting per core: time up to `mark_` is counted; from there on the core is idle for
  // `state_` unless an engine is busy until `busy_until_`.
  std::vector<uint64_t> mark_, busy_until_;
  std::vector<CoreState> state_;
  std::vector<CoreCycles> cycles_;
  uint32_t leaving_total_ = 0;  // quads waiting for a colour queue entry, over every core
};

}  // namespace tessera::model
