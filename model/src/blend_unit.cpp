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
  const size_t tiles = p_.cfg.subtile_barriers ? p_.ntiles : 0;
  finished_at_.assign(tiles * cores, kNotFinished);
  pending_.assign(tiles * cores, 0);
  pending_done_at_.assign(tiles * cores, 0);
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
  std::vector<uint64_t> lines = std::move(f.lines);  // keeps its allocation
  lines.clear();
  f = Flush{};
  f.active = true;
  f.tile = k;
  f.lines = std::move(lines);
  f.slot = t;
  f.written = t;
  uint64_t n = 0;
  if (!all) finished_at_[size_t{k} * cores + core] = t;
  // Per subtile each core's colour-buffer bank flushes its pixels on its own (paper 001 section
  // III-E). A line whose covered pixels all belong to one core's quads (coarse groupings) goes
  // with that core; lines no quad covered are dealt to the cores in turn. A line shared by several
  // cores (fine-grained groupings) is written once, by the last of them to finish the tile, no
  // earlier than its latest owner's finish; the bank of an owner that finished first is held
  // until every such line of it is in the write buffer (Flush::waiting), since its parts of them
  // are not written yet. A perfect framebuffer writes nothing and holds no bank.
  const bool holds = !all && !p_.cfg.perfect_framebuffer;  // a written shared line holds banks
  std::vector<uint16_t> owners;
  std::vector<uint64_t> shared;
  for (uint32_t i = tile.store_begin; i < tile.store_end; ++i) {
    const StoreRange& store = p_.index->stores[i];
    if (store.depth_stencil && !p_.cfg.store_depth) continue;
    for_each_line(store.address, store.bytes, p_.cfg.line_bytes, [&](uint64_t line, bool) {
      if (all) {
        f.lines.push_back(line);
        return;
      }
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
      if (owners.size() <= 1) {
        if (owners.empty() ? n++ % cores == core : owners[0] == core) f.lines.push_back(line);
        return;
      }
      if (std::find(owners.begin(), owners.end(), core) == owners.end()) return;
      uint64_t latest = 0;
      for (uint16_t o : owners) latest = std::max(latest, finished_at_[size_t{k} * cores + o]);
      if (latest == kNotFinished) {
        if (holds) ++pending_[size_t{k} * cores + core];  // another owner writes it
      } else {
        shared.push_back(line);
        f.shared_ready = std::max(f.shared_ready, latest);
        for (uint16_t o : owners) {
          if (o != core && holds) f.credits.push_back(o);
        }
      }
    });
  }
  f.shared_from = f.lines.size();
  f.lines.insert(f.lines.end(), shared.begin(), shared.end());
  f.waiting = holds && pending_[size_t{k} * cores + core] > 0;
  return flush_step(all ? 0 : core, t);
}

void BlendUnit::shared_lines_written(uint32_t unit, uint32_t k, uint64_t at) {
  const uint32_t cores = p_.cfg.cores;
  for (uint16_t o : flush_[unit].credits) {
    const size_t i = size_t{k} * cores + o;
    pending_done_at_[i] = std::max(pending_done_at_[i], at);
    if (--pending_[i] > 0 || !flush_[o].waiting) continue;
    flush_[o].waiting = false;
    flush_[o].hold_until = pending_done_at_[i];
    p_.wake(UnitKind::Flush, o, pending_done_at_[i]);
  }
}

bool BlendUnit::flush_step(uint32_t unit, uint64_t t) {
  Flush& f = flush_[unit];
  if (!f.active) return false;
  if (!f.lines_done) {
    const uint32_t buffer = p_.cfg.flush_buffer;
    if (p_.cfg.perfect_framebuffer) {
      // A perfect pixel cache holds the whole framebuffer: nothing is written back, and the colour
      // buffer (bank) is free at once.
      f.next = f.lines.size();
      f.own_released = f.written = std::max(f.slot, t);
    } else {
      // Lines enter one a cycle (at most the flush's own lines ahead of t); without a buffer they
      // go out one a cycle and blending waits for the last write.
      while (f.next < f.lines.size()) {
        uint64_t enter = std::max(f.slot, t);
        if (f.next >= f.shared_from) enter = std::max(enter, f.shared_ready);
        // A full buffer frees its oldest entry when that write completes: wait for it as an
        // event, so that every write reaches DRAM in cycle order with the other units' requests.
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
        if (p_.timeline) p_.timeline->unit_cycles(Timeline::Unit::Flush, unit, Timeline::Activity::Busy, enter, enter + 1);
        ++lines_flushed[unit];
        ++p_.activity->tile_buffer_flushes;
      }
      // The colour buffer (bank) is free once its last line is in the buffer (or written).
      f.own_released = buffer > 0 ? f.slot : f.written;
    }
    f.lines_done = true;
    if (!f.credits.empty()) shared_lines_written(unit, f.tile, f.own_released);
  }
  if (f.waiting) return false;  // woken when the last of its shared lines is in the buffer
  f.active = false;
  f.released = std::max(f.own_released, f.hold_until);
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
