// Binning: the Polygon List Builder of the Tiling Engine. Paper 003 (TCOR) section II-A/II-B.
//
// Each triangle, in submission order, is appended to the list of every tile it overlaps. The
// lists and the attributes live in the Parameter Buffer, in a simulated address space laid out
// as the baseline of paper 003 section II-B (Figs. 3 and 4):
//   PB-Lists: one list per tile of up to max_primitives_per_tile PMDs (Primitive MetaData, 4 B:
//     primitive ID + number of attributes), 16 PMDs per 64 B line; the list of tile t starts at
//     lists_base + t * max_primitives_per_tile * 4 (1024 PMDs: 64 lines after the previous one).
//   PB-Attributes: each primitive's attributes once, in arrival order; an attribute is 48 B (one
//     16 B vec4 per vertex) and block aligned, so it occupies its own 64 B line. The primitive ID
//     stored in a PMD is the address of the primitive's first attribute.
// A tile list longer than max_primitives_per_tile continues in 64 B overflow blocks allocated
// from overflow_base (the paper assumes the limit is never reached; the functional pipeline must
// not drop geometry, so it chains blocks and counts the tiles that needed them).
#pragma once

#include <climits>
#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

#include "tessera/pipeline/vertex.h"

namespace tessera::pipeline {

// Where the samples of a pixel lie: the sub-pixel offsets (kSubPixelBits fractional bits, from
// the pixel's upper left corner) of its leftmost, rightmost, topmost and bottommost sample. One
// sample sits at the centre; with more, the spec's standard locations (raster.h SampleGrid).
struct SampleExtent {
  int32_t min_x = kSubPixelOne / 2, max_x = kSubPixelOne / 2;
  int32_t min_y = kSubPixelOne / 2, max_y = kSubPixelOne / 2;
};

struct TilingConfig {
  uint32_t width = 0, height = 0;  // framebuffer (render area) size in pixels
  uint32_t tile_width = 32, tile_height = 32;
  SampleExtent samples;  // a tile gets a primitive that covers one of its samples
  // Scissor rectangle (pixels, [x0, x1) x [y0, y1)); samples outside are never covered, so a
  // tile outside it gets nothing. Defaults to the whole framebuffer.
  int32_t scissor_x0 = 0, scissor_y0 = 0, scissor_x1 = INT32_MAX, scissor_y1 = INT32_MAX;
  uint32_t tiles_x() const { return tile_width ? (width + tile_width - 1) / tile_width : 0; }
  uint32_t tiles_y() const { return tile_height ? (height + tile_height - 1) / tile_height : 0; }
  uint32_t tile_count() const { return tiles_x() * tiles_y(); }
};

struct ParameterBufferLayout {
  uint64_t lists_base = 0x4000'0000;       // "PB-Lists Pointer"
  uint64_t attributes_base = 0x5000'0000;  // "PB-Attributes Pointer"
  uint64_t overflow_base = 0x6000'0000;
  uint32_t line_bytes = 64;
  uint32_t pmd_bytes = 4;
  uint32_t attribute_bytes = 48;
  uint32_t max_primitives_per_tile = 1024;  // a multiple of pmds_per_line(), so lists are line aligned
  uint32_t pmds_per_line() const { return line_bytes / pmd_bytes; }
};

enum class PbSection : uint8_t { Lists, Attributes };

// One Parameter Buffer access (a write by the Polygon List Builder or a read by the Tile Fetcher).
struct PbAccess {
  uint64_t address = 0;
  uint32_t size = 0;
  PbSection section = PbSection::Lists;
  uint32_t tile = 0;       // tile whose list is touched; for attribute writes, the first tile
  uint32_t primitive = 0;  // index of the primitive in submission order
};

// Primitive metadata as stored in a PB-Lists entry.
struct PrimitiveMetadata {
  uint64_t primitive_id = 0;  // address of the first attribute in PB-Attributes
  uint32_t attribute_count = 0;
};

// Number of 48-byte attributes of a triangle: its position (x, y, z, 1/w per vertex) plus one
// per vec4 of varyings.
uint32_t attribute_count(uint32_t varying_count);

// Pixel rectangle of tile t clipped to the framebuffer and the scissor (empty when x0 >= x1).
struct PixelRect {
  int32_t x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // [x0, x1) x [y0, y1)
};
PixelRect tile_rect(const TilingConfig& config, uint32_t tile);

// Overlap test of a primitive's coverage region (its triangle, or the quadrilateral of a line or
// point) with the rectangle spanned by the sample points of `rect`: bounding boxes first, then
// each edge against the rectangle corner that lies furthest inside it (separating-axis theorem:
// for a convex polygon and an axis-aligned rectangle the box axes and the polygon's edge normals
// are the only candidate separating axes). The fill rule is applied at the corner, so a triangle
// that only touches the rectangle on a non-top-left edge does not overlap. Exact for one sample
// at the pixel centre; with more samples the rectangle spans them all, so a sliver passing
// between the samples of the tile's border pixels can still overlap. Bresenham lines test the
// conservative region their setup stores (line_point_setup.h).
bool overlaps(const ScreenTriangle& triangle, const PixelRect& rect, const SampleExtent& samples = {});

class PolygonListBuilder {
 public:
  explicit PolygonListBuilder(TilingConfig config, ParameterBufferLayout layout = {});

