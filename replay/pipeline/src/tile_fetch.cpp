#include "tessera/pipeline/tile_fetch.h"

#include <utility>

namespace tessera::pipeline {

std::vector<uint32_t> ScanlineOrder::order(uint32_t tiles_x, uint32_t tiles_y) const {
  std::vector<uint32_t> tiles(size_t{tiles_x} * tiles_y);
  for (uint32_t i = 0; i < tiles.size(); ++i) tiles[i] = i;
  return tiles;
}

namespace {

bool is_permutation_of_tiles(std::span<const uint32_t> tiles, uint32_t tile_count) {
  if (tiles.size() != tile_count) return false;
  std::vector<bool> seen(tile_count, false);
  for (uint32_t t : tiles) {
    if (t >= tile_count || seen[t]) return false;
    seen[t] = true;
  }
  return true;
}

}  // namespace

OptNumbers opt_numbers(const PolygonListBuilder& pb, std::span<const uint32_t> order) {
  OptNumbers r;
  const uint32_t tiles = pb.config().tile_count();
  if (!is_permutation_of_tiles(order, tiles)) return r;
  const size_t prims = pb.primitives().size();
  r.first_tile.assign(prims, kNoNextTile);
  r.last_tile.assign(prims, kNoNextTile);
  r.next_tile.resize(tiles);
  // Walk the order backwards: `upcoming[p]` is the next position (after the current one) whose
  // tile lists primitive p.
  std::vector<uint32_t> upcoming(prims, kNoNextTile);
  for (size_t pos = order.size(); pos-- > 0;) {
    const uint32_t tile = order[pos];
    const std::vector<uint32_t>& list = pb.tile_list(tile);
    std::vector<uint32_t>& next = r.next_tile[tile];
    next.resize(list.size());
    for (size_t i = 0; i < list.size(); ++i) {
      const uint32_t p = list[i];
      next[i] = upcoming[p];
      if (r.last_tile[p] == kNoNextTile) r.last_tile[p] = static_cast<uint32_t>(pos);
      upcoming[p] = static_cast<uint32_t>(pos);
    }
  }
  r.first_tile = std::move(upcoming);
  return r;
}

uint32_t fetch_tiles(const PolygonListBuilder& pb, const TileOrder& order, const TileVisitor& visit,
                     std::vector<PbAccess>& reads) {
  const TilingConfig& config = pb.config();
  const std::vector<uint32_t> tiles = order.order(config.tiles_x(), config.tiles_y());
  if (!is_permutation_of_tiles(tiles, config.tile_count())) return 0;
  for (uint32_t t : tiles) {
    pb.tile_reads(t, reads);
    visit(t, pb.tile_list(t));
  }
  return static_cast<uint32_t>(tiles.size());
}

}  // namespace tessera::pipeline
