// Dead-line-aware L2 replacement of TCOR (paper 003 section III-D). The Parameter Buffer is built
// and used up within a render pass, so a Parameter Buffer line is dead once the last tile that
// reads it has been processed by the Tile Fetcher. Per line the L2 keeps
//   - a 2-bit class: not Parameter Buffer, PB-Lists, PB-Attributes (III-D1), and here the fourth
//     code, "dead PB", for lines of a previous render pass (see pass_begin);
//   - a 12-bit last-tile id: the position, in tile processing order, of the last tile that reads
//     the line (PB-Lists: the line's own tile; PB-Attributes: the last tile of the primitive);
// and the L2 control logic counts the tiles the Tile Fetcher has finished (tile_finished).
// Victims (III-D2), LRU within each group: dead PB lines, then non-PB lines (texture, vertex,
// instructions: always clean), then live PB lines (possibly dirty, and to be read again). A dead
// line is dropped without a write-back even when dirty: nobody reads it again.
//
// What the cache tells the policy at each fill and hit (AccessInfo): the line's class in
// priority_class (0 not Parameter Buffer, 1 PB-Lists, 2 PB-Attributes: dead_line::PbClass) and
// its last tile in last_tile. The cache asks writes_back(set, way, dirty) before it drops a victim
// and counts a dead dirty one as a dead drop instead of a write-back. The Tile Fetcher's progress
// reaches the policy from the timing model through AnyCache::tile_finished and pass_begin.
// Last-tile ids that do not fit the field are stored as kNeverDead (never considered dead): a
// line wrongly taken for dead would lose data, one wrongly kept live only costs capacity.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "tessera/model/replacement/policy.h"

namespace tessera::model {

namespace dead_line {

// The 2-bit class field (paper 003 section III-D1).
enum class PbClass : uint8_t { None = 0, Lists = 1, Attributes = 2, Dead = 3 };

inline constexpr uint32_t kNeverDead = kNoLastTile;

struct LineState {
  PbClass cls = PbClass::None;
  uint32_t last_tile = kNeverDead;  // processing position of the last tile reading the line
  uint64_t stamp = 0;               // last-touch time (LRU within a group)
};

// Replacement group: 0 dead PB line, 1 non-PB line, 2 live PB line (paper 003 section III-D2).
inline uint32_t group(const LineState& line, uint32_t tiles_finished) {
  if (line.cls == PbClass::None) return 1;
  if (line.cls == PbClass::Dead) return 0;
  return line.last_tile != kNeverDead && line.last_tile < tiles_finished ? 0 : 2;
}

// Per-set decision over valid lines: the lowest group, the least recently used within it.
inline uint32_t victim(std::span<const LineState> set, uint32_t tiles_finished) {
  uint32_t best = 0, best_group = group(set[0], tiles_finished);
  for (uint32_t w = 1; w < set.size(); ++w) {
    const uint32_t g = group(set[w], tiles_finished);
    if (g < best_group || (g == best_group && set[w].stamp < set[best].stamp)) {
      best = w;
      best_group = g;
    }
  }
  return best;
}

}  // namespace dead_line

namespace dead_line {

// The class an access carries (AccessInfo::priority_class); anything else is not PB data.
inline PbClass class_of(const AccessInfo& info) {
  return info.priority_class == 1 || info.priority_class == 2 ? static_cast<PbClass>(info.priority_class) : PbClass::None;
}

// What a Parameter Buffer line's access tells the L2 (the tile cache's requests and write-backs).
inline AccessInfo pb_access(PbClass cls, uint32_t last_tile) {
  AccessInfo info;
  info.priority_class = static_cast<uint8_t>(cls);
  info.last_tile = last_tile;
  return info;
}

}  // namespace dead_line

class DeadLinePolicy {
 public:
  static constexpr std::string_view kName = "dead-line";

  DeadLinePolicy(uint32_t sets, uint32_t ways, const PolicyOptions& /*options*/ = {})
      : ways_(ways), lines_(static_cast<size_t>(sets) * ways) {}

  void reset(uint32_t set, uint32_t way, const AccessInfo& info) {
    dead_line::LineState& l = lines_[index(set, way)];
    l.cls = dead_line::class_of(info);
    l.last_tile = l.cls == dead_line::PbClass::None ? dead_line::kNeverDead : info.last_tile;
    l.stamp = ++clock_;
  }
  // A hit by a Parameter Buffer access re-tags the line (a new pass's Polygon List Builder writing
  // over a line of the previous pass); a hit without PB information keeps the tag.
  void touch(uint32_t set, uint32_t way, const AccessInfo& info) {
    dead_line::LineState& l = lines_[index(set, way)];
    const dead_line::PbClass cls = dead_line::class_of(info);
    if (cls != dead_line::PbClass::None) {
      l.cls = cls;
      l.last_tile = info.last_tile;
    }
    l.stamp = ++clock_;
  }
  void invalidate(uint32_t set, uint32_t way) { lines_[index(set, way)] = {}; }
  uint32_t victim(uint32_t set, const AccessInfo& /*info*/) const {
    return dead_line::victim(std::span<const dead_line::LineState>(&lines_[index(set, 0)], ways_), tiles_finished_);
  }
  // Whether the line is dead now.
  bool dead(uint32_t set, uint32_t way) const { return dead_line::group(lines_[index(set, way)], tiles_finished_) == 0; }
  // What the cache does with a victim (section III-D2): write it back only when it is dirty and
  // not dead. The cache asks before invalidating the victim.
  bool writes_back(uint32_t set, uint32_t way, bool dirty) const { return dirty && !dead(set, way); }

  // The Tile Fetcher's signal at the end of each tile (section III-D1: the L2 counts them).
  void tile_finished() {
    if (tiles_finished_ != dead_line::kNeverDead) ++tiles_finished_;
  }
  // A new render pass builds a new Parameter Buffer: the counter restarts from "no tile finished"
  // (the paper's NULL) and every PB line still held belongs to a finished pass, so it is dead.
  void pass_begin() {
    tiles_finished_ = 0;
    for (dead_line::LineState& l : lines_) {
      if (l.cls != dead_line::PbClass::None) l.cls = dead_line::PbClass::Dead;
    }
  }
  uint32_t tiles_finished() const { return tiles_finished_; }
  const dead_line::LineState& line(uint32_t set, uint32_t way) const { return lines_[index(set, way)]; }

 private:
  size_t index(uint32_t set, uint32_t way) const { return static_cast<size_t>(set) * ways_ + way; }

  uint32_t ways_;
  uint64_t clock_ = 0;
  uint32_t tiles_finished_ = 0;
  std::vector<dead_line::LineState> lines_;  // contiguous per set
};

}  // namespace tessera::model
