#include "tessera/pipeline/tile_fetch.h"

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

std::vector<uint32_t> fetch_order(const PolygonListBuilder& pb, const TileOrder& order) {
  const TilingConfig& config = pb.config();
  std::vector<uint32_t> tiles = order.order(config.tiles_x(), config.tiles_y());
  if (!is_permutation_of_tiles(tiles, config.tile_count())) tiles.clear();
  return tiles;
}

uint32_t fetch_tiles(const PolygonListBuilder& pb, const TileOrder& order, const TileVisitor& visit,
                     std::vector<PbAccess>& reads) {
  const std::vector<uint32_t> tiles = fetch_order(pb, order);
  for (uint32_t t : tiles) {
    pb.tile_reads(t, reads);
    visit(t, pb.tile_list(t));
  }
  return static_cast<uint32_t>(tiles.size());
}

}  // namespace tessera::pipeline
