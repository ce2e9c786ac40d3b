#include "blend_unit.h"

#include <algorithm>

#include "raster_pipeline.h"

namespace tessera::model {

void BlendUnit::begin_phase(uint64_t t0) {
  const uint32_t cores = p_.cfg.cores;
  capacity_ = p_.cfg.color_queue;
  fifo_.assign(cores, {});
  free_.assign(cores, t0);
  meter.reset_units(cores);
  flush_meter.reset_units(p_.cfg.subtile_barriers ? cores : 1);
}

void BlendUnit::enqueue(uint32_t core, uint32_t k, uint64_t t) {
  fifo_[core].emplace_back(k, t);
  p_.wake(UnitKind::Blend, core, t);
}

uint64_t BlendUnit::flush(uint32_t k, uint32_t core, bool all, uint64_t t) {
  const TileIndex& tile = p_.tile(k);
  const uint32_t cores = p_.cfg.cores;
  uint64_t issue = t, done = t, n = 0;
  // Per subtile each core's colour-buffer bank flushes its pixels on its own (paper 001 section
  // III-E). A line whose pixels all belong to one core's quads (coarse groupings) goes with that
  // core; lines shared by several cores (fine-grained groupings) or never covered are dealt to
  // the cores in turn, each written once.
  for (uint32_t i = tile.store_begin; i < tile.store_end; ++i) {
    const StoreRange& store = p_.index->stores[i];
    for_each_line(store.address, store.bytes, p_.cfg.line_bytes, [&](uint64_t line, bool) {
      bool mine = all;
      if (!all) {
        const uint64_t first = line > store.address ? line - store.address : 0;
        const uint64_t last = std::min<uint64_t>(line + p_.cfg.line_bytes, store.address + store.bytes) - 1 - store.address;
        const uint32_t px0 = static_cast<uint32_t>(first * store.row_pixels / store.bytes);
        const uint32_t px1 = static_cast<uint32_t>(last * store.row_pixels / store.bytes);
        uint16_t owner = RasterPipeline::kNoOwner;
        for (uint32_t px = px0 & ~1u; px <= px1; px += 2) {  // every quad the line touches
          const uint16_t o = p_.owner(k, px, store.row);
          if (o == RasterPipeline::kNoOwner || (owner != RasterPipeline::kNoOwner && o != owner)) {
            owner = RasterPipeline::kNoOwner;
            break;
          }
          owner = o;
        }
        mine = owner == RasterPipeline::kNoOwner ? n % cores == core : owner == core;
        ++n;
      }
      if (mine) {
        done = std::max(done, p_.h->flush_color_line(line, issue));
        ++issue;
        ++flush_meter.busy;
        ++p_.activity->tile_buffer_flushes;
      }
    });
  }
  return done;
}

void BlendUnit::step(uint32_t c, uint64_t t) {
  if (fifo_[c].empty()) return;
  if (t < free_[c]) return p_.wake(UnitKind::Blend, c, free_[c]);
  const auto [k, ready] = fifo_[c].front();
  if (ready > t) return p_.wake(UnitKind::Blend, c, ready);
  uint64_t wait = 0;
  if (!p_.gate(BarrierStage::Blend).open(c, k, t, &wait)) {
    meter.stall_begin(c, t);
    if (wait) p_.wake(UnitKind::Blend, c, wait);
    return;
  }
  const uint64_t loaded = p_.load_done[size_t{k} * p_.cfg.cores + c];
  if (loaded > t) {
    meter.stall_begin(c, t);
    return p_.wake(UnitKind::Blend, c, loaded);
  }
  fifo_[c].pop_front();
  meter.stall_end(c, t);
  meter.queue_wait += t - ready;
  free_[c] = t + 1;
  ++meter.busy;
  ++p_.activity->quads_blended;
  p_.core.color_queue_freed(c, t);
  p_.quad_done(BarrierStage::Blend, k, c, t + p_.cfg.blend_latency);
  if (!fifo_[c].empty()) p_.wake(UnitKind::Blend, c, t + 1);
}

}  // namespace tessera::model
