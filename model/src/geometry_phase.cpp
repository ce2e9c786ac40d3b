#include "geometry_phase.h"

#include <algorithm>

#include "raster_pipeline.h"

namespace tessera::model {

using stream::Event;
using stream::EventKind;

GeometryPhase::Batch GeometryPhase::fetch_batch(uint64_t vertices) {
  const ModelConfig& cfg = p_.cfg;
  // The vertex queue holds queue.vertex fetched vertices the processors have not taken (a batch
  // larger than the queue is fetched alone): wait for the batches ahead to be taken.
  uint64_t start = fetch_free_;
  const uint64_t room = std::max<uint64_t>(cfg.vertex_queue, vertices);
  while (true) {
    uint64_t held = 0, first_taken = kIdle;
    for (const auto& [taken, n] : queued_) {
      if (taken > start) {
        held += n;
        first_taken = std::min(first_taken, taken);
      }
    }
    if (held + vertices <= room) break;
    start = first_taken;
  }
  std::erase_if(queued_, [&](const auto& q) { return q.first <= start; });
  // The batch goes to the processor free first.
  Batch b;
  b.vp = static_cast<uint32_t>(std::min_element(vp_free_.begin(), vp_free_.end()) - vp_free_.begin());
  b.vertices = vertices;
  uint64_t issue = start, done = start;
  for (const auto& [addr, bytes] : fetches_) {
    for_each_line(addr, bytes, cfg.line_bytes, [&](uint64_t l, bool) {
      MemRequest r;
      r.addr = l;
      r.unit = static_cast<uint16_t>(b.vp);
      r.stream = Stream::Vertex;
      const MemResponse m = p_.h->access(r, issue);
      done = std::max(done, issue + m.latency);
      issue += 1 + m.accept_delay;
    });
  }
  fetches_.clear();
  // Vertex texture fetch: the processor has no texture cache of its own in the papers' GPUs
  // (paper 000 Fig. 2, paper 003 Fig. 2), so its samples' lines go through its vertex cache. They
  // are read with the batch's attributes: the batch's shading waits for both.
  for (const uint64_t l : texture_lines_) {
    MemRequest r;
    r.addr = l;
    r.unit = static_cast<uint16_t>(b.vp);
    r.stream = Stream::Vertex;
    const MemResponse m = p_.h->access(r, issue);
    done = std::max(done, issue + m.latency);
    issue += 1 + m.accept_delay;
  }
  texture_lines_.clear();
  fetch_free_ = issue;
  b.fetched = std::max(done, issue);
  return b;
}

void GeometryPhase::shade(uint64_t vertices, uint64_t instructions, const stream::OpMix& mix) {
  const Batch b = fetch_batch(vertices);
  const uint64_t start = std::max(vp_free_[b.vp], b.fetched);
  if (start > vp_free_[b.vp]) {
    vertex_meter.stall_begin(b.vp, vp_free_[b.vp]);
    vertex_meter.stall_end(b.vp, start);
  }
  queued_.emplace_back(start, vertices);
  // core.cost=classes: the batch's warps (4 vertices each) issue their arithmetic at core.alu_rate
  // per lane, vp.issue_lanes lanes at a time, then their attribute loads and memory accesses.
  const ModelConfig& cfg = p_.cfg;
  uint64_t cycles = 0;
  if (cfg.class_cost) {
    const uint64_t slots = (mix.alu + uint64_t{mix.sfu} * cfg.sfu_ops + mix.texture) * 4 / cfg.vp_issue_lanes;
    cycles = (slots + cfg.alu_rate - 1) / cfg.alu_rate + (mix.varying + cfg.varying_rate - 1) / cfg.varying_rate +
             (mix.memory + cfg.ls_rate - 1) / cfg.ls_rate;
    p_.activity->vertex_ops += OpCounts{mix.alu, mix.sfu, mix.varying, mix.texture, mix.memory};
  } else {
    cycles = (instructions + cfg.vp_issue_lanes - 1) / cfg.vp_issue_lanes;
  }
  vertex_meter.busy += cycles;
  p_.activity->vertex_queue_pushes += vertices;
  p_.activity->vertex_lane_instructions += instructions;
  p_.activity->vertex_issue_cycles += cycles;
  vp_free_[b.vp] = start + cycles;
  draw_done_ = std::max(draw_done_, vp_free_[b.vp]);
  end_ = std::max(end_, vp_free_[b.vp]);
}

uint64_t GeometryPhase::run(std::span<const uint8_t> bytes, const PassIndex& pass, const PhaseIndex& phase, uint64_t t0) {
  StreamCursor cursor(bytes);
  cursor.seek(phase.geometry_reset, phase.geometry);
  vp_free_.assign(p_.cfg.vertex_processors, t0);
  vertex_meter.reset_units(p_.cfg.vertex_processors);
  binning_meter.reset_units(1);
  queued_.clear();
  fetches_.clear();
  texture_lines_.clear();
  fetch_free_ = draw_done_ = end_ = t0_ = t0;
  uint64_t plb_free = t0;
  Event e;
  while (cursor.next(e)) {
    if (e.kind == EventKind::TileBegin || e.kind == EventKind::PassEnd) break;
    switch (e.kind) {
      case EventKind::Draw:
        if (pending()) shade(0, 0, {});
        draw_done_ = t0;
        ++p_.res->draws;
        break;
      case EventKind::VertexFetch: fetches_.emplace_back(e.address, e.u[0]); break;
      case EventKind::VertexTexture:
        texture_lines_.insert(texture_lines_.end(), e.lines.begin(), e.lines.end());
        ++p_.res->vertex_texture_samples;
        p_.res->vertex_texture_lines += e.lines.size();
        p_.activity->texture_probes += e.u[3];
        break;
      case EventKind::VertexShade: shade(e.u[0], e.wide, e.mix); break;
      case EventKind::PbWrite: {
        if (pending()) shade(0, 0, {});
        // The Polygon List Builder appends once the draw's vertices are shaded; one line per cycle.
        uint64_t issue = std::max(plb_free, draw_done_);
        for_each_line(e.address, e.u[0], p_.cfg.line_bytes, [&](uint64_t l, bool) {
          MemRequest r;
          r.addr = l;
          r.stream = Stream::Tile;
          r.write = true;
          // A modelling choice (the paper describes no write policy for the Parameter Buffer): a
          // write from the line's start -- a whole attribute line, or the first PMD of a list line
          // -- begins a fresh line, so a miss allocates it without a fetch. Any other write miss
          // (a PMD appended to a line evicted since its first PMD) reads the line first, so the
          // earlier PMDs, now only below, are in it when the Tile Fetcher reads it.
          r.full_line = e.address <= l;
          r.next_use = p_.next_tile_use();
          r.primitive = e.u[1];
          r.tile = e.u[2];
          r.section = static_cast<uint8_t>(e.u[3]);
          const MemResponse m = p_.h->access(r, issue);
          end_ = std::max(end_, issue + m.latency);
          issue += 1 + m.accept_delay;
          ++binning_meter.busy;
        });
        plb_free = issue;
        end_ = std::max(end_, plb_free);
        break;
      }
      default:
        throw ModelError("access stream: " + std::string(stream::event_kind_name(e.kind)) + " in the geometry phase of pass " +
                         std::to_string(pass.info.pass));
    }
  }
  if (pending()) shade(0, 0, {});
  vertex_meter.close_all(end_);
  return end_;
}

}  // namespace tessera::model
