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
// The cache must be told two things the generic interface (replacement/policy.h) does not carry:
//   - the line's class and last tile at each fill and hit (PbLineInfo below). AccessInfo has the
//     class (priority_class) but no last tile; until it has one the policy takes PbLineInfo;
//   - that a dirty victim is dead: SetAssocCache writes every dirty victim back; it should ask
//     dead(set, way) before invalidating the victim and drop the write-back when it is true.
// Last-tile ids that do not fit the field are stored as kNeverDead (never considered dead): a
// line wrongly taken for dead would lose data, one wrongly kept live only costs capacity.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <string_view>
#include <vector>

#include "tessera/model/replacement/policy.h"

namespace tessera::model {

namespace dead_line {

// The 2-bit class field (paper 003 section III-D1).
enum class PbClass : uint8_t { None = 0, Lists = 1, Attributes = 2, Dead = 3 };

inline constexpr uint32_t kNeverDead = std::numeric_limits<uint32_t>::max();

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

// What the L2 is told about a line at a fill or a hit. cls None: not Parameter Buffer data.
struct PbLineInfo {
  dead_line::PbClass cls = dead_line::PbClass::None;
  uint32_t last_tile = dead_line::kNeverDead;
};

class DeadLinePolicy {
 public:
  static constexpr std::string_view kName = "dead-line";

  DeadLinePolicy(uint32_t sets, uint32_t ways, const PolicyOptions& /*options*/ = {})
      : ways_(ways), lines_(static_cast<size_t>(sets) * ways) {}

  void reset(uint32_t set, uint32_t way, const PbLineInfo& info) {
    dead_line::LineState& l = lines_[index(set, way)];
    l.cls = info.cls;
    l.last_tile = info.last_tile;
    l.stamp = ++clock_;
  }
  // A hit by a Parameter Buffer access re-tags the line (a new pass's Polygon List Builder writing
  // over a line of the previous pass); a hit without PB information keeps the tag.
  void touch(uint32_t set, uint32_t way, const PbLineInfo& info) {
    dead_line::LineState& l = lines_[index(set, way)];
    if (info.cls != dead_line::PbClass::None) {
      l.cls = info.cls;
      l.last_tile = info.last_tile;
    }
    l.stamp = ++clock_;
  }
  void invalidate(uint32_t set, uint32_t way) { lines_[index(set, way)] = {}; }
  uint32_t victim(uint32_t set) const {
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
