#include "tessera/pipeline/tile_order.h"

#include <algorithm>
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

// Tiles of the sub-rectangle [x0, x0 + w) x [y0, y0 + h) in Hilbert order of its enclosing square
// (mirrored left-right when `mirror`), appended to `out`.
void append_hilbert(uint32_t tiles_x, uint32_t x0, uint32_t y0, uint32_t w, uint32_t h, uint32_t n, bool mirror,
                    std::vector<uint32_t>& out) {
  for (uint32_t d = 0; d < n * n; ++d) {
    uint32_t x = 0, y = 0;
    hilbert_point(n, d, &x, &y);
    if (mirror) x = n - 1 - x;
    if (x < w && y < h) out.push_back((y0 + y) * tiles_x + x0 + x);
  }
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
      append_hilbert(tiles_x, 0, 0, tiles_x, tiles_y, enclosing_square(tiles_x, tiles_y), false, out);
      break;
    case TileOrderKind::SHilbert: {
      constexpr uint32_t kSub = 8;  // paper 001 section III-C: 8x8-tile sub-frames
      const uint32_t rows = (tiles_y + kSub - 1) / kSub, cols = (tiles_x + kSub - 1) / kSub;
      for (uint32_t r = 0; r < rows; ++r) {
        const bool right_to_left = r % 2 == 1;
        for (uint32_t i = 0; i < cols; ++i) {
          const uint32_t c = right_to_left ? cols - 1 - i : i;
          const uint32_t x0 = c * kSub, y0 = r * kSub;
          const uint32_t w = std::min(kSub, tiles_x - x0), h = std::min(kSub, tiles_y - y0);
          // Mirrored in right-to-left rows, within the full 8-wide sub-frame, so a partial
          // sub-frame keeps its tiles at the frame's edge.
          append_hilbert(tiles_x, x0, y0, w, h, kSub, right_to_left, out);
        }
      }
      break;
    }
  }
  return out;
}

}  // namespace tessera::pipeline
