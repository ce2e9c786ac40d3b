#include "raster_pipeline.h"

#include <algorithm>

namespace tessera::model {

void TileBarrier::reset(uint32_t tiles, uint32_t cores, uint64_t t0) {
  const size_t kc = size_t{tiles} * cores;
  done_core.assign(kc, 0);
  done_tile.assign(tiles, 0);
  max_core.assign(kc, 0);
  max_tile.assign(tiles, 0);
  allowed.assign(cores, 0);
  release.assign(cores, t0);
}

RasterPipeline::RasterPipeline(const ModelConfig& config, const Hooks& hk, QuadScheduler* sched)
    : cfg(config), hooks(hk), scheduler(sched), fetcher(*this), rasterizer(*this), earlyz(*this), core(*this),
      blend(*this) {}

void RasterPipeline::begin_frame(MemoryHierarchy* hierarchy, FrameResults* results, CoreActivity* act,
                                 const FrameIndex* idx, std::span<const uint8_t> stream_bytes,
                                 const std::vector<uint64_t>* next_use, size_t* next_use_position) {
  h = hierarchy;
  res = results;
  activity = act;
  index = idx;
  bytes = stream_bytes;
  tile_next_use = next_use;
  tile_access = next_use_position;
  for (auto& v : sim_events) v = 0;
  fetcher.primitives = fetcher.active_cycles = 0;
  // Quad records keep their buffers from frame to frame.
  free_recs.clear();
  for (uint32_t i = static_cast<uint32_t>(recs.size()); i-- > 0;) free_recs.push_back(i);
  for (StageMeter* m : {&fetcher.meter, &rasterizer.meter, &earlyz.meter, &core.meter, &blend.meter, &blend.flush_meter}) {
    m->reset(0);
  }
  blend.lines_flushed.assign(cfg.cores, 0);
  rasterizer.meter.trace_to(timeline, Timeline::Unit::Rasterizer);
  blend.flush_meter.trace_to(timeline, Timeline::Unit::Flush);
  earlyz.lead_max = 0;
  earlyz.lead_sum = earlyz.lead_quads = 0;
}

void RasterPipeline::fail(const std::string& what) const { throw ModelError("access stream: " + what); }

uint32_t RasterPipeline::new_rec() {
  if (free_recs.empty()) {
    recs.emplace_back();
    return static_cast<uint32_t>(recs.size() - 1);
  }
  const uint32_t s = free_recs.back();
  free_recs.pop_back();
  return s;
}

uint64_t RasterPipeline::next_tile_use() {
  if (!tile_next_use) return kNoNextUse;
  if (*tile_access >= tile_next_use->size()) throw ModelError("tile cache next-use numbers out of step with the stream");
  return (*tile_next_use)[(*tile_access)++];
}

void RasterPipeline::wake_stage(BarrierStage s, uint32_t c, uint64_t t) {
  switch (s) {
    case BarrierStage::EarlyZ: return wake(UnitKind::EarlyZ, c, t);
    case BarrierStage::Fragment: return wake(UnitKind::Admit, c, t);
    case BarrierStage::Blend: return wake(UnitKind::Blend, c, t);
  }
}

void RasterPipeline::quad_done(BarrierStage s, uint32_t k, uint32_t c, uint64_t t) {
  TileBarrier& b = barrier[static_cast<size_t>(s)];
  const size_t i = size_t{k} * cfg.cores + c;
  ++b.done_core[i];
  ++b.done_tile[k];
  b.max_core[i] = std::max(b.max_core[i], t);
  b.max_tile[k] = std::max(b.max_tile[k], t);
  advance(s, c);
}

void RasterPipeline::advance(BarrierStage s, uint32_t c) {
  TileBarrier& b = barrier[static_cast<size_t>(s)];
  const bool all = !cfg.subtile_barriers;
  const uint32_t lane = all ? 0 : c;
  while (true) {
    const uint32_t k = b.allowed[lane];
    if (k >= ntiles || !raster_done[k]) return;
    // Not before the event that lets it open (the rasterizer finishing the tile, a flush ending):
    // a tile whose quads were all done earlier, or that had none, opens now.
    uint64_t t = std::max(b.release[lane], now);
    if (all) {
      if (b.done_tile[k] != q_tile[k]) return;
      t = std::max(t, b.max_tile[k]);
    } else {
      const size_t i = size_t{k} * cfg.cores + c;
      if (b.done_core[i] != q_core[i]) return;
      t = std::max(t, b.max_core[i]);
    }
    // Blending leaves a tile only once the colour buffer (or this core's bank) is flushed: the
    // flush runs as events and flushed() opens the next tile.
    if (s == BarrierStage::Blend) {
      // A tile's lines leave once its loads are in (an empty tile too: it writes back what it
      // loaded).
      for (uint32_t i = 0; i < cfg.cores; ++i) {
        if (all || i == c) t = std::max({t, color_loaded[size_t{k} * cfg.cores + i], depth_loaded[size_t{k} * cfg.cores + i]});
      }
      if (blend.flushing(lane) || !blend.start_flush(k, c, all, t)) return;
      flushed(lane);
      continue;
    }
    last_time = std::max(last_time, t);
    for (uint32_t i = 0; i < cfg.cores; ++i) {
      if (!all && i != c) continue;
      b.allowed[i] = k + 1;
      b.release[i] = t;
      wake_stage(s, i, t);
    }
  }
}

void RasterPipeline::flushed(uint32_t unit) {
  const BlendUnit::Flushed f = blend.flushed(unit);
  TileBarrier& b = barrier[static_cast<size_t>(BarrierStage::Blend)];
  tile_end[f.tile] = std::max(tile_end[f.tile], f.written);
  last_time = std::max(last_time, f.released);
  for (uint32_t i = 0; i < cfg.cores; ++i) {
    if (cfg.subtile_barriers && i != unit) continue;
    b.allowed[i] = f.tile + 1;
    b.release[i] = f.released;
    wake_stage(BarrierStage::Blend, i, f.released);
  }
  // The colour and depth buffers (banks) hold one tile each (paper 001 section II-A): the next
  // tile's loads enter them once this tile's lines have left, not when early-Z reaches that tile,
  // which may be many (empty) tiles ahead. (Depth is loaded, and stored, only with
  // gpu.tile_writeback=store-ops.)
  if (f.tile + 1 < ntiles) {
    earlyz.issue_loads(f.tile + 1, unit, !cfg.subtile_barriers, false, f.released);
    earlyz.issue_loads(f.tile + 1, unit, !cfg.subtile_barriers, true, f.released);
  }
}

uint64_t RasterPipeline::run(const PassIndex& p, const PhaseIndex& ph, std::span<const uint32_t> tile_order, uint64_t t0) {
  pass = &p;
  phase = &ph;
  order = tile_order;
  ntiles = static_cast<uint32_t>(order.size());
  if (ntiles == 0) return t0;
  const uint32_t cores = cfg.cores;
  const size_t kc = size_t{ntiles} * cores;
  q_core.assign(kc, 0);
  q_tile.assign(ntiles, 0);
  raster_done.assign(ntiles, 0);
  tile_start.assign(ntiles, t0);
  tile_end.assign(ntiles, t0);
  depth_loaded.assign(kc, t0);
  color_loaded.assign(kc, t0);
  tile_busy.assign(kc, 0);
  tile_l2.assign(ntiles, 0);
  quads_x = (p.info.tile_width + 1) / 2;
  quads_y = (p.info.tile_height + 1) / 2;
  if (cfg.subtile_barriers) quad_owner.assign(size_t{ntiles} * quads_x * quads_y, kNoOwner);
  for (TileBarrier& b : barrier) b.reset(ntiles, cores, t0);
  for (auto& s : scheduled) s.assign(cores, kIdle);
  last_time = t0;
  now = t0;
  events.reset(t0);

  fetcher.begin_phase(t0);
  rasterizer.begin_phase(bytes, t0);
  earlyz.begin_phase(t0);
  core.begin_phase(t0);
  blend.begin_phase(t0);
  fetcher.meter.reset_units(1);

  earlyz.issue_loads(0, 0, true, true, t0);
  earlyz.issue_loads(0, 0, true, false, t0);
  wake(UnitKind::Rasterizer, 0, t0);
  SimEvent e;
  while (events.pop(e)) {
    last_time = std::max(last_time, e.time);
    if (e.kind != UnitKind::TextureIssue) {
      uint64_t& pending = scheduled[static_cast<size_t>(e.kind)][e.unit];
      if (pending != e.time) continue;  // superseded by an earlier wake-up
      pending = kIdle;
    }
    now = e.time;
    ++sim_events[static_cast<size_t>(e.kind)];
    switch (e.kind) {
      case UnitKind::TileFetcher: fetcher.step(e.time); break;
      case UnitKind::Rasterizer: rasterizer.step(e.time); break;
      case UnitKind::EarlyZ: earlyz.step(e.unit, e.time); break;
      case UnitKind::Admit: core.admit_step(e.unit, e.time); break;
      case UnitKind::Core: core.core_step(e.unit, e.time); break;
      case UnitKind::TextureIssue: core.texture_issue(e.unit, e.slot, e.time); break;
      case UnitKind::Blend: blend.step(e.unit, e.time); break;
      case UnitKind::Flush:
        if (blend.flush_step(e.unit, e.time)) {
          flushed(e.unit);
          advance(BarrierStage::Blend, e.unit);
        }
        break;
    }
  }
  for (uint32_t c = 0; c < cores; ++c) {
    if (barrier[static_cast<size_t>(BarrierStage::Blend)].allowed[c] != ntiles) {
      throw ModelError("pass " + std::to_string(p.info.pass) + ": raster pipeline did not drain (tile " +
                       std::to_string(barrier[static_cast<size_t>(BarrierStage::Blend)].allowed[c]) + " of " +
                       std::to_string(ntiles) + ")");
    }
  }
  // The pass ends when its last flush is in memory, write buffer drained.
  uint64_t end = last_time;
  for (uint32_t k = 0; k < ntiles; ++k) end = std::max(end, tile_end[k]);
  core.end_phase(end);
  // A drained pipeline leaves no interval open; close any within the phase all the same.
  for (StageMeter* m : {&fetcher.meter, &rasterizer.meter, &earlyz.meter, &core.meter, &blend.meter, &blend.flush_meter}) {
    m->close_all(end);
  }
  return end;
}

}  // namespace tessera::model