  // Bins one triangle (its primitive_id is overwritten with its submission index) and returns the
  // number of tiles it was appended to. A triangle that overlaps no tile is not stored at all.
  uint32_t bin(const ScreenTriangle& triangle);

  const TilingConfig& config() const { return config_; }
  const ParameterBufferLayout& layout() const { return layout_; }
  // A deque, not a vector: a triangle is ~900 B and a pass bins tens of thousands, so growth
  // must not move the ones already stored (index with [] and size() as before).
  const std::deque<ScreenTriangle>& primitives() const { return primitives_; }
  const PrimitiveMetadata& metadata(uint32_t primitive) const { return metadata_[primitive]; }
  // Primitive indices in tile t's list, in submission order.
  const std::vector<uint32_t>& tile_list(uint32_t tile) const { return lists_[tile]; }
  // Every PB write, in the order the Polygon List Builder issues them: per primitive, the PMD of
  // each tile list it joins, then its attributes.
  const std::vector<PbAccess>& writes() const { return writes_; }
  uint32_t overflowed_tiles() const { return overflowed_tiles_; }

  // Host bytes the builder holds: per tile its list and overflow chain, per primitive its
  // triangle and metadata, per tile list entry the entry, its PB write and its share of an
  // overflow block, per attribute its PB write. The entries dominate: a primitive joins the list
  // of every tile it overlaps, so a full-screen triangle on a 32768x32768 render area in 32x32
  // tiles adds a million of them (28 MiB). Counted by size; a vector's capacity may run ahead of
  // its size by its growth factor.
  uint64_t held_bytes() const { return held_bytes_; }
  // The caller's bound on held_bytes() (a replay's memory budget). bin() calls `reserve` before
  // it stores a primitive that would take held_bytes() past what `reserve` last granted, with the
  // bytes it then holds; `reserve` returns its new grant (at least that), or throws, and the
  // builder then holds what it held before that primitive. Without one, nothing is bounded.
  using Reserve = std::function<uint64_t(uint64_t needed)>;
  void set_reserve(Reserve reserve);

  // Address of entry `index` of tile t's list.
  uint64_t pmd_address(uint32_t tile, uint32_t index) const;
  // The reads the Tile Fetcher issues for tile t (paper 003 section II-B and III-A.3): one 64 B
  // line read per 16 PMDs of its list, and after each line the attributes (48 B each) of the
  // primitives that line names, in list order.
  void tile_reads(uint32_t tile, std::vector<PbAccess>& out) const;

 private:
  TilingConfig config_;
  ParameterBufferLayout layout_;
  std::deque<ScreenTriangle> primitives_;
  std::vector<PrimitiveMetadata> metadata_;
  std::vector<std::vector<uint32_t>> lists_;
  std::vector<std::vector<uint64_t>> overflow_blocks_;  // per tile, chained 64 B blocks
  std::vector<PbAccess> writes_;
  uint64_t next_attribute_line_ = 0;
  uint64_t next_overflow_block_ = 0;
  uint32_t overflowed_tiles_ = 0;
  std::vector<uint32_t> candidate_tiles_;  // scratch of bin(), kept to reuse its capacity
  uint64_t held_bytes_ = 0;
  uint64_t granted_ = UINT64_MAX;
  Reserve reserve_;
};

}  // namespace tessera::pipeline
