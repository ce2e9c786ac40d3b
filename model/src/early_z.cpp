#include "early_z.h"

#include <algorithm>

#include "raster_pipeline.h"

namespace tessera::model {

void EarlyZ::begin_phase(uint64_t t0) {
  const uint32_t cores = p_.cfg.cores;
  fifo_.assign(cores, {});
  free_.assign(cores, t0);
  out_.assign(cores, 0);
  out_total_ = 0;
  budget_waiters_.clear();
  waiting_budget_.assign(cores, 0);
  queued_ = 0;
  fragment_queue_ = p_.cfg.fragment_queue;
  p_cfg_shared_ = p_.cfg.shared_queues;
  runahead_ = p_.cfg.subtile_barriers ? p_.cfg.runahead_tiles : 0;
  meter.reset_units(cores);
}

bool EarlyZ::queue_full(uint32_t core, uint32_t tile) const {
  if ((p_cfg_shared_ ? queued_ : fifo_[core].size()) < fragment_queue_) return false;
  // Its head is the tile the core's early-Z is on (or opens next). Subtile barriers refuse shared
  // queues (model_config.h), so a full queue with a window is this core's own, not empty.
  if (runahead_ == 0 || fifo_[core].empty()) return true;
  return tile > p_.recs[fifo_[core].front()].tile + uint64_t{runahead_};
}

bool EarlyZ::held_by_barrier(uint32_t c, uint64_t t) const {
  if (fifo_[c].empty()) return false;
  const QuadRec& q = p_.recs[fifo_[c].front()];
  uint64_t wait = 0;
  return q.arrive <= t && !p_.barrier[0].open(c, q.tile, t, &wait);
}

void EarlyZ::enqueue(uint32_t core, uint32_t slot, uint64_t t) {
  fifo_[core].push_back(slot);
  ++queued_;
  if (p_.timeline) p_.timeline->fragment_queue(core, t, static_cast<uint32_t>(fifo_[core].size()));
  ++p_.activity->fragment_queue_pushes;
  p_.wake(UnitKind::EarlyZ, core, t);
}

void EarlyZ::admitted(uint32_t core, uint64_t t) {
  --out_[core];
  --out_total_;
  p_.wake(UnitKind::EarlyZ, core, t);
  pass_budget(t);
}

void EarlyZ::pass_budget(uint64_t t) {
  // One in-flight budget for the GPU: while it has room, the core that has waited longest for it
  // may go on (a woken core that no longer needs it passes it on when it steps).
  if (!p_.cfg.shared_earlyz || budget_waiters_.empty() || out_total_ >= p_.cfg.earlyz_inflight) return;
  const uint32_t next = budget_waiters_.front();
  budget_waiters_.pop_front();
  waiting_budget_[next] = 0;
  p_.wake(UnitKind::EarlyZ, next, t);
}

void EarlyZ::issue_loads(uint32_t k, uint32_t core, bool all, bool depth_stencil, uint64_t t) {
  const TileIndex& tile = p_.tile(k);
  const uint32_t cores = p_.cfg.cores;
  uint64_t issue = t, done = t, n = 0;
  // Per subtile each core's bank loads its share of the tile's lines.
  for (uint32_t i = tile.load_begin; i < tile.load_end; ++i) {
    const ByteRange& load = p_.index->loads[i];
    if (load.depth_stencil != depth_stencil) continue;
    // The papers' tiler keeps depth and stencil on chip (gpu.tile_writeback=color).
    if (load.depth_stencil && !p_.cfg.store_depth) continue;
    for_each_line(load.address, load.bytes, p_.cfg.line_bytes, [&](uint64_t line, bool) {
      if (all || n++ % cores == core) {
        // A perfect pixel cache (gpu.framebuffer=perfect) holds the line: present at once.
        if (!p_.cfg.perfect_framebuffer) done = std::max(done, p_.h->dram().access(line, false, issue, DramSource::Other));
        ++issue;
        ++p_.activity->tile_buffer_loads;
      }
    });
  }
  std::vector<uint64_t>& loaded = depth_stencil ? p_.depth_loaded : p_.color_loaded;
  for (uint32_t c = 0; c < cores; ++c) {
    if (all || c == core) loaded[size_t{k} * cores + c] = done;
  }
}

void EarlyZ::step(uint32_t c, uint64_t t) {
  take(c, t);
  pass_budget(t);
}

void EarlyZ::take(uint32_t c, uint64_t t) {
  if (fifo_[c].empty()) return;
  if (t < free_[c]) return p_.wake(UnitKind::EarlyZ, c, free_[c]);
  const uint32_t slot = fifo_[c].front();
  QuadRec& q = p_.recs[slot];
  // Not in the queue yet (it was put there for a later cycle).
  if (q.arrive > t) return p_.wake(UnitKind::EarlyZ, c, q.arrive);
  uint64_t wait = 0;
  if (!p_.barrier[0].open(c, q.tile, t, &wait)) {
    meter.stall_begin(c, t);
    if (wait) p_.wake(UnitKind::EarlyZ, c, wait);
    return p_.core.touch(c, t);  // the core may be idle at the barrier from now
  }
  const uint64_t loaded = p_.depth_loaded[size_t{q.tile} * p_.cfg.cores + c];
  if (loaded > t) {
    meter.stall_begin(c, t);
    return p_.wake(UnitKind::EarlyZ, c, loaded);
  }
  if (q.shaded && (p_.cfg.shared_earlyz ? out_total_ : out_[c]) >= p_.cfg.earlyz_inflight) {
    meter.stall_begin(c, t);
    if (p_.cfg.shared_earlyz && !waiting_budget_[c]) {
      waiting_budget_[c] = 1;
      budget_waiters_.push_back(c);
    }
    return;  // admitted() wakes it
  }
  fifo_[c].pop_front();
  --queued_;
  if (p_.timeline) p_.timeline->fragment_queue(c, t, static_cast<uint32_t>(fifo_[c].size()));
  p_.rasterizer.queue_freed(c, t);
  meter.stall_end(c, t);
  meter.queue_wait += t - q.arrive;
  free_[c] = t + 1;
  ++meter.busy;
  ++p_.activity->quads_depth_tested;
  const uint64_t done = t + p_.cfg.earlyz_latency;
  const uint32_t k = q.tile;
  if (p_.cfg.subtile_barriers) {
    uint32_t oldest = k;
    for (uint32_t allowed : p_.barrier[0].allowed) oldest = std::min(oldest, allowed);
    lead_max = std::max(lead_max, k - oldest);
    lead_sum += k - oldest;
    ++lead_quads;
  }
  if (!q.shaded) {
    // Killed by the early tests: it leaves the pipeline here.
    p_.free_rec(slot);
    p_.quad_done(BarrierStage::EarlyZ, k, c, done);
    p_.quad_done(BarrierStage::Fragment, k, c, done);
    p_.quad_done(BarrierStage::Blend, k, c, done);
  } else {
    ++out_[c];
    ++out_total_;
    q.ready = done;
    p_.core.admit(c, slot, done);
    p_.quad_done(BarrierStage::EarlyZ, k, c, done);
  }
  if (!fifo_[c].empty()) p_.wake(UnitKind::EarlyZ, c, t + 1);
  p_.core.touch(c, t);
}

}  // namespace tessera::model
