// Where each PMD of the PB-Lists section of the Parameter Buffer lives (paper 003).
//   Baseline (section II-B, Fig. 3): one list per tile, consecutive in memory, each list
//     reserving max_primitives_per_tile PMDs (1024 x 4 B = 64 lines). The lists of consecutive
//     tiles are a large power of two apart, so a tile's first lines all land in the same few
//     cache sets, while most of each list stays empty (section III-B).
//   Interleaved (section III-B, Fig. 6): the first line (16 PMDs) of every tile's list, one line
//     per tile, forms section 0; the next 16 PMDs of every list form section 1, and so on. The
//     lines a tile uses are `tiles` lines apart, so consecutive tiles fill consecutive lines and
//     spread over every set; there is no per-tile limit.
// The paper assumes no baseline list outgrows its 1024 PMDs; a real frame can, so past them the
// baseline continues in an overflow area right after the lists, interleaved like Fig. 6 (line j
// of every list's overflow, one line per tile): an address function with no state, unlike the
// renderer's chained overflow blocks (pipeline/binning.h).
// A list is named by its slot: TCOR numbers tiles by processing position (TileIdField), which
// lets the L2 recover the last tile of a PB-Lists line from its address (section III-D1:
// "a subtraction ... followed by a modulo operation with the number of tiles").
#pragma once

#include <cstdint>
#include <string_view>

namespace tessera::model::tcor {

enum class PbListsLayoutKind : uint8_t { Baseline, Interleaved };

// "baseline" / "interleaved" (the values of tcor.pb_layout).
std::string_view layout_name(PbListsLayoutKind kind);
// Throws std::invalid_argument naming the value for anything else.
PbListsLayoutKind parse_layout(std::string_view name);

struct PbListsGeometry {
  uint64_t lists_base = 0x4000'0000;  // "PB-Lists Pointer" (the renderer's default, pipeline/binning.h)
  uint32_t line_bytes = 64;
  uint32_t pmd_bytes = 4;
  uint32_t max_primitives_per_tile = 1024;  // baseline only
  uint32_t pmds_per_line() const { return line_bytes / pmd_bytes; }
};

class PbListsLayout {
 public:
  // Throws std::invalid_argument for zero tiles or a geometry whose lines do not hold whole PMDs
  // or whose baseline lists are not whole lines.
  PbListsLayout(PbListsLayoutKind kind, uint32_t tiles, PbListsGeometry geometry = {});

  PbListsLayoutKind kind() const { return kind_; }
  uint32_t tiles() const { return tiles_; }
  const PbListsGeometry& geometry() const { return geometry_; }

  // Address of the PMD at `index` of list `slot`. Throws std::out_of_range for a slot past the
  // tiles.
  uint64_t pmd_address(uint32_t slot, uint32_t index) const;
  // Address of the `line`-th line of list `slot` (PMDs line*16 .. line*16+15).
  uint64_t line_address(uint32_t slot, uint32_t line) const;
  // The list slot a PB-Lists line belongs to (what the L2 derives from the address). Throws
  // std::out_of_range below the PB-Lists Pointer.
  uint32_t slot_of_line(uint64_t address) const;

 private:
  PbListsLayoutKind kind_;
  uint32_t tiles_;
  PbListsGeometry geometry_;
  uint32_t lines_per_list_;  // baseline
};

}  // namespace tessera::model::tcor
