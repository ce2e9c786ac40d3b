// The OPT Numbers of paper 003 (TCOR, section III-A), the one source of next-use information for
// the tile cache: the unified tile cache with tile.policy=opt and TCOR's split Tile Cache both
// take them from here (MemRequest::next_use). While binning, the Polygon List Builder knows every
// tile a primitive overlaps, and the order in which the Tile Fetcher will process the tiles is
// fixed, so each access to a Parameter Buffer line can carry the processing position of the next
// tile that reads the line: for a read in tile k, the next tile after k that reads it again (a
// primitive read by several tiles; "the number a line carries is updated on each read"), for an
// attribute write the first tile that reads it (III-C4). Positions, not tile ids: "next" is only
// meaningful in processing order.
//
// One refinement for a cache that also holds PB-Lists (the unified tile cache): a PMD line is
// appended to during binning, so its next access may be a write of the binning itself, sooner
// than any tile. Such a next use is numbered by that write's position in the subpass's binning,
// below every tile (kFirstTile); a next read in the tile at position k is kFirstTile + k. Without
// it OPT would evict the lists' open lines of far tiles and miss on their next append, which LRU
// keeps; with it OPT is Belady's during binning and the paper's tile-granular OPT in the raster
// phase. TCOR's Attribute Cache sees only attribute lines, written once: their numbers are always
// tiles (next_tile). Numbers restart per subpass: its Parameter Buffer is built and used up before
// the next one is binned.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "tessera/model/access.h"

namespace tessera::model {

// Tile position of a Polygon List Builder write (it happens before every read of its subpass).
inline constexpr uint32_t kBinning = std::numeric_limits<uint32_t>::max();

// Next uses at or above kFirstTile are reads: kFirstTile + the reading tile's position.
inline constexpr uint64_t kFirstTile = uint64_t{1} << 32;

// One access of the tile cache in one subpass, in the order the cache sees them (the writes in
// stream order, then the reads in tile order).
struct TileCacheAccess {
  uint64_t line = 0;         // line address (or any number naming the line)
  uint32_t tile = kBinning;  // a read: the processing position of the reading tile
};

// result[i] = the next use of accesses[i].line after access i: kFirstTile + the position of the
// tile that reads it next, the binning position of its next write when that comes first, or
// kNoNextUse when nothing uses the line again.
std::vector<uint64_t> tile_opt_numbers(std::span<const TileCacheAccess> accesses);

// The paper's OPT Number of a next use: the position of the next tile that reads the line
// (0, before every tile, for a next use during binning), or kNoNextUse.
inline uint64_t next_tile(uint64_t next_use) {
  if (next_use == kNoNextUse) return next_use;
  return next_use < kFirstTile ? 0 : next_use - kFirstTile;
}

}  // namespace tessera::model
