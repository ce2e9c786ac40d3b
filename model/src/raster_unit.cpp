#include "raster_unit.h"

#include <algorithm>

#include "raster_pipeline.h"
#include "tessera/stream/texture_probe.h"

namespace tessera::model {

using stream::Event;
using stream::EventKind;

void Rasterizer::begin_phase(std::span<const uint8_t> bytes, uint64_t t0) {
  cursor_.emplace(bytes);
  k_ = 0;
  tile_open_ = false;
  primitive_ = 0;
  pending_ = -1;
  finished_ = p_.ntiles == 0;
  wait_group_ = kListGroup;
  blocked_core_ = -1;
  cycle_ = ~uint64_t{0};
  emitted_ = 0;
  meter.reset_units(1);
  (void)t0;
}

void Rasterizer::open_tile(uint64_t t) {
  cursor_->seek(p_.tile(k_).ref.offset, p_.tile(k_).body);
  tile_open_ = true;
  primitive_ = 0;
  p_.tile_start[k_] = t;
  p_.fetcher.tile_started(k_, t);
}

void Rasterizer::group_fetched(uint32_t g, uint64_t ready) {
  if (g == wait_group_) p_.wake(UnitKind::Rasterizer, 0, ready);
}

void Rasterizer::queue_freed(uint32_t core, uint64_t t) {
  // A shared fragment queue's free entry may take a quad for any core.
  if (blocked_core_ == static_cast<int64_t>(core) || (blocked_core_ >= 0 && p_.cfg.shared_queues)) {
    blocked_core_ = -1;
    p_.wake(UnitKind::Rasterizer, 0, t);
  }
}

uint32_t Rasterizer::read_quad(const Event& e) {
  const uint32_t slot = p_.new_rec();
  QuadRec& q = p_.recs[slot];
  q.tile = k_;
  q.draw = draw_;
  q.core = p_.scheduler->core(p_.pass->info, p_.tile(k_).ref, k_, e.u[0], e.u[1], p_.cfg.cores);
  if (q.core >= p_.cfg.cores) throw ModelError("quad scheduler hook returned core " + std::to_string(q.core));
  if (p_.cfg.subtile_barriers) {
    const TileRef& t = p_.tile(k_).ref;
    const uint32_t qx = (e.u[0] - t.x0) / 2, qy = (e.u[1] - t.y0) / 2;
    if (qx < p_.quads_x && qy < p_.quads_y) p_.quad_owner[(size_t{k_} * p_.quads_y + qy) * p_.quads_x + qx] = static_cast<uint16_t>(q.core);
  }
  q.shaded = (e.u[5] & stream::kQuadShaded) != 0;
  q.lane_instructions = e.wide;
  q.segment = 0;
  q.tex_instrs = 0;
  q.probes = 0;
  q.waiting_texture = false;
  q.instr_probes.clear();
  const ModelConfig& cfg = p_.cfg;
  if (cfg.class_cost) {
    // Each class on the unit that executes it (shader_core.h): arithmetic, transcendentals and
    // the texture instructions' messages on an engine, varyings on the varying unit, buffer and
    // image accesses on the load/store unit.
    const stream::OpMix& m = e.mix;
    q.ops = OpCounts{m.alu, m.sfu, m.varying, m.texture, m.memory};
    const uint64_t slots = m.alu + uint64_t{m.sfu} * cfg.sfu_ops + m.texture;
    q.cycles = (slots + cfg.alu_rate - 1) / cfg.alu_rate;
    q.varying_cycles = (m.varying + cfg.varying_rate - 1) / cfg.varying_rate;
    q.ls_cycles = (m.memory + cfg.ls_rate - 1) / cfg.ls_rate;
  } else {
    q.ops = OpCounts{};
    q.cycles = (e.wide + cfg.issue_lanes - 1) / cfg.issue_lanes;
    q.varying_cycles = q.ls_cycles = 0;
  }
  for (uint32_t& n : q.lane_samples) n = 0;
  const bool prefetch = p_.hooks.prefetcher != nullptr;
  prefetch_lines_.clear();
  dependent_samples_ = 0;
  q.lines.clear();
  q.sample_end.clear();
  q.sample_instr.clear();
  const bool with_probes = p_.hooks.front_buffer != nullptr;
  q.probe_records.clear();
  q.blocks.clear();
  q.sample_probe_end.clear();
  q.sample_block_end.clear();
  q.sample_block_bytes.clear();
  ++p_.res->quads;
  q.fragments = stream::quad_pixels(e.u[2] & 0xfu);
  p_.res->fragments += q.fragments;
  Event s;
  uint64_t texel_reads = 0;
  while (cursor_->next(s)) {
    if (s.kind != EventKind::Texture) {
      cursor_->hold(s);
      break;
    }
    // The k-th sample of each lane belongs to the quad's k-th texture instruction.
    const uint32_t instr = q.lane_samples[s.u[0]]++;
    q.tex_instrs = std::max(q.tex_instrs, instr + 1);
    q.lines.insert(q.lines.end(), s.lines.begin(), s.lines.end());
    if (prefetch) {
      if (stream::quad_sample_dependent(e.u[5], instr)) {
        ++dependent_samples_;
      } else {
        prefetch_lines_.insert(prefetch_lines_.end(), s.lines.begin(), s.lines.end());
      }
    }
    q.sample_end.push_back(static_cast<uint32_t>(q.lines.size()));
    q.sample_instr.push_back(instr);
    if (with_probes) {
      q.probe_records.insert(q.probe_records.end(), s.probes.begin(), s.probes.end());
      q.blocks.insert(q.blocks.end(), s.blocks.begin(), s.blocks.end());
      q.sample_probe_end.push_back(static_cast<uint32_t>(q.probe_records.size()));
      q.sample_block_end.push_back(static_cast<uint32_t>(q.blocks.size()));
      q.sample_block_bytes.push_back(s.u[4]);
    }
    q.probes += s.u[3];
    if (q.instr_probes.size() <= instr) q.instr_probes.resize(instr + 1, 0);
    q.instr_probes[instr] += s.u[3];
    ++p_.res->texture_samples;
    for (const stream::TextureProbe& pr : s.probes) texel_reads += stream::probe_texel_reads(pr);
  }
  if (!q.shaded) q.tex_instrs = 0;
  if (q.shaded) p_.res->texture_texel_reads += texel_reads;
  return slot;
}

bool Rasterizer::next_quad(uint64_t t) {
  const TileIndex& tile = p_.tile(k_);
  Event e;
  while (true) {
    if (!cursor_->next(e)) p_.fail("tile without TileEnd");
    switch (e.kind) {
      case EventKind::Primitive: {
        // Set-up needs the primitive's Parameter Buffer data (paper 003 section II-A).
        const uint32_t need = p_.index->primitive_need[tile.need_begin + primitive_];
        if (need != kListGroup) {
          const uint64_t ready = p_.fetcher.ready(need);
          if (ready == kIdle || ready > t) {
            cursor_->hold(e);
            wait_group_ = need;
            p_.fetcher.need(need, t);
            if (ready != kIdle) p_.wake(UnitKind::Rasterizer, 0, ready);
            return false;
          }
          wait_group_ = kListGroup;
          p_.fetcher.consume(k_, need, t);
        }
        draw_ = e.u[1];
        ++primitive_;
        continue;
      }
      case EventKind::Quad:
        pending_ = read_quad(e);
        return true;
      case EventKind::AttachmentStore: continue;  // the colour flush reads them from the index
      case EventKind::TileEnd:
        p_.fetcher.consume(k_, tile.group_end == 0 ? 0 : tile.group_end - 1, t);
        p_.raster_done[k_] = 1;
        for (uint32_t s = 0; s < kBarrierStages; ++s) {
          if (p_.cfg.subtile_barriers) {
            for (uint32_t c = 0; c < p_.cfg.cores; ++c) p_.advance(static_cast<BarrierStage>(s), c);
          } else {
            p_.advance(static_cast<BarrierStage>(s), 0);
          }
        }
        tile_open_ = false;
        if (++k_ == p_.ntiles) finished_ = true;
        return false;
      default: p_.fail(std::string(stream::event_kind_name(e.kind)) + " inside a tile");
    }
  }
}

void Rasterizer::step(uint64_t t) {
  while (!finished_) {
    // A cycle in which the rasterizer emitted quads is busy; a stall starts after it.
    const uint64_t free_at = cycle_ == t && emitted_ > 0 ? t + 1 : t;
    if (pending_ < 0) {
      if (!tile_open_) open_tile(t);
      if (!next_quad(t)) {
        if (wait_group_ != kListGroup) {
          meter.stall_begin(0, free_at);
          return;
        }
        continue;
      }
    }
    QuadRec& q = p_.recs[static_cast<size_t>(pending_)];
    if (p_.earlyz.queue_full(q.core, q.tile)) {
      meter.stall_begin(0, free_at);
      blocked_core_ = q.core;
      return;
    }
    if (cycle_ != t) {
      cycle_ = t;
      emitted_ = 0;
    }
    if (emitted_ == p_.cfg.quads_per_cycle) {
      p_.wake(UnitKind::Rasterizer, 0, t + 1);
      return;
    }
    if (emitted_ == 0) {
      meter.stall_end(0, t);
      ++meter.busy;
      if (p_.timeline) p_.timeline->unit_cycles(Timeline::Unit::Rasterizer, 0, Timeline::Activity::Busy, t, t + 1);
    }
    ++emitted_;
    const size_t i = size_t{q.tile} * p_.cfg.cores + q.core;
    ++p_.q_core[i];
    ++p_.q_tile[q.tile];
    ++p_.activity->quads_rasterized;
    q.arrive = t + 1;
    // The stream says which quads early-Z kills (the renderer ran the test): only those it keeps
    // are prefetched (README, "Model choices").
    if (p_.hooks.prefetcher && q.shaded) {
      p_.hooks.prefetcher->quad_queued(*p_.h, q.core, prefetch_lines_, dependent_samples_, t);
    }
    p_.earlyz.enqueue(q.core, static_cast<uint32_t>(pending_), t + 1);
    pending_ = -1;
  }
}

}  // namespace tessera::model
