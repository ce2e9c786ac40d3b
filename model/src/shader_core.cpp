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
  engines_ = p_.cfg.engines;
  engine_free_.assign(size_t{cores} * engines_, t0);
  tex_free_.assign(cores, t0);
  varying_free_.assign(cores, t0);
  ls_free_.assign(cores, t0);
  resident_.assign(cores, 0);
  free_slots_.assign(cores, {});
  next_slot_.assign(cores, 0);
  tex_in_cycle_.assign(cores, 0);
  waiting_texture_.assign(cores, 0);
  mark_.assign(cores, t0);
  busy_until_.assign(cores, t0);
  state_.assign(cores, CoreState::Starved);
  cycles_.assign(cores, CoreCycles{});
  leaving_total_ = 0;
  meter.reset_units(cores);
}

void ShaderCore::end_phase(uint64_t t) {
  for (uint32_t c = 0; c < p_.cfg.cores; ++c) {
    touch(c, t);
    CoreCycles& to = p_.res->cores[c].cycles;
    for (uint32_t s = 0; s < kCoreStates; ++s) to.by_state[s] += cycles_[c].by_state[s];
    // The fragment stage stalls while a core has work it cannot issue (StageStats): every idle
    // cycle but the starved ones.
    meter.stall += cycles_[c].total() - cycles_[c][CoreState::Busy] - cycles_[c][CoreState::Starved];
  }
}

void ShaderCore::touch(uint32_t c, uint64_t t) {
  const uint64_t idle_from = std::max(mark_[c], busy_until_[c]);
  if (t > idle_from) {
    cycles_[c][state_[c]] += t - idle_from;
    if (p_.timeline) p_.timeline->core_cycles(c, state_[c], idle_from, t);
  }
  mark_[c] = std::max(mark_[c], t);
  state_[c] = idle_state(c, t);
}

CoreState ShaderCore::idle_state(uint32_t c, uint64_t t) const {
  if (!ready_heap_[c].empty()) return waiting_texture_[c] > 0 ? CoreState::TextureWait : CoreState::UnitWait;
  if (!leaving_[c].empty()) return CoreState::Blocked;
  if (!admit_q_[c].empty() && p_.recs[admit_q_[c].front()].ready <= t) return CoreState::BarrierWait;
  if (p_.earlyz.held_by_barrier(c, t)) return CoreState::BarrierWait;
  return CoreState::Starved;
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
  if (admit_q_[c].empty()) return touch(c, t);
  const uint32_t slot = admit_q_[c].front();
  QuadRec& q = p_.recs[slot];
  if (q.ready > t) return p_.wake(UnitKind::Admit, c, q.ready);
  // A quad out of early-Z the core cannot take: held by the barrier, or every thread slot taken.
  uint64_t wait = 0;
  if (!p_.gate(BarrierStage::Fragment).open(c, q.tile, t, &wait)) {
    if (wait) p_.wake(UnitKind::Admit, c, wait);
    return touch(c, t);
  }
  if (resident_[c] >= p_.cfg.max_quads) return touch(c, t);  // a leaving quad wakes it
  meter.queue_wait += t - q.ready;
  admit_q_[c].pop_front();
  ++resident_[c];
  std::vector<uint32_t>& free_slots = free_slots_[c];
  if (free_slots.empty()) {
    q.warp = next_slot_[c]++;
  } else {
    std::pop_heap(free_slots.begin(), free_slots.end(), std::greater<>());
    q.warp = free_slots.back();
    free_slots.pop_back();
  }
  p_.earlyz.admitted(c, t);
  if (p_.hooks.prefetcher) p_.hooks.prefetcher->quad_started(*p_.h, c, t);
  // The varying unit interpolates the quad's inputs before its first instructions run.
  uint64_t ready = t;
  if (q.varying_cycles > 0) {
    ready = std::max(t, varying_free_[c]) + q.varying_cycles;
    varying_free_[c] = ready;
  }
  push_ready(c, slot, ready);
  p_.wake(UnitKind::Core, c, ready);
  if (!admit_q_[c].empty()) p_.wake(UnitKind::Admit, c, t + 1);
  touch(c, t);
}

void ShaderCore::core_step(uint32_t c, uint64_t t) {
  auto& heap = ready_heap_[c];
  const uint32_t engines = p_.cfg.engines;
  while (!heap.empty() && heap.front().ready <= t) {
    const uint32_t engine = free_engine(c);
    uint64_t& engine_free = engine_free_[size_t{c} * engines + engine];
    if (engine_free > t) break;
    std::pop_heap(heap.begin(), heap.end(), std::greater<>());
    const uint32_t slot = heap.back().slot;
    heap.pop_back();
    QuadRec& q = p_.recs[slot];
    if (q.waiting_texture) {
      q.waiting_texture = false;
      --waiting_texture_[c];
    }
    const uint64_t n = q.tex_instrs + 1;
    const uint64_t seg = std::max<uint64_t>(1, q.cycles * (q.segment + 1) / n - q.cycles * q.segment / n);
    const uint64_t end = t + seg;
    // Cycles idle until now keep their cause; from now until `end` the core issues.
    touch(c, t);
    const uint64_t from = std::max(t, busy_until_[c]);
    if (end > from) {
      cycles_[c][CoreState::Busy] += end - from;
      meter.busy += end - from;
      if (p_.timeline) p_.timeline->core_cycles(c, CoreState::Busy, from, end);
    }
    busy_until_[c] = std::max(busy_until_[c], end);
    engine_free = end;
    p_.res->cores[c].busy_cycles += seg;
    p_.tile_busy[size_t{q.tile} * p_.cfg.cores + c] += seg;
    p_.activity->fragment_issue_cycles += seg;
    if (q.segment < q.tex_instrs) {
      p_.events.push(SimEvent{end, c, slot, UnitKind::TextureIssue});
      ++q.segment;
    } else {
      p_.activity->fragment_lane_instructions += q.lane_instructions;
      p_.activity->texture_probes += q.probes;
      p_.activity->fragment_ops += q.ops;
      leave(c, slot, end);
    }
  }
  if (!heap.empty()) {
    const uint64_t engine_free = engine_free_[size_t{c} * engines + free_engine(c)];
    p_.wake(UnitKind::Core, c, std::max({t + 1, engine_free, heap.front().ready}));
  }
  touch(c, t);
}

