#include "tessera/pipeline/tile_order.h"

#include <algorithm>
#include <cstdlib>
#include <utility>

namespace tessera::pipeline {

namespace {

uint32_t enclosing_square(uint32_t tiles_x, uint32_t tiles_y) {
  uint32_t n = 1;
  while (n < tiles_x || n < tiles_y) n *= 2;
  return n;
}

// Bit interleave: x in the even bits, y in the odd bits.
uint64_t morton(uint32_t x, uint32_t y) {
  uint64_t m = 0;
  for (uint32_t b = 0; b < 32; ++b) {
    m |= uint64_t{(x >> b) & 1u} << (2 * b);
    m |= uint64_t{(y >> b) & 1u} << (2 * b + 1);
  }
  return m;
}

// Rotates/flips a quadrant so the sub-curve in it is oriented as the whole curve requires.
void rotate(uint32_t s, uint32_t* x, uint32_t* y, uint32_t rx, uint32_t ry) {
  if (ry != 0) return;
  if (rx == 1) {
    *x = s - 1 - *x;
    *y = s - 1 - *y;
  }
  std::swap(*x, *y);
}

// Tiles of the sub-rectangle [x0, x0 + w) x [y0, y0 + h) in Hilbert order of its enclosing square,
// appended to `out`.
void append_hilbert(uint32_t tiles_x, uint32_t x0, uint32_t y0, uint32_t w, uint32_t h, uint32_t n,
                    std::vector<uint32_t>& out) {
  for (uint32_t d = 0; d < n * n; ++d) {
    uint32_t x = 0, y = 0;
    hilbert_point(n, d, &x, &y);
    if (x < w && y < h) out.push_back((y0 + y) * tiles_x + x0 + x);
  }
}

int sign(int v) { return (v > 0) - (v < 0); }
int floor_half(int v) { return v >= 0 ? v / 2 : -((1 - v) / 2); }

// The generalised Hilbert curve of a rectangle (the "gilbert" construction of J. Cerveny, 2019): from the
// cell (x, y) along the side (ax, ay) to that side's far corner, covering the rectangle spanned by
// (ax, ay) and (bx, by) (each axis-aligned; their lengths are the sides). The rectangle is cut
// into halves along a long side, or else into the three parts of a Hilbert step (up a half of
// the short side, along the long side, back down), with the cuts moved by one cell so the parts
// keep even sides where they can. Every step is to an edge neighbour, except one diagonal step
// where no such path exists (a side along (ax, ay) of odd length and an even other side); on a
// power-of-two square it is the Hilbert curve.
void append_gilbert(int x, int y, int ax, int ay, int bx, int by, std::vector<std::pair<int, int>>& out) {
  const int w = std::abs(ax + ay), h = std::abs(bx + by);
  const int dax = sign(ax), day = sign(ay), dbx = sign(bx), dby = sign(by);
  if (h == 1 || w == 1) {  // one row or one column: walk it
    const int n = h == 1 ? w : h, sx = h == 1 ? dax : dbx, sy = h == 1 ? day : dby;
    for (int i = 0; i < n; ++i) out.emplace_back(x + i * sx, y + i * sy);
    return;
  }
  int ax2 = floor_half(ax), ay2 = floor_half(ay), bx2 = floor_half(bx), by2 = floor_half(by);
  if (2 * w > 3 * h) {
    if (std::abs(ax2 + ay2) % 2 != 0 && w > 2) {
      ax2 += dax;
      ay2 += day;
    }
    append_gilbert(x, y, ax2, ay2, bx, by, out);
    append_gilbert(x + ax2, y + ay2, ax - ax2, ay - ay2, bx, by, out);
    return;
  }
  if (std::abs(bx2 + by2) % 2 != 0 && h > 2) {
    bx2 += dbx;
    by2 += dby;
  }
  append_gilbert(x, y, bx2, by2, ax2, ay2, out);
  append_gilbert(x + bx2, y + by2, ax, ay, bx - bx2, by - by2, out);
  append_gilbert(x + (ax - dax) + (bx2 - dbx), y + (ay - day) + (by2 - dby), -bx2, -by2, -(ax - ax2), -(ay - ay2), out);
}

// A corner of a sub-frame.
struct Corner {
  bool right = false, bottom = false;
};

// Whether a path over every cell of a w x h grid can join corners `from` and `to` (distinct) by
// edge steps: colour the cells as a chess board; the path alternates colours.
bool edge_path_exists(uint32_t w, uint32_t h, Corner from, Corner to) {
  const uint32_t fx = from.right ? w - 1 : 0, fy = from.bottom ? h - 1 : 0;
  const uint32_t tx = to.right ? w - 1 : 0, ty = to.bottom ? h - 1 : 0;
  const bool same_colour = (fx + fy) % 2 == (tx + ty) % 2;
  // Even cell count: the ends differ in colour. Odd: both ends take the majority colour, that of
  // the corners.
  return (uint64_t{w} * h) % 2 == 0 ? !same_colour : same_colour;
}

// The tiles of the sub-frame at (x0, y0), w x h, entered at corner `entry` and left at `exit`
// (an adjacent corner), as a generalised Hilbert curve.
void append_sub_frame(uint32_t tiles_x, uint32_t x0, uint32_t y0, uint32_t w, uint32_t h, Corner entry,
                      Corner exit, std::vector<uint32_t>& out) {
  const int ex = static_cast<int>(x0) + (entry.right ? static_cast<int>(w) - 1 : 0);
  const int ey = static_cast<int>(y0) + (entry.bottom ? static_cast<int>(h) - 1 : 0);
  const int iw = static_cast<int>(w), ih = static_cast<int>(h);
  std::vector<std::pair<int, int>> cells;
  cells.reserve(size_t{w} * h);
  if (entry.right != exit.right) {  // along the top or bottom side, the rest across it
    append_gilbert(ex, ey, exit.right ? iw : -iw, 0, 0, entry.bottom ? -ih : ih, cells);
  } else {  // along the left or right side
    append_gilbert(ex, ey, 0, exit.bottom ? ih : -ih, entry.right ? -iw : iw, 0, cells);
  }
  for (const auto& [x, y] : cells) out.push_back(static_cast<uint32_t>(y) * tiles_x + static_cast<uint32_t>(x));
}

}  // namespace

bool parse_tile_order(std::string_view name, TileOrderKind* kind) {
  for (TileOrderKind k : {TileOrderKind::Scanline, TileOrderKind::Z, TileOrderKind::Hilbert, TileOrderKind::SHilbert}) {
    if (name == tile_order_name(k)) {
      *kind = k;
      return true;
    }
  }
  return false;
}

std::string_view tile_order_name(TileOrderKind kind) {
  switch (kind) {
    case TileOrderKind::Scanline: return "scanline";
    case TileOrderKind::Z: return "z";
    case TileOrderKind::Hilbert: return "hilbert";
    case TileOrderKind::SHilbert: return "s-hilbert";
  }
  return "?";
}

void hilbert_point(uint32_t n, uint32_t d, uint32_t* x, uint32_t* y) {
  *x = 0;
  *y = 0;
  uint32_t t = d;
  for (uint32_t s = 1; s < n; s *= 2) {
    const uint32_t rx = 1 & (t / 2);
    const uint32_t ry = 1 & (t ^ rx);
    rotate(s, x, y, rx, ry);
    *x += s * rx;
    *y += s * ry;
    t /= 4;
  }
}

uint32_t hilbert_index(uint32_t n, uint32_t x, uint32_t y) {
  uint32_t d = 0;
  for (uint32_t s = n / 2; s > 0; s /= 2) {
    const uint32_t rx = (x & s) > 0 ? 1 : 0;
    const uint32_t ry = (y & s) > 0 ? 1 : 0;
    d += s * s * ((3 * rx) ^ ry);
    rotate(n, &x, &y, rx, ry);
  }
  return d;
}

std::vector<uint32_t> tile_order(TileOrderKind kind, uint32_t tiles_x, uint32_t tiles_y) {
  std::vector<uint32_t> out;
  out.reserve(size_t{tiles_x} * tiles_y);
  switch (kind) {
    case TileOrderKind::Scanline:
      for (uint32_t t = 0; t < tiles_x * tiles_y; ++t) out.push_back(t);
      break;
    case TileOrderKind::Z: {
      std::vector<std::pair<uint64_t, uint32_t>> keyed;
      keyed.reserve(out.capacity());
      for (uint32_t y = 0; y < tiles_y; ++y) {
        for (uint32_t x = 0; x < tiles_x; ++x) keyed.emplace_back(morton(x, y), y * tiles_x + x);
      }
      std::sort(keyed.begin(), keyed.end());
      for (const auto& [key, tile] : keyed) out.push_back(tile);
      break;
    }
    case TileOrderKind::Hilbert:
      append_hilbert(tiles_x, 0, 0, tiles_x, tiles_y, enclosing_square(tiles_x, tiles_y), out);
      break;
    case TileOrderKind::SHilbert: {
      // Sub-frame rows alternate direction. Each sub-frame's curve leaves it at the corner that
      // touches the next sub-frame: on the side facing the row's direction, or, for the last of a
      // row, at the bottom, above the next row's first sub-frame (same column). So every step
      // crosses to an edge neighbour, across sub-frames and rows too; partial sub-frames at the
      // right and bottom edges get the generalised curve of their own rectangle.
      constexpr uint32_t kSub = 8;  // paper 001 section III-C: 8x8-tile sub-frames
      // A last row or column of sub-frames one tile deep joins the one before (9 tiles), so no
      // sub-frame is a single line of tiles unless the whole grid is.
      const auto count = [](uint32_t tiles) { return tiles > kSub && tiles % kSub == 1 ? tiles / kSub : (tiles + kSub - 1) / kSub; };
      const uint32_t rows = count(tiles_y), cols = count(tiles_x);
      uint32_t ex = 0, ey = 0;  // the tile where the next sub-frame is entered
      for (uint32_t r = 0; r < rows; ++r) {
        const bool right_to_left = r % 2 == 1;
        for (uint32_t i = 0; i < cols; ++i) {
          const uint32_t c = right_to_left ? cols - 1 - i : i;
          const uint32_t x0 = c * kSub, y0 = r * kSub;
          const uint32_t w = c + 1 == cols ? tiles_x - x0 : kSub, h = r + 1 == rows ? tiles_y - y0 : kSub;
          const bool last_in_row = i + 1 == cols, last = last_in_row && r + 1 == rows;
          if (w == 1 || h == 1) {
            // One column or row of tiles: walked from the entry to its other end.
            const int sx = w == 1 ? 0 : (ex == x0 ? 1 : -1), sy = h == 1 ? 0 : (ey == y0 ? 1 : -1);
            for (uint32_t k = 0; k < std::max(w, h); ++k) {
              out.push_back((ey + static_cast<uint32_t>(static_cast<int>(k) * sy)) * tiles_x + ex +
                            static_cast<uint32_t>(static_cast<int>(k) * sx));
            }
          } else {
            // The corner nearest the entry tile (the tile itself, unless the sub-frame before
            // could not end at its corner: then one step is diagonal).
            const Corner entry{2 * (ex - x0) >= w - 1, 2 * (ey - y0) >= h - 1};
            Corner exit{};
            if (!last_in_row) {
              const bool facing_right = !right_to_left;
              exit = entry.right == facing_right ? Corner{entry.right, !entry.bottom} : Corner{facing_right, entry.bottom};
            } else if (!last) {
              exit = entry.bottom ? Corner{!entry.right, true} : Corner{entry.right, true};
            } else {
              // The frame's last sub-frame: either adjacent corner, one an edge path reaches.
              exit = Corner{!entry.right, entry.bottom};
              if (!edge_path_exists(w, h, entry, exit)) exit = Corner{entry.right, !entry.bottom};
            }
            append_sub_frame(tiles_x, x0, y0, w, h, entry, exit, out);
          }
          const uint32_t x = out.back() % tiles_x, y = out.back() / tiles_x;
          ex = last_in_row ? x : (right_to_left ? x - 1 : x + 1);
          ey = last_in_row ? y + 1 : y;
        }
      }
      break;
    }
  }
  return out;
}

}  // namespace tessera::pipeline
