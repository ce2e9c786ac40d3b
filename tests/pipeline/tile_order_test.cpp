// Tile orders (paper 001 section III-C, Fig. 7): the 4x4 Z-order and Hilbert orders exactly, the
// Hilbert curve's unit steps, S-order's 8x8 sub-frames visited in an S with every step to an edge
// neighbour on real screens, and permutations of any grid.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <vector>

#include "tessera/pipeline/tile_order.h"

namespace tessera::pipeline {
namespace {

bool adjacent(uint32_t a, uint32_t b, uint32_t tiles_x) {
  const int dx = std::abs(static_cast<int>(a % tiles_x) - static_cast<int>(b % tiles_x));
  const int dy = std::abs(static_cast<int>(a / tiles_x) - static_cast<int>(b / tiles_x));
  return dx + dy == 1;
}

bool is_permutation(std::vector<uint32_t> order, uint32_t n) {
  std::sort(order.begin(), order.end());
  std::vector<uint32_t> all(n);
  std::iota(all.begin(), all.end(), 0u);
  return order == all;
}

// Fig. 7, 16 tiles (tile = ty * 4 + tx). Z-order: the bit interleave of x and y, x in the low bit:
//    0  1  4  5        visit number of each tile
//    2  3  6  7
//    8  9 12 13
//   10 11 14 15
TEST(TileOrder, Figure7ZOrder) {
  EXPECT_EQ(tile_order(TileOrderKind::Z, 4, 4),
            (std::vector<uint32_t>{0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15}));
}

// Fig. 7, Hilbert: from the top-left tile to the top-right one, every step to a neighbour:
//    0  1 14 15
//    3  2 13 12
//    4  7  8 11
//    5  6  9 10
TEST(TileOrder, Figure7Hilbert) {
  EXPECT_EQ(tile_order(TileOrderKind::Hilbert, 4, 4),
            (std::vector<uint32_t>{0, 1, 5, 4, 8, 12, 13, 9, 10, 14, 15, 11, 7, 6, 2, 3}));
  EXPECT_EQ(tile_order(TileOrderKind::Scanline, 4, 4),
            (std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}));
}

TEST(TileOrder, HilbertStepsToANeighbourOnSquareGrids) {
  for (uint32_t n : {2u, 8u, 16u, 64u}) {
    const auto order = tile_order(TileOrderKind::Hilbert, n, n);
    ASSERT_TRUE(is_permutation(order, n * n)) << n;
    for (size_t i = 1; i < order.size(); ++i) ASSERT_TRUE(adjacent(order[i - 1], order[i], n)) << n << " step " << i;
    for (uint32_t d = 0; d < n * n; ++d) {
      uint32_t x = 0, y = 0;
      hilbert_point(n, d, &x, &y);
      EXPECT_EQ(hilbert_index(n, x, y), d);
    }
  }
}

// S-order on 16x16 tiles: four 8x8 sub-frames visited top-left, top-right (row 0, left to right),
// then bottom-right, bottom-left (row 1, right to left); inside each the Hilbert curve, whose
// every step is to a neighbour, and inside each row the curve leaves a sub-frame next to the
// tile where it enters the next one.
TEST(TileOrder, SOrderVisitsTheSubFramesInAnS) {
  const uint32_t n = 16;
  const auto order = tile_order(TileOrderKind::SHilbert, n, n);
  ASSERT_TRUE(is_permutation(order, n * n));
  const uint32_t expect_sub[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  for (uint32_t s = 0; s < 4; ++s) {
    for (uint32_t i = 0; i < 64; ++i) {
      const uint32_t t = order[s * 64 + i];
      EXPECT_EQ((t % n) / 8, expect_sub[s][0]) << "sub-frame " << s;
      EXPECT_EQ((t / n) / 8, expect_sub[s][1]) << "sub-frame " << s;
      if (i > 0) {
        EXPECT_TRUE(adjacent(order[s * 64 + i - 1], t, n)) << "sub-frame " << s << " step " << i;
      }
    }
  }
  EXPECT_TRUE(adjacent(order[63], order[64], n));    // row 0: left to right
  EXPECT_TRUE(adjacent(order[127], order[128], n));  // down to row 1, in the same column
  EXPECT_TRUE(adjacent(order[191], order[192], n));  // row 1: right to left
  // Each sub-frame is the 8x8 Hilbert curve (hilbert_point), turned or mirrored to join its
  // neighbours: one of the square's eight symmetries maps the one onto the other.
  for (uint32_t s = 0; s < 4; ++s) {
    bool some_symmetry = false;
    for (uint32_t sym = 0; sym < 8 && !some_symmetry; ++sym) {
      bool all = true;
      for (uint32_t d = 0; d < 64 && all; ++d) {
        uint32_t hx = 0, hy = 0;
        hilbert_point(8, d, &hx, &hy);
        if (sym & 1) hx = 7 - hx;
        if (sym & 2) hy = 7 - hy;
        if (sym & 4) std::swap(hx, hy);
        const uint32_t t = order[s * 64 + d];
        all = (t % n) % 8 == hx && (t / n) % 8 == hy;
      }
      some_symmetry = all;
    }
    EXPECT_TRUE(some_symmetry) << "sub-frame " << s;
  }
}

// The papers' screens in 32x32 tiles (1280x720 -> 40x23 with a 7-tile last row, 1960x768 ->
// 62x24 with a 6-tile last column, 2160x1080 -> 68x34 with both, 1280x800 -> 40x25 whose last
// row one tile deep joins the one above): every step of the S-order, across sub-frames, rows and
// partial sub-frames, is to an edge neighbour.
TEST(TileOrder, SOrderStepsToAnEdgeNeighbourOnTheScreens) {
  const uint32_t grids[][2] = {{40, 23}, {62, 24}, {68, 34}, {40, 25}, {16, 16}, {8, 8}, {9, 9}, {1, 12}, {12, 1}};
  for (const auto& g : grids) {
    const auto order = tile_order(TileOrderKind::SHilbert, g[0], g[1]);
    ASSERT_TRUE(is_permutation(order, g[0] * g[1])) << g[0] << "x" << g[1];
    EXPECT_EQ(order.front(), 0u) << g[0] << "x" << g[1];
    for (size_t i = 1; i < order.size(); ++i) {
      ASSERT_TRUE(adjacent(order[i - 1], order[i], g[0])) << g[0] << "x" << g[1] << " step " << i << ": tile "
                                                           << order[i - 1] << " to " << order[i];
    }
  }
}

// Any grid up to 70x40: a permutation whose steps are all to an edge neighbour but at most one
// diagonal step (a partial sub-frame whose parity allows no edge path between the corners it
// joins: 2 x 5 tiles entered and left on one long side, say).
TEST(TileOrder, SOrderTakesAtMostOneDiagonalStepOnAnyGrid) {
  uint32_t diagonal_66x13 = 0;
  for (uint32_t w = 1; w <= 70; ++w) {
    for (uint32_t h = 1; h <= 40; ++h) {
      const auto order = tile_order(TileOrderKind::SHilbert, w, h);
      ASSERT_TRUE(is_permutation(order, w * h)) << w << "x" << h;
      uint32_t diagonal = 0;
      for (size_t i = 1; i < order.size(); ++i) {
        const int dx = std::abs(static_cast<int>(order[i] % w) - static_cast<int>(order[i - 1] % w));
        const int dy = std::abs(static_cast<int>(order[i] / w) - static_cast<int>(order[i - 1] / w));
        ASSERT_TRUE(dx + dy == 1 || (dx == 1 && dy == 1)) << w << "x" << h << " step " << i;
        diagonal += dx + dy == 2 ? 1 : 0;
      }
      EXPECT_LE(diagonal, 1u) << w << "x" << h;
      if (w == 66 && h == 13) diagonal_66x13 = diagonal;
    }
  }
  // 66x13: the last row's first sub-frame is 2 x 5 tiles, entered at its top-left corner and to
  // be left at its bottom-left one (its row runs right to left); a chess-board colouring gives
  // both corners one colour over 10 cells, so no edge path joins them.
  EXPECT_EQ(diagonal_66x13, 1u);
}

// Any grid, including the papers' screens in 32x32 tiles (1960x768 -> 62x24, 2160x1080 -> 68x34)
// and degenerate ones: every order visits every tile exactly once.
TEST(TileOrder, EveryOrderIsAPermutationOfAnyGrid) {
  const uint32_t grids[][2] = {{1, 1}, {1, 7}, {7, 1}, {5, 3}, {62, 24}, {68, 34}, {40, 23}, {9, 17}};
  for (TileOrderKind k : {TileOrderKind::Scanline, TileOrderKind::Z, TileOrderKind::Hilbert, TileOrderKind::SHilbert}) {
    for (const auto& g : grids) {
      EXPECT_TRUE(is_permutation(tile_order(k, g[0], g[1]), g[0] * g[1])) << tile_order_name(k) << " " << g[0] << "x" << g[1];
    }
  }
}

TEST(TileOrder, NamesRoundTrip) {
  for (TileOrderKind k : {TileOrderKind::Scanline, TileOrderKind::Z, TileOrderKind::Hilbert, TileOrderKind::SHilbert}) {
    TileOrderKind parsed = TileOrderKind::Scanline;
    ASSERT_TRUE(parse_tile_order(tile_order_name(k), &parsed));
    EXPECT_EQ(parsed, k);
  }
  TileOrderKind unused = TileOrderKind::Z;
  EXPECT_FALSE(parse_tile_order("peano", &unused));
}

}  // namespace
}  // namespace tessera::pipeline
