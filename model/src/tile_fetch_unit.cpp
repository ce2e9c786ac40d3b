#include "tile_fetch_unit.h"

#include <algorithm>

#include "raster_pipeline.h"

namespace tessera::model {

void TileFetcher::begin_phase(uint64_t t0) {
  free_ = t0;
  k_ = 0;
  may_fetch_ = 1;  // tile 0 before the rasterizer begins anything
  need_ = 0;
  queued_ = 0;
  const PhaseIndex& ph = *p_.phase;
  base_ = ph.tiles.empty() ? 0 : ph.tiles.front().group_begin;
  const uint32_t end = ph.tiles.empty() ? 0 : ph.tiles.back().group_end;
  ready_.assign(end - base_, kIdle);
  taken_.assign(end - base_, 0);
  g_ = p_.ntiles ? p_.tile(0).group_begin : 0;
}

void TileFetcher::tile_started(uint32_t k, uint64_t t) {
  if (k + 2 > may_fetch_) may_fetch_ = std::min(k + 2, p_.ntiles);
  p_.wake(UnitKind::TileFetcher, 0, t);
}

void TileFetcher::need(uint32_t g, uint64_t t) {
  if (g + 1 > need_) need_ = g + 1;
  p_.wake(UnitKind::TileFetcher, 0, t);
}

void TileFetcher::consume(uint32_t k, uint32_t g, uint64_t t) {
  const TileIndex& tile = p_.tile(k);
  const std::vector<PbGroup>& groups = p_.index->groups;
  // Groups not fetched yet (a tile finished before its trailing groups were read) are taken in
  // advance: they will not occupy the queue.
  bool freed = false;
  TileCacheOrganisation* organisation = p_.h->tile_organisation();
  for (uint32_t i = tile.group_begin; i <= g && i < tile.group_end; ++i) {
    if (taken_[i - base_]) continue;
    taken_[i - base_] = 1;
    if (ready_[i - base_] != kIdle && groups[i].primitive != kListGroup) {
      --queued_;
      freed = true;
      if (organisation) organisation->rasterizer_read(*p_.h, groups[i].primitive, k, t);
    }
  }
  if (freed) p_.wake(UnitKind::TileFetcher, 0, t);
}

void TileFetcher::step(uint64_t t) {
  const std::vector<PbGroup>& groups = p_.index->groups;
  const std::vector<ByteRange>& reads = p_.index->pb_reads;
  const uint32_t line_bytes = p_.cfg.line_bytes;
  TileCacheOrganisation* organisation = p_.h->tile_organisation();
  while (k_ < p_.ntiles && k_ < may_fetch_) {
    const TileIndex& tile = p_.tile(k_);
    uint64_t tile_ready = 0;  // arrival of every group so far in this tile
    if (g_ > tile.group_begin) tile_ready = ready_[g_ - 1 - base_];
    for (; g_ < tile.group_end; ++g_) {
      const bool attributes = groups[g_].primitive != kListGroup;
      const bool primitive = attributes && !taken_[g_ - base_];
      if (primitive && queued_ >= p_.cfg.triangle_queue && g_ >= need_) {
        meter.stall_begin(0, std::max(t, free_));
        return;  // consume() or need() wakes it
      }
      uint64_t issue = std::max(free_, t);
      meter.stall_end(0, issue);
      const uint64_t first = issue;
      const size_t numbers = *p_.tile_access;  // a refused group is retried with the same OPT Numbers
      uint64_t ready = issue, retry = 0;
      bool served = false, refused = false;
      for (uint32_t i = groups[g_].read_begin; i < groups[g_].read_end; ++i) {
        for_each_line(reads[i].address, reads[i].bytes, line_bytes, [&](uint64_t line, bool) {
          MemRequest r;
          r.addr = line;
          r.stream = Stream::Tile;
          r.next_use = p_.next_tile_use();
          if (served || refused) return;  // served whole by its first line (or retried later)
          r.primitive = attributes ? groups[g_].primitive : kNoPrimitive;
          r.section = attributes ? 1 : 0;
          r.tile = k_;
          const MemResponse m = p_.h->access(r, issue);
          if (m.refused) {
            refused = true;
            if (m.retry_after) retry = issue + m.retry_after;
            return;
          }
          served = m.primitive_served;
          ready = std::max(ready, issue + m.latency);
          issue += 1 + m.accept_delay;
          if (m.served_by == ServedBy::L2 || m.served_by == ServedBy::Dram) ++p_.tile_l2[k_];
          ++meter.busy;
        });
      }
      if (refused) {
        // Every line the organisation could use is locked (paper 003 section III-C5): by
        // primitives in the queue -- wait for the rasterizer to take one (consume() wakes the
        // fetcher) -- or by outstanding fills -- retry when the organisation says one arrives.
        if (queued_ == 0 && retry == 0) {
          throw ModelError("tile cache organisation refused primitive " + std::to_string(groups[g_].primitive) +
                           " with no primitive in the Tile Fetcher's queue and no fill outstanding to release it");
        }
        *p_.tile_access = numbers;
        meter.stall_begin(0, first);
        if (retry) p_.wake(UnitKind::TileFetcher, 0, retry);
        return;
      }
      // Active: issuing, or held by the memory hierarchy (busy banks, full MSHR files); never the
      // waits for the Raster Pipeline (a full queue, a locked line, the next tile not begun).
      active_cycles += issue - first;
      free_ = issue;
      tile_ready = std::max(tile_ready, ready);
      ready_[g_ - base_] = tile_ready;
      if (primitive) {
        ++queued_;
        ++p_.activity->triangle_queue_pushes;
      }
      if (attributes) {
        ++primitives;
        // Taken before it was fetched (a tile the rasterizer finished first): nothing holds it.
        if (!primitive && organisation) organisation->rasterizer_read(*p_.h, groups[g_].primitive, k_, first);
      }
      p_.rasterizer.group_fetched(g_, tile_ready);
    }
    // Paper 003 III-D1: the Tile Fetcher signals the L2 at the end of every tile.
    p_.h->l2().tile_finished();
    ++k_;
    if (k_ < p_.ntiles) g_ = p_.tile(k_).group_begin;
  }
}

}  // namespace tessera::model
