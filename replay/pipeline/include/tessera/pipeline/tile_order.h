// Tile orders of the tile fetcher (paper 001 section III-C, Fig. 7): the order a pass's tiles are
// processed in. One definition serves the functional renderer (which tiles in this order when
// asked) and the GPU model (which visits a recorded pass's tiles in the configured order through
// the stream's per-tile seek points, and numbers next uses in that order).
//
//   scanline   row by row, left to right, top to bottom
//   z          Morton (Z) order: tile (x, y) at the bit interleave of x (even bits) and y (odd)
//   hilbert    the Hilbert curve of the enclosing power-of-two square, from its top-left tile to its
//              top-right tile (4x4: along the top row first, then down the left column...)
//   s-hilbert  paper 001's "S-order": the Hilbert curve inside each 8x8-tile sub-frame, the
//              sub-frames visited boustrophedonically (row 0 of sub-frames left to right, row 1
//              right to left, ...). Each sub-frame's curve runs between the corner where the
//              previous one left off and the corner touching the next sub-frame (on the side
//              facing the row's direction; for the last of a row, at the bottom, above the next
//              row's first), so every step, across sub-frames and rows too, is to an edge
//              neighbour. Partial sub-frames at the right and bottom edges get the generalised
//              Hilbert curve of their own rectangle (a last row or column one tile deep joins
//              the one before); where the parity of a partial sub-frame allows no edge path
//              between its two corners, one step is diagonal (never on the papers' screens).
//
// Grids that are not a power of two (1960x768 in 32x32 tiles is 62x24): z and hilbert run over
// the smallest enclosing power-of-two square and skip positions outside the grid, so every tile
// is visited once and neighbours in the curve stay neighbours wherever the grid allows.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "tessera/pipeline/tile_fetch.h"

namespace tessera::pipeline {

enum class TileOrderKind : uint8_t { Scanline, Z, Hilbert, SHilbert };

// "scanline", "z", "hilbert", "s-hilbert"; false for anything else.
bool parse_tile_order(std::string_view name, TileOrderKind* kind);
std::string_view tile_order_name(TileOrderKind kind);

// The tiles of a tiles_x x tiles_y grid (tile index ty * tiles_x + tx) in visiting order.
std::vector<uint32_t> tile_order(TileOrderKind kind, uint32_t tiles_x, uint32_t tiles_y);

// Position of (x, y) on the Hilbert curve of an n x n square (n a power of two), and back.
uint32_t hilbert_index(uint32_t n, uint32_t x, uint32_t y);
void hilbert_point(uint32_t n, uint32_t d, uint32_t* x, uint32_t* y);

// The renderer's TileOrder for one of the kinds above.
class CurveOrder final : public TileOrder {
 public:
  explicit CurveOrder(TileOrderKind kind) : kind_(kind) {}
  std::vector<uint32_t> order(uint32_t tiles_x, uint32_t tiles_y) const override { return tile_order(kind_, tiles_x, tiles_y); }

 private:
  TileOrderKind kind_;
};

}  // namespace tessera::pipeline
