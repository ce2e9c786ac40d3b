#include "blend_unit.h"

#include <algorithm>

#include "raster_pipeline.h"

namespace tessera::model {

void BlendUnit::begin_phase(uint64_t t0) {
  const uint32_t cores = p_.cfg.cores;
  capacity_ = p_.cfg.color_queue;
  shared_ = p_.cfg.shared_queues;
  queued_ = 0;
  write_buffer_ = {};
  flush_.assign(p_.cfg.subtile_barriers ? cores : 1, Flush{});
  finished_.assign(p_.cfg.subtile_barriers ? size_t{p_.ntiles} * cores : 0, 0);
  fifo_.assign(cores, {});
  free_.assign(cores, t0);
  meter.reset_units(cores);
  flush_meter.reset_units(p_.cfg.subtile_barriers ? cores : 1);
}

void BlendUnit::enqueue(uint32_t core, uint32_t k, uint32_t fragments, uint64_t t) {
  fifo_[core].push_back(Entry{k, fragments, t});
  ++queued_;
  ++p_.activity->color_queue_pushes;
  p_.wake(UnitKind::Blend, core, t);
}

bool BlendUnit::start_flush(uint32_t k, uint32_t core, bool all, uint64_t t) {
  const TileIndex& tile = p_.tile(k);
  const uint32_t cores = p_.cfg.cores;
  Flush& f = flush_[all ? 0 : core];
  f.active = true;
  f.tile = k;
  f.lines.clear();
  f.next = 0;
  f.slot = t;
  f.written = t;
  uint64_t n = 0;
  if (!all) finished_[size_t{k} * cores + core] = 1;
  // Per subtile each core's colour-buffer bank flushes its pixels on its own (paper 001 section
  // III-E). A line whose covered pixels all belong to one core's quads (coarse groupings) goes
  // with that core. A line shared by several cores (fine-grained groupings) is written once, when
  // the last of them has finished the tile: the banks that finish first hand their part of it to
  // the write path, which combines the parts, so no core's blending into it is lost. Lines no
  // quad covered are dealt to the cores in turn.
  std::vector<uint16_t> owners;
  for (uint32_t i = tile.store_begin; i < tile.store_end; ++i) {
    const StoreRange& store = p_.index->stores[i];
    if (store.depth_stencil && !p_.cfg.store_depth) continue;
    for_each_line(store.address, store.bytes, p_.cfg.line_bytes, [&](uint64_t line, bool) {
      bool mine = all;
      if (!all) {
        const uint64_t first = line > store.address ? line - store.address : 0;
        const uint64_t last = std::min<uint64_t>(line + p_.cfg.line_bytes, store.address + store.bytes) - 1 - store.address;
        const uint32_t px0 = static_cast<uint32_t>(first * store.row_pixels / store.bytes);
        const uint32_t px1 = static_cast<uint32_t>(last * store.row_pixels / store.bytes);
        owners.clear();
        for (uint32_t px = px0 & ~1u; px <= px1; px += 2) {  // every quad the line touches
          const uint16_t o = p_.owner(k, px, store.row);
          if (o != RasterPipeline::kNoOwner && std::find(owners.begin(), owners.end(), o) == owners.end()) {
            owners.push_back(o);
          }
        }
        if (owners.empty()) {
          mine = n++ % cores == core;
        } else {
          // This core's finish completes the owners: it is one of them and the others are done.
          mine = std::find(owners.begin(), owners.end(), core) != owners.end() &&
                 std::all_of(owners.begin(), owners.end(),
                             [&](uint16_t o) { return finished_[size_t{k} * cores + o] != 0; });
        }
      }
      if (mine) f.lines.push_back(line);
    });
  }
  return flush_step(all ? 0 : core, t);
}

bool BlendUnit::flush_step(uint32_t unit, uint64_t t) {
  Flush& f = flush_[unit];
  if (!f.active) return false;
  if (p_.cfg.perfect_framebuffer) {
    // A perfect pixel cache holds the whole framebuffer: nothing is written back, and the colour
    // buffer (bank) is free at once.
    f.next = f.lines.size();
    f.active = false;
    f.released = f.written = std::max(f.slot, t);
    return true;
  }
  const uint32_t buffer = p_.cfg.flush_buffer;
  // Lines enter one a cycle (at most the flush's own lines ahead of t); without a buffer they go
  // out one a cycle and blending waits for the last write.
  while (f.next < f.lines.size()) {
    const uint64_t enter = std::max(f.slot, t);
    // A full buffer frees its oldest entry when that write completes: wait for it as an event,
    // so that every write reaches DRAM in cycle order with the other units' requests.
    if (buffer > 0 && write_buffer_.size() >= buffer) {
      if (write_buffer_.top() > enter) {
        flush_meter.stall_begin(unit, enter);
        p_.wake(UnitKind::Flush, unit, write_buffer_.top());
        return false;
      }
      flush_meter.stall_end(unit, enter);
      write_buffer_.pop();
    }
    const uint64_t written = p_.h->flush_color_line(f.lines[f.next++], enter);
    if (buffer > 0) write_buffer_.push(written);
    f.written = std::max(f.written, written);
    f.slot = enter + 1;
    ++flush_meter.busy;
    ++lines_flushed[unit];
    ++p_.activity->tile_buffer_flushes;
  }
  f.active = false;
  // The colour buffer (bank) is free once its last line is in the buffer (or written).
  f.released = buffer > 0 ? f.slot : f.written;
  return true;
}

void BlendUnit::step(uint32_t c, uint64_t t) {
  if (fifo_[c].empty()) return;
  if (t < free_[c]) return p_.wake(UnitKind::Blend, c, free_[c]);
  const auto [k, fragments, ready] = fifo_[c].front();
  if (ready > t) return p_.wake(UnitKind::Blend, c, ready);
  uint64_t wait = 0;
  if (!p_.gate(BarrierStage::Blend).open(c, k, t, &wait)) {
    meter.stall_begin(c, t);
    if (wait) p_.wake(UnitKind::Blend, c, wait);
    return;
  }
  const uint64_t loaded = p_.color_loaded[size_t{k} * p_.cfg.cores + c];
  if (loaded > t) {
    meter.stall_begin(c, t);
    return p_.wake(UnitKind::Blend, c, loaded);
  }
  fifo_[c].pop_front();
  --queued_;
  meter.stall_end(c, t);
  meter.queue_wait += t - ready;
  const uint64_t cycles = std::max<uint64_t>(1, (fragments + p_.cfg.blend_rate - 1) / p_.cfg.blend_rate);
  free_[c] = t + cycles;
  meter.busy += cycles;
  ++p_.activity->quads_blended;
  p_.core.color_queue_freed(c, t);
  p_.quad_done(BarrierStage::Blend, k, c, t + cycles - 1 + p_.cfg.blend_latency);
  if (!fifo_[c].empty()) p_.wake(UnitKind::Blend, c, free_[c]);
}

}  // namespace tessera::model
