#include "shader_core.h"

#include <algorithm>
#include <functional>
#include <span>

#include "raster_pipeline.h"

namespace tessera::model {

void ShaderCore::begin_phase(uint64_t t0) {
  const uint32_t cores = p_.cfg.cores;
  admit_q_.assign(cores, {});
  ready_heap_.assign(cores, {});
  leaving_.assign(cores, {});
  core_free_.assign(cores, t0);
  tex_free_.assign(cores, t0);
  resident_.assign(cores, 0);
  tex_in_cycle_.assign(cores, 0);
  meter.reset_units(cores);
}

void ShaderCore::admit(uint32_t core, uint32_t slot, uint64_t ready) {
  p_.recs[slot].segment = 0;
  admit_q_[core].push_back(slot);
  p_.wake(UnitKind::Admit, core, ready);
}

void ShaderCore::push_ready(uint32_t c, uint32_t slot, uint64_t ready) {
  ready_heap_[c].push_back(Ready{ready, order_++, slot});
  std::push_heap(ready_heap_[c].begin(), ready_heap_[c].end(), std::greater<>());
}

void ShaderCore::admit_step(uint32_t c, uint64_t t) {
  if (admit_q_[c].empty()) return;
  const uint32_t slot = admit_q_[c].front();
  QuadRec& q = p_.recs[slot];
  if (q.ready > t) return p_.wake(UnitKind::Admit, c, q.ready);
  // A quad out of early-Z the core cannot take: the core stalls from when it is free.
  uint64_t wait = 0;
  if (!p_.gate(BarrierStage::Fragment).open(c, q.tile, t, &wait)) {
    meter.stall_begin(c, std::max(t, core_free_[c]));
    if (wait) p_.wake(UnitKind::Admit, c, wait);
    return;
  }
  if (resident_[c] >= p_.cfg.max_quads) {
    meter.stall_begin(c, std::max(t, core_free_[c]));
    return;  // a leaving quad wakes it
  }
  meter.queue_wait += t - q.ready;
  admit_q_[c].pop_front();
  ++resident_[c];
  p_.earlyz.admitted(c, t);
  if (p_.hooks.prefetcher) p_.hooks.prefetcher->quad_started(*p_.h, c, t);
  push_ready(c, slot, t);
  p_.wake(UnitKind::Core, c, t);
  if (!admit_q_[c].empty()) p_.wake(UnitKind::Admit, c, t + 1);
}

void ShaderCore::core_step(uint32_t c, uint64_t t) {
  if (t < core_free_[c]) return p_.wake(UnitKind::Core, c, core_free_[c]);
  auto& heap = ready_heap_[c];
  if (heap.empty()) return;
  if (heap.front().ready > t) return p_.wake(UnitKind::Core, c, heap.front().ready);
  std::pop_heap(heap.begin(), heap.end(), std::greater<>());
  const uint32_t slot = heap.back().slot;
  heap.pop_back();
  meter.stall_end(c, t);
  QuadRec& q = p_.recs[slot];
  const uint64_t n = q.tex_instrs + 1;
  const uint64_t seg = std::max<uint64_t>(1, q.cycles * (q.segment + 1) / n - q.cycles * q.segment / n);
  const uint64_t end = t + seg;
  core_free_[c] = end;
  meter.busy += seg;
  p_.res->cores[c].busy_cycles += seg;
  p_.tile_busy[size_t{q.tile} * p_.cfg.cores + c] += seg;
  p_.activity->fragment_issue_cycles += seg;
  if (q.segment < q.tex_instrs) {
    p_.events.push(SimEvent{end, c, slot, UnitKind::TextureIssue});
    ++q.segment;
  } else {
    p_.activity->fragment_lane_instructions += q.lane_instructions;
    p_.activity->texture_probes += q.probes;
    leave(c, slot, end);
  }
  // Free again at `end` with quads in it (waiting for texture data or ready) or a quad out of
  // early-Z at its input: any gap until it issues again is a stall.
  if (resident_[c] > 0 || (!admit_q_[c].empty() && p_.recs[admit_q_[c].front()].ready <= end)) {
    meter.stall_begin(c, end);
  }
  if (!heap.empty()) p_.wake(UnitKind::Core, c, std::max(end, heap.front().ready));
}

void ShaderCore::leave(uint32_t c, uint32_t slot, uint64_t end) {
  if (!leaving_[c].empty() || !p_.blend.has_room(c)) {
    leaving_[c].emplace_back(slot, end);
    return;
  }
  retire(c, slot, end);
}

void ShaderCore::retire(uint32_t c, uint32_t slot, uint64_t t) {
  // The quad leaves the core: blending takes it, its thread slot frees.
  const uint32_t k = p_.recs[slot].tile;
  ++p_.res->cores[c].quads;
  ++p_.res->shaded_quads;
  --resident_[c];
  p_.blend.enqueue(c, k, t);
  p_.wake(UnitKind::Admit, c, t);
  p_.free_rec(slot);
  p_.quad_done(BarrierStage::Fragment, k, c, t);
}

void ShaderCore::color_queue_freed(uint32_t c, uint64_t t) {
  while (!leaving_[c].empty() && p_.blend.has_room(c)) {
    const auto [slot, end] = leaving_[c].front();
    leaving_[c].pop_front();
    retire(c, slot, std::max(t, end));
  }
}

void ShaderCore::texture_issue(uint32_t c, uint32_t slot, uint64_t t) {
  QuadRec& q = p_.recs[slot];
  const uint32_t instr = q.segment - 1;
  TextureFrontBuffer* const front = p_.hooks.front_buffer.get();
  const bool classify = p_.hooks.l2_priority != nullptr;
  const uint32_t per_cycle = p_.cfg.tex_lines_per_cycle;
  // The texture unit sends tex.lines_per_cycle lines per cycle to the L1; a request the L1 cannot
  // take yet (a busy bank, no free MSHR) holds back the ones after it.
  uint64_t slot_cycle = std::max(t, tex_free_[c]);
  uint32_t in_cycle = slot_cycle == tex_free_[c] ? tex_in_cycle_[c] : 0;
  uint64_t done = t, lines = 0;
  MemRequest r;
  r.unit = static_cast<uint16_t>(c);
  // Issues one line to L1 at the current request slot; `extra` = cycles of the front buffer
  // around the L1 access (its lookup before, its fill after). Returns when the line is served.
  const auto issue_l1 = [&](uint64_t line, uint32_t extra) {
    const uint64_t issue = slot_cycle;
    r.addr = line;
    if (classify) r.priority_class = p_.priority(Stream::Texture, line, false);
    const MemResponse m = p_.h->access(r, issue);
    const uint64_t served = issue + extra + m.latency;
    done = std::max(done, served);
    if (m.served_by == ServedBy::L2 || m.served_by == ServedBy::Dram) ++p_.tile_l2[q.tile];
    if (m.accept_delay > 0) {
      slot_cycle = issue + m.accept_delay;
      in_cycle = 0;
    }
    if (++in_cycle == per_cycle) {
      in_cycle = 0;
      ++slot_cycle;
    }
    return served;
  };
  uint32_t begin = 0;
  for (size_t s = 0; s < q.sample_end.size(); ++s) {
    const uint32_t end = q.sample_end[s];
    if (q.sample_instr[s] == instr) {
      lines += end - begin;
      const std::span<const uint64_t> sample_lines(q.lines.data() + begin, end - begin);
      if (front) {
        // The front buffer sees the whole sample (its probes, paper 004 Algorithm 2) and names
        // the lines L1 must serve; what it serves itself is ready after its latency, or when the
        // L1 read that fills the entry it hit completes.
        const uint32_t probe_begin = s == 0 ? 0 : q.sample_probe_end[s - 1];
        const uint32_t block_begin = s == 0 ? 0 : q.sample_block_end[s - 1];
        const TextureSampleView view{
            sample_lines,
            std::span<const stream::TextureProbe>(q.probe_records.data() + probe_begin, q.sample_probe_end[s] - probe_begin),
            std::span<const uint64_t>(q.blocks.data() + block_begin, q.sample_block_end[s] - block_begin),
            q.sample_block_bytes[s]};
        front_l1_.clear();
        const FrontHits hits = front->sample(c, view, slot_cycle, front_l1_);
        p_.res->front_buffer_hits += hits.hits;
        if (hits.hits > 0) done = std::max(done, hits.ready);
        front_ready_.clear();
        for (uint64_t line : front_l1_) front_ready_.push_back(issue_l1(line, front->latency() + front->fill_latency()));
        front->filled(c, front_ready_);
      } else {
        for (uint64_t line : sample_lines) issue_l1(line, 0);
      }
    }
    begin = end;
  }
  tex_free_[c] = slot_cycle;
  tex_in_cycle_[c] = in_cycle;
  p_.res->texture_lines += lines;
  const uint64_t ready = done + p_.cfg.tex_latency;
  push_ready(c, slot, ready);
  p_.wake(UnitKind::Core, c, std::max(ready, core_free_[c]));
}

}  // namespace tessera::model
