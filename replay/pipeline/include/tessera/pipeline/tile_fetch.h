// Tile fetch: the Tile Fetcher of the Tiling Engine (paper 003 section II-A). Tiles are visited
// in an order given by a TileOrder (scanline here; the DTexL orders of paper 001 plug in through
// the same interface) and, per tile, the primitives of its list in submission order, recording
// the Parameter Buffer reads that this takes.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "tessera/pipeline/binning.h"

namespace tessera::pipeline {

class TileOrder {
 public:
  virtual ~TileOrder() = default;
  // A permutation of 0 .. tiles_x * tiles_y - 1 (tile index = ty * tiles_x + tx).
  virtual std::vector<uint32_t> order(uint32_t tiles_x, uint32_t tiles_y) const = 0;
};

// Row by row, left to right, top to bottom.
class ScanlineOrder final : public TileOrder {
 public:
  std::vector<uint32_t> order(uint32_t tiles_x, uint32_t tiles_y) const override;
};

// Called once per tile, with the tile index and its primitives (indices into
// PolygonListBuilder::primitives()) in submission order. Tiles with an empty list are visited
// too: the tile buffers of an empty tile are still cleared and flushed.
using TileVisitor = std::function<void(uint32_t tile, std::span<const uint32_t> primitives)>;

// Visits every tile in `order`, appending the PB reads of each tile to `reads` before visiting
// it. Returns the number of tiles visited. A TileOrder that is not a permutation is rejected
// (returns 0, visits nothing) rather than silently skipping or repeating tiles.
uint32_t fetch_tiles(const PolygonListBuilder& pb, const TileOrder& order, const TileVisitor& visit,
                     std::vector<PbAccess>& reads);

// The tiles fetch_tiles visits, in its order; empty when the TileOrder is not a permutation. For
// a caller that issues each tile's reads itself (PolygonListBuilder::tile_reads) where it
// renders the tile, rather than holding every tile's reads at once.
std::vector<uint32_t> fetch_order(const PolygonListBuilder& pb, const TileOrder& order);

}  // namespace tessera::pipeline
