#include "subtile_assignment.h"

#include <algorithm>
#include <cstdlib>
#include <numeric>

namespace tessera::model::dtexl {

namespace {
constexpr std::string_view kNames[] = {"const", "flip", "flip2", "flip3"};
}  // namespace

std::string_view assignment_name(Assignment a) { return kNames[static_cast<size_t>(a)]; }

bool parse_assignment(std::string_view name, Assignment* a) {
  for (size_t i = 0; i < std::size(kNames); ++i) {
    if (kNames[i] == name) {
      *a = static_cast<Assignment>(i);
      return true;
    }
  }
  return false;
}

std::vector<std::string> assignment_names() { return {std::begin(kNames), std::end(kNames)}; }

uint32_t SubtileAssigner::mirror(uint32_t s, bool vertical_axis) const {
  const uint32_t col = s % grid_.cols, row = s / grid_.cols;
  return vertical_axis ? row * grid_.cols + (grid_.cols - 1 - col) : (grid_.rows - 1 - row) * grid_.cols + col;
}

bool SubtileAssigner::on_edge(uint32_t s, int dx, int dy) const {
  const uint32_t col = s % grid_.cols, row = s / grid_.cols;
  if (dx > 0) return col == grid_.cols - 1;
  if (dx < 0) return col == 0;
  if (dy > 0) return row == grid_.rows - 1;
  return row == 0;
}

void SubtileAssigner::next_tile(uint32_t seq, uint32_t tx, uint32_t ty) {
  const uint32_t n = grid_.cols * grid_.rows;
  if (seq == 0 || map_.size() != n) {
    map_.resize(n);
    std::iota(map_.begin(), map_.end(), 0u);
    prev_tx_ = tx;
    prev_ty_ = ty;
    return;
  }
  const int dx = static_cast<int>(tx) - static_cast<int>(prev_tx_), dy = static_cast<int>(ty) - static_cast<int>(prev_ty_);
  prev_tx_ = tx;
  prev_ty_ = ty;
  const bool shares_edge = std::abs(dx) + std::abs(dy) == 1;
  const std::vector<uint32_t> before = map_;
  if (assignment_ != Assignment::Const && shares_edge) {
    // Mirror across the shared edge: the new tile's subtile s takes the core of the previous
    // tile's subtile on the other side of the edge.
    for (uint32_t s = 0; s < n; ++s) map_[s] = before[mirror(s, dx != 0)];
    if (assignment_ == Assignment::Flip2 && seq % 2 == 0) {
      // Entering an odd tile (1-based): the subtiles off the shared edge flip amongst themselves.
      const std::vector<uint32_t> flipped = map_;
      const uint32_t along = dx != 0 ? grid_.rows : grid_.cols;  // subtiles side by side on the edge
      for (uint32_t s = 0; s < n; ++s) {
        if (on_edge(s, -dx, -dy)) continue;
        if (along > 1) {
          // Mirrored across the axis perpendicular to the edge (in a 2x2 grid: the two far
          // subtiles swap cores).
          map_[s] = flipped[mirror(s, dx == 0)];
        } else {
          // Strips parallel to the edge (CG-yrect stepping up or down, CG-xrect left or right):
          // that mirror would leave each in place, so their order away from the edge reverses
          // (4 strips, edge strip 0: strips 1 and 3 swap cores, 2 keeps its own).
          const uint32_t col = s % grid_.cols, row = s / grid_.cols;
          const uint32_t depth = dx != 0 ? grid_.cols : grid_.rows;  // strips, the edge one included
          const uint32_t pos = dx != 0 ? col : row;
          const bool edge_first = dx > 0 || dy > 0;  // the edge strip is at index 0
          const uint32_t lo = edge_first ? 1 : 0, hi = edge_first ? depth - 1 : depth - 2;
          const uint32_t other = lo + hi - pos;
          map_[s] = flipped[dx != 0 ? row * grid_.cols + other : other * grid_.cols + col];
        }
      }
    }
  }
  if (assignment_ == Assignment::Flip3 && seq % 16 == 0) {
    // Every 16 tiles the whole assignment turns by 180 degrees.
    const std::vector<uint32_t> now = map_;
    for (uint32_t s = 0; s < n; ++s) map_[s] = now[n - 1 - s];
  }
  if (shares_edge) {
    ++transitions_;
    bool kept = true;
    for (uint32_t s = 0; s < n; ++s) {
      // s on the new tile's side of the edge faces mirror(s) on the previous tile's side.
      if (on_edge(s, -dx, -dy) && map_[s] != before[mirror(s, dx != 0)]) kept = false;
    }
    if (kept) ++edge_kept_;
  }
}

}  // namespace tessera::model::dtexl