void ShaderCore::leave(uint32_t c, uint32_t slot, uint64_t end) {
  // Its buffer and image accesses go through the load/store unit after its last instructions.
  const QuadRec& q = p_.recs[slot];
  if (q.ls_cycles > 0) {
    end = std::max(end, ls_free_[c]) + q.ls_cycles;
    ls_free_[c] = end;
  }
  if (!leaving_[c].empty() || !p_.blend.has_room(c)) {
    leaving_[c].emplace_back(slot, end);
    ++leaving_total_;
    return;
  }
  retire(c, slot, end);
}

void ShaderCore::retire(uint32_t c, uint32_t slot, uint64_t t) {
  // The quad leaves the core: blending takes it, its thread slot frees.
  const uint32_t k = p_.recs[slot].tile;
  const uint32_t fragments = p_.recs[slot].fragments;
  ++p_.res->cores[c].quads;
  ++p_.res->shaded_quads;
  --resident_[c];
  free_slots_[c].push_back(p_.recs[slot].warp);
  std::push_heap(free_slots_[c].begin(), free_slots_[c].end(), std::greater<>());
  p_.blend.enqueue(c, k, fragments, t);
  p_.wake(UnitKind::Admit, c, t);
  p_.free_rec(slot);
  p_.quad_done(BarrierStage::Fragment, k, c, t);
}

void ShaderCore::color_queue_freed(uint32_t c, uint64_t t) {
  const auto drain = [&](uint32_t core) {
    while (!leaving_[core].empty() && p_.blend.has_room(core)) {
      const auto [slot, end] = leaving_[core].front();
      leaving_[core].pop_front();
      --leaving_total_;
      retire(core, slot, std::max(t, end));
    }
    touch(core, t);
  };
  drain(c);
  // A shared colour queue's free entry serves whichever core has a quad waiting.
  if (p_.cfg.shared_queues && leaving_total_ > 0) {
    for (uint32_t o = 0; o < p_.cfg.cores && leaving_total_ > 0 && p_.blend.has_room(o); ++o) {
      if (o != c && !leaving_[o].empty()) drain(o);
    }
  }
}

void ShaderCore::texture_issue(uint32_t c, uint32_t slot, uint64_t t) {
  QuadRec& q = p_.recs[slot];
  const uint32_t instr = q.segment - 1;
  TextureFrontBuffer* const front = p_.hooks.front_buffer.get();
  const uint32_t per_cycle = p_.cfg.tex_lines_per_cycle;
  // The texture unit takes tex.probes_per_cycle bilinear probes per cycle and sends
  // tex.lines_per_cycle lines per cycle to the L1; a request the L1 cannot take yet (a busy
  // bank, no free MSHR) holds back the ones after it.
  const uint64_t start = std::max(t, tex_free_[c]);
  uint64_t slot_cycle = start;
  uint32_t in_cycle = slot_cycle == tex_free_[c] ? tex_in_cycle_[c] : 0;
  uint64_t done = t, lines = 0;
  MemRequest r;
  r.unit = static_cast<uint16_t>(c);
  r.warp = q.warp;
  r.pc = uint64_t{q.draw} << 16 | (instr & 0xffffu);
  r.access_line = 0;
  // Issues one line to L1 at the current request slot; `extra` = cycles of the front buffer
  // around the L1 access (its lookup before, its fill after). Returns when the line is served.
  const auto issue_l1 = [&](uint64_t line, uint32_t extra) {
    const uint64_t issue = slot_cycle;
    r.addr = line;
    const MemResponse m = p_.h->access(r, issue);
    ++r.access_line;
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
  // The filter takes the instruction's probes at its rate: the unit is busy until both its
  // probes and its line requests are through.
  const uint32_t probes = instr < q.instr_probes.size() ? q.instr_probes[instr] : 0;
  const uint64_t filtered = start + (probes + p_.cfg.tex_probes_per_cycle - 1) / p_.cfg.tex_probes_per_cycle;
  if (filtered > slot_cycle) {
    slot_cycle = filtered;
    in_cycle = 0;
  }
  tex_free_[c] = slot_cycle;
  tex_in_cycle_[c] = in_cycle;
  p_.res->texture_lines += lines;
  const uint64_t ready = std::max(done, filtered) + p_.cfg.tex_latency;
  q.waiting_texture = true;
  ++waiting_texture_[c];
  push_ready(c, slot, ready);
  const uint64_t engine_free = engine_free_[size_t{c} * p_.cfg.engines + free_engine(c)];
  p_.wake(UnitKind::Core, c, std::max(ready, engine_free));
  touch(c, t);
}

}  // namespace tessera::model
