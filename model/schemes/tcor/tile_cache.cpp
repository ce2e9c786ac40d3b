#include "tcor/tile_cache.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "tcor/lower_bound.h"
#include "tessera/model/next_use.h"

namespace tessera::model::tcor {

TcorTileCache::TcorTileCache(const TcorConfig& config)
    : config_(config),
      field_(config.opt_bits),
      lists_(config.plc_size, config.plc_ways(), config.line_bytes, config.mshrs),
      attributes_(config.attribute_cache()),
      attribute_mshrs_(config.mshrs) {}

const PbListsLayout& TcorTileCache::layout() const {
  if (!layout_) throw std::logic_error("TCOR Tile Cache: access before the subpass's binning");
  return *layout_;
}

void TcorTileCache::begin_frame() {
  counters_ = TcorCounters{};
  lists_.cache().clear_counters();
  attributes_.clear_counters();
}

void TcorTileCache::phase_begin(const BinnedPhase& phase) {
  const auto tiles = static_cast<uint32_t>(phase.tiles.size());
  uint32_t grid = 0;
  for (const TileRef& t : phase.tiles) grid = std::max(grid, t.tile + 1);
  position_.assign(grid, UINT32_MAX);
  for (uint32_t k = 0; k < tiles; ++k) position_[phase.tiles[k].tile] = k;
  primitives_.clear();
  for (const PrimitiveAttributes& a : phase.attributes) primitives_.push_back({a.primitive, a.first_line, a.lines, 0});
  // Last readers (section III-D1): the binning knows every tile of each primitive.
  for (uint32_t k = 0; k < tiles && k < phase.primitives.size(); ++k) {
    for (uint32_t p : phase.primitives[k]) {
      auto it = std::lower_bound(primitives_.begin(), primitives_.end(), p,
                                 [](const Primitive& a, uint32_t v) { return a.primitive < v; });
      if (it != primitives_.end() && it->primitive == p) it->last_tile = k;
    }
  }
  layout_.emplace(config_.pb_layout, std::max(tiles, 1u), config_.lists);
  pmds_.assign(tiles, 0);
  reading_tile_ = UINT32_MAX;
  list_line_ = 0;
  writing_ = nullptr;
  fills_.clear();
  // The previous subpass's Parameter Buffer is dead (section III-D): both structures drop it
  // without write-back. Written back later, a PB-Lists line would carry the tile of a list slot
  // of this subpass to the L2 and be kept there as live.
  attributes_.drop_all();
  lists_.cache().drop_all();

  // Section V-A: TP primitives, at most CP of them held when binning ends.
  std::vector<uint64_t> histogram;
  for (const Primitive& p : primitives_) {
    if (histogram.size() <= p.lines) histogram.resize(p.lines + 1, 0);
    ++histogram[p.lines];
  }
  const uint64_t cp = max_primitives_held(histogram, attributes_.attribute_buffer().entries(),
                                          attributes_.primitive_buffer().lines());
  counters_.lower_bound += miss_lower_bound(primitives_.size(), cp);
}

const TcorTileCache::Primitive& TcorTileCache::primitive(uint32_t index) const {
  auto it = std::lower_bound(primitives_.begin(), primitives_.end(), index,
                             [](const Primitive& a, uint32_t v) { return a.primitive < v; });
  if (it == primitives_.end() || it->primitive != index) {
    throw std::invalid_argument("TCOR Tile Cache: primitive " + std::to_string(index) +
                                " has Parameter Buffer attributes but no tile of its subpass reads them");
  }
  return *it;
}

PrimitiveRequest TcorTileCache::request_for(const Primitive& p, uint64_t next_use) const {
  return {p.id, p.lines, field_.opt_number(next_tile(next_use)), field_.last_tile_tag(p.last_tile)};
}

void TcorTileCache::retire_fills(uint64_t now) {
  for (size_t i = 0; i < fills_.size();) {
    if (fills_[i].second <= now) {
      attributes_.fill_serviced(fills_[i].first);
      fills_[i] = fills_.back();
      fills_.pop_back();
    } else {
      ++i;
    }
  }
}

uint64_t TcorTileCache::send_below(MemoryHierarchy& h, uint64_t t, uint64_t* stall) {
  uint64_t ready = t, issue = t;
  *stall = 0;
  for (const PbTransfer& x : below_) {
    ++(x.write ? counters_.l2_writes : counters_.l2_reads);
    if (x.write) {
      // Posted: the line leaves with its data, nobody waits.
      h.access_below_l1(h.l2_requester_tile(), x.addr, true, x.access_info(), issue);
      continue;
    }
    // One line per cycle into the MSHRs; a full MSHR file holds the next line back.
    const uint64_t start = attribute_mshrs_.reserve(issue);
    *stall += start - issue;
    const uint64_t arrive = start + h.access_below_l1(h.l2_requester_tile(), x.addr, false, x.access_info(), start).latency;
    attribute_mshrs_.commit(arrive);
    ready = std::max(ready, arrive);
    issue = start + 1;
  }
  counters_.mshr_stall_cycles += *stall;
  below_.clear();
  return ready;
}

MemResponse TcorTileCache::lists_access(MemoryHierarchy& h, uint64_t addr, bool write, uint32_t slot, uint64_t now) {
  SetAssocCache<LruPolicy>& c = lists_.cache();
  const CacheOutcome o = write ? lists_.write_pmd(addr, now) : lists_.read_line(addr, now);
  const uint64_t t = now + config_.latency;
  // The L2 recovers a PB-Lists line's tile from its address (section III-D1): the list slot.
  const uint32_t last = field_.last_tile_tag(slot);
  if (o.writeback) {
    ++counters_.l2_writes;
    const PbTransfer x{o.writeback_addr, true, PbSection::Lists, field_.last_tile_tag(layout().slot_of_line(o.writeback_addr))};
    h.access_below_l1(h.l2_requester_tile(), x.addr, true, x.access_info(), t);
  }
  if (o.hit) return {static_cast<uint32_t>(std::max(t, o.ready) - now), ServedBy::L1, 0};
  if (!o.fetch) {
    c.set_ready(o, t);  // the first PMD of a fresh line: allocated without a fetch
    return {static_cast<uint32_t>(t - now), ServedBy::L1, 0};
  }
  ++counters_.l2_reads;
  const uint64_t issue = c.reserve_mshr(t);
  const PbTransfer x{addr & ~uint64_t{config_.line_bytes - 1}, false, PbSection::Lists, last};
  const MemResponse below = h.access_below_l1(h.l2_requester_tile(), x.addr, false, x.access_info(), issue);
  const uint64_t ready = issue + below.latency;
  c.set_ready(o, ready);
  c.commit_mshr(ready);
  return {static_cast<uint32_t>(ready - now), below.served_by, static_cast<uint32_t>(issue - t)};
}

MemResponse TcorTileCache::attribute_write(MemoryHierarchy& h, const MemRequest& request, uint64_t now) {
  // The Polygon List Builder writes a primitive's attribute lines one after the other; the first
  // one decides for all (section III-C4), the others go where it went.
  if (!writing_ || writing_->primitive != request.primitive || written_lines_ == writing_->lines) {
    const Primitive& p = primitive(request.primitive);
    writing_ = &p;
    written_lines_ = 0;
    const AttributeOutcome o = attributes_.write(request_for(p, request.next_use), below_);
    writing_allocated_ = o.result == AttributeResult::WriteAllocated;
    uint64_t stall = 0;
    send_below(h, now + config_.latency, &stall);  // evicted primitives' write-backs, or the bypassed lines
  }
  const uint64_t expect = writing_->id + uint64_t{written_lines_} * config_.line_bytes;
  if (request.addr != expect) {
    throw std::invalid_argument("TCOR Tile Cache: attribute write of primitive " + std::to_string(request.primitive) +
                                " at line " + std::to_string(written_lines_) + " is not contiguous with its first line");
  }
  ++written_lines_;
  if (writing_allocated_) ++counters_.attribute_writes;
  return {config_.latency, ServedBy::L1, 0};
}

MemResponse TcorTileCache::attribute_read(MemoryHierarchy& h, const MemRequest& request, uint64_t now) {
  const Primitive& p = primitive(request.primitive);
  if (request.addr != p.id) {
    throw std::invalid_argument("TCOR Tile Cache: read of primitive " + std::to_string(request.primitive) +
                                " does not start at its first attribute line");
  }
  retire_fills(now);
  const AttributeOutcome o = attributes_.read(request_for(p, request.next_use), below_);
  MemResponse r;
  r.primitive_served = true;
  const uint64_t t = now + config_.latency;
  if (o.result == AttributeResult::Blocked) {
    // A line locked only for its outstanding fill unlocks when the fill arrives, even if the
    // Rasterizer has already taken its primitive: the earliest arrival is worth a retry.
    r.refused = true;
    uint64_t first = UINT64_MAX;
    for (const auto& [id, arrive] : fills_) first = std::min(first, arrive);
    if (first != UINT64_MAX) r.retry_after = static_cast<uint32_t>(first - now);
    return r;
  }
  // The Rasterizer reads the attributes through the ABP from the Attribute Buffer (III-C3).
  counters_.attribute_reads += p.lines;
  if (o.result == AttributeResult::Hit) {
    uint64_t ready = t;
    if (o.fill_pending) {
      ++counters_.fill_waits;
      for (const auto& [id, arrive] : fills_) {
        if (id == p.id) ready = std::max(ready, arrive);
      }
    }
    r.latency = static_cast<uint32_t>(ready - now);
    r.served_by = ServedBy::L1;
    return r;
  }
  // A miss: write-backs of the evicted primitives, then one L2 read per attribute line (III-C3).
  counters_.attribute_writes += p.lines;
  uint64_t stall = 0;
  const uint64_t ready = send_below(h, t, &stall);
  fills_.emplace_back(p.id, ready);
  r.latency = static_cast<uint32_t>(ready - now);
  r.served_by = ServedBy::L2;
  r.accept_delay = static_cast<uint32_t>(stall);
  return r;
}

MemResponse TcorTileCache::access(MemoryHierarchy& h, const MemRequest& request, uint64_t now) {
  if (!layout_) throw std::logic_error("TCOR Tile Cache: Parameter Buffer access before its subpass's binning");
  if (request.section == 0) {
    if (request.write) {
      // A PMD appended to tile `request.tile`'s list: its next entry, where the layout puts it.
      if (request.tile >= position_.size() || position_[request.tile] == UINT32_MAX) {
        throw std::invalid_argument("TCOR Tile Cache: PMD of tile " + std::to_string(request.tile) +
                                    ", which its subpass does not fetch");
      }
      const uint32_t slot = position_[request.tile];
      return lists_access(h, layout_->pmd_address(slot, pmds_[slot]++), true, slot, now);
    }
    // The next line of the list of the tile at position request.tile.
    if (request.tile != reading_tile_) {
      reading_tile_ = request.tile;
      list_line_ = 0;
    }
    if (request.tile >= pmds_.size()) {
      throw std::invalid_argument("TCOR Tile Cache: list read of tile position " + std::to_string(request.tile) +
                                  " of a subpass of " + std::to_string(pmds_.size()) + " tiles");
    }
    return lists_access(h, layout_->line_address(request.tile, list_line_++), false, request.tile, now);
  }
  return request.write ? attribute_write(h, request, now) : attribute_read(h, request, now);
}

void TcorTileCache::rasterizer_read(MemoryHierarchy&, uint32_t primitive_index, uint32_t, uint64_t) {
  attributes_.rasterizer_read(attributes_.abp_of(primitive(primitive_index).id));
}

std::vector<std::pair<std::string, double>> TcorTileCache::metrics() const {
  const AttributeCacheCounters& a = attributes_.counters();
  const CacheCounters& l = lists_.counters();
  auto d = [](uint64_t v) { return static_cast<double>(v); };
  // Every write of the Attribute Cache misses (a primitive is written once, section III-C4).
  const uint64_t attr_misses = a.read_misses + a.writes;
  return {
      {"tile.accesses", d(l.accesses + a.accesses)},
      {"tile.hits", d(l.hits + a.hits)},
      {"tile.misses", d(l.misses + attr_misses)},
      {"tile.read_misses", d(l.read_misses + a.read_misses)},
      {"tile.write_misses", d(l.write_misses + a.writes)},
      {"tile.write_bypasses", d(a.write_bypasses)},
      {"tile.evictions", d(l.evictions + a.evictions)},
      {"tile.writebacks", d(l.writebacks + a.writebacks)},
      {"tile.fetches", d(l.fetches + a.fetches)},
      {"tile.write_throughs", d(a.bypass_lines)},
      {"tile.bypasses", d(a.write_bypasses)},
      {"tile.mshr_merges", d(l.mshr_merges + counters_.fill_waits)},
      {"tile.mshr_stall_cycles", d(l.mshr_stall_cycles + counters_.mshr_stall_cycles)},
      {"tile.dead_drops", d(l.dead_drops + a.dead_drops)},
      {"tile.plc.accesses", d(l.accesses)},
      {"tile.plc.hits", d(l.hits)},
      {"tile.plc.misses", d(l.misses)},
      {"tile.plc.fetches", d(l.fetches)},
      {"tile.plc.writebacks", d(l.writebacks)},
      {"tile.plc.dead_drops", d(l.dead_drops)},
      {"tile.attr.accesses", d(a.accesses)},
      {"tile.attr.reads", d(a.reads)},
      {"tile.attr.writes", d(a.writes)},
      {"tile.attr.hits", d(a.hits)},
      {"tile.attr.read_misses", d(a.read_misses)},
      {"tile.attr.misses", d(attr_misses)},
      {"tile.attr.write_bypasses", d(a.write_bypasses)},
      {"tile.attr.evictions", d(a.evictions)},
      {"tile.attr.writebacks", d(a.writebacks)},
      {"tile.attr.fetches", d(a.fetches)},
      {"tile.attr.blocked", d(a.blocked)},
      {"tile.attr.dead_drops", d(a.dead_drops)},
      {"tcor.l2_reads", d(counters_.l2_reads)},
      {"tcor.l2_writes", d(counters_.l2_writes)},
      {"tcor.lower_bound", d(counters_.lower_bound)},
  };
}

}  // namespace tessera::model::tcor
