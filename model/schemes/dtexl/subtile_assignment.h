// Subtile-to-core assignments of paper 001 section III-D, Fig. 8: which core takes each subtile
// of each tile as the tiles are processed in order.
//
//   const   subtile i -> core i in every tile (Fig. 8(a), (c), (g): Zorder-const, HLB-const,
//           Sorder-const).
//   flip    "flipped along the shared edge of consecutive tiles" (Fig. 8(b), (d): the Z-order
//           flip, HLB-flp1): when tile k+1 shares an edge with tile k, its assignment is tile k's
//           mirrored across that edge, so the subtiles on both sides of the edge run on the same
//           core (their texture blocks are then in one L1). Consecutive tiles without a shared
//           edge keep the assignment.
//   flip2   HLB-flp2 (Fig. 8(e)): flip, and when going from an even tile to an odd one (the
//           figure's tile IDs count from 1) also "flips the non-sharing subtiles amongst
//           themselves": the subtiles off the shared edge are mirrored across the axis
//           perpendicular to it (2x2: the two far subtiles swap cores), so over a frame no core
//           is always the one at the edge. Strips parallel to the edge (one subtile along it)
//           would not move under that mirror: their order away from the edge reverses instead.
//           Sorder-flp (Fig. 8(h)) is flip2 with CG-yrect (four strips, each as wide as the tile)
//           in S-order: a step up or down mirrors the strips and, into odd tiles, swaps the
//           second and fourth from the edge; a step left or right changes nothing, every strip
//           already touching the shared edge on both sides of it.
//   flip3   HLB-flp3 (Fig. 8(f)): flip, and every 16 tiles all four subtiles flip (the
//           assignment turns by 180 degrees), "such that the same FP is not at an advantage or
//           a disadvantage every time".
// The figure itself is not in the text: these are our reading of it, for groupings on a grid of
// subtiles (CG-square, CG-xrect, CG-yrect); fine-grained and triangular groupings use const.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "quad_grouping.h"

namespace tessera::model::dtexl {

enum class Assignment : uint8_t { Const, Flip, Flip2, Flip3 };

std::string_view assignment_name(Assignment a);
bool parse_assignment(std::string_view name, Assignment* a);
std::vector<std::string> assignment_names();

// Walks the tiles of a pass in processing order and gives each tile's subtile -> core map.
class SubtileAssigner {
 public:
  SubtileAssigner(Assignment a, SubtileGrid grid) : assignment_(a), grid_(grid) {}
  // The next tile in processing order (seq = its position), at tile coordinates (tx, ty); seq 0
  // starts a new pass.
  void next_tile(uint32_t seq, uint32_t tx, uint32_t ty);
  // The core of subtile s in the current tile.
  uint32_t core(uint32_t subtile) const { return map_[subtile]; }
  const std::vector<uint32_t>& map() const { return map_; }
  // Consecutive tiles sharing an edge, and how many of them kept every edge subtile's core.
  uint64_t transitions() const { return transitions_; }
  uint64_t edge_kept() const { return edge_kept_; }

 private:
  // The subtile mirrored across a vertical (left/right) or horizontal (top/bottom) axis.
  uint32_t mirror(uint32_t s, bool vertical_axis) const;
  bool on_edge(uint32_t s, int dx, int dy) const;  // s touches the edge toward (dx, dy)

  Assignment assignment_;
  SubtileGrid grid_;
  std::vector<uint32_t> map_;
  uint32_t prev_tx_ = 0, prev_ty_ = 0;
  uint64_t transitions_ = 0, edge_kept_ = 0;
};

}  // namespace tessera::model::dtexl
