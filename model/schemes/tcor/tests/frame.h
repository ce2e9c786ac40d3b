// Constructed frames for the TCOR tests: binning output (the tiles each primitive overlaps) on a
// grid of tiles, and tile processing orders.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace tessera::model::tcor::test {

// Scanline order: tile ty * tiles_x + tx processed in that order.
inline std::vector<uint32_t> scanline_order(uint32_t tiles) {
  std::vector<uint32_t> order(tiles);
  for (uint32_t i = 0; i < tiles; ++i) order[i] = i;
  return order;
}

// Z-order (Morton) traversal of a tiles_x x tiles_y grid (Table I's tile order): tiles sorted by
// their interleaved coordinate bits; for grids that are not powers of two the missing tiles are
// skipped.
inline std::vector<uint32_t> z_order(uint32_t tiles_x, uint32_t tiles_y) {
  std::vector<uint32_t> order;
  for (uint32_t z = 0; order.size() < uint64_t{tiles_x} * tiles_y; ++z) {
    uint32_t x = 0, y = 0;
    for (uint32_t b = 0; b < 16; ++b) {
      x |= ((z >> (2 * b)) & 1u) << b;
      y |= ((z >> (2 * b + 1)) & 1u) << b;
    }
    if (x < tiles_x && y < tiles_y) order.push_back(y * tiles_x + x);
  }
  return order;
}

// A frame of the mobile4 screen (1960x768 in 32x32 tiles: 62 x 24): two primitives covering
// every tile (a background), then `count` small primitives of 1..3 x 1..3 tiles drawn as meshes:
// each next primitive a step of at most one tile from the previous one (neighbouring triangles
// of a mesh), a new mesh at a random place every 64 primitives. A fixed linear congruential
// sequence places them, so every run sees the same frame.
struct Frame {
  uint32_t tiles_x = 62, tiles_y = 24;
  std::vector<std::vector<uint32_t>> tiles_of;  // per primitive, submission order
  std::vector<uint32_t> attributes;             // per primitive, 1 .. 4

  uint32_t tiles() const { return tiles_x * tiles_y; }
};

// The binning in processing order: per position of `order`, the primitives its tile's list
// names, in submission order.
inline std::vector<std::vector<uint32_t>> lists_by_position(const Frame& f, const std::vector<uint32_t>& order) {
  std::vector<uint32_t> position(order.size());
  for (uint32_t k = 0; k < order.size(); ++k) position[order[k]] = k;
  std::vector<std::vector<uint32_t>> lists(order.size());
  for (uint32_t p = 0; p < f.tiles_of.size(); ++p)
    for (uint32_t t : f.tiles_of[p]) lists[position[t]].push_back(p);
  return lists;
}

inline Frame constructed_frame(uint32_t count) {
  Frame f;
  auto rect = [&](uint32_t x0, uint32_t y0, uint32_t w, uint32_t h, uint32_t attributes) {
    std::vector<uint32_t> tiles;
    for (uint32_t y = y0; y < y0 + h && y < f.tiles_y; ++y)
      for (uint32_t x = x0; x < x0 + w && x < f.tiles_x; ++x) tiles.push_back(y * f.tiles_x + x);
    f.tiles_of.push_back(tiles);
    f.attributes.push_back(attributes);
  };
  rect(0, 0, f.tiles_x, f.tiles_y, 2);
  rect(0, 0, f.tiles_x, f.tiles_y, 2);
  uint64_t state = 12345;
  auto next = [&state](uint32_t bound) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<uint32_t>((state >> 33) % bound);
  };
  int64_t x = 0, y = 0;
  for (uint32_t i = 0; i < count; ++i) {
    if (i % 64 == 0) {
      x = next(f.tiles_x);
      y = next(f.tiles_y);
    } else {
      x = std::clamp<int64_t>(x + next(3) - 1, 0, f.tiles_x - 1);
      y = std::clamp<int64_t>(y + next(3) - 1, 0, f.tiles_y - 1);
    }
    const uint32_t w = 1 + next(3), h = 1 + next(3);
    rect(static_cast<uint32_t>(x), static_cast<uint32_t>(y), w, h, 1 + next(4));
  }
  return f;
}

}  // namespace tessera::model::tcor::test
